"""What a run reached: each (window, step, setting) key, each ruling, each rule named."""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from app.engine import (
    STEPS,
    Game,
)
from app.engine.cards import ACTIONS
from app.engine.rules import CHOICES, Rules, default_copies
from app.engine.turn import BlockWindow, Challenged, ChallengeWindow

from .setups import Step
from .steps import owed_draw

RELEVANT: dict[str, frozenset[str]] = {
    "exchanger=inquisitor": frozenset({"exchange", "examine", "show", "swap", "return", "keep",
                                       "block"}),
    "reformation=true": frozenset({"convert", "embezzle", "block", "challenge", "prove",
                                   "concede"}),
    "refund_on_successful_challenge=false": frozenset({"concede"}),
    "proof_replacement=bottom_at_end_of_turn": frozenset({"prove", "draw"}),
    "target_who_challenged_may_block=false": frozenset({"challenge", "block"}),
    "steal_from_zero=allow": frozenset({"steal"}),
    "reblock_foreign_aid=true": frozenset({"block", "concede"}),
    "elimination_coin_return=immediate": frozenset({"lose"}),
    "ambassador_max_swap=1": frozenset({"keep"}),
    "examine_shown_by=examiner": frozenset({"show"}),
    "examine_swap=mandatory": frozenset({"swap", "return"}),
    "embezzle_caught_loses_duke=true": frozenset({"lose"}),
    "anyone_may_block_targeted=true": frozenset({"block"}),
    "two_player_setup=choose_hand": frozenset({"draw", "prove"}),
    "short deck": frozenset({"exchange", "draw", "keep", "swap", "return"}),
    "small box": frozenset({"income", "foreign_aid", "tax"}),
    "untracked": frozenset({"prove", "concede", "lose", "draw", "keep", "show"}),
}

# (window, step, setting) keys no game can reach, and why.
UNREACHABLE: dict[tuple[str, str, str], str] = {}


def setting_labels(rules: Rules, players: int) -> list[str]:
    labels = []
    default = Rules()
    for key in CHOICES:
        value = getattr(rules, key)
        if value != getattr(default, key):
            labels.append(f"{key}={str(value).lower()}")
    if rules.copies(players) < default_copies(players):
        labels.append("short deck")
    if rules.coins_in_box < 50:
        labels.append("small box")
    return labels


def window_of(game: Game, step: Step) -> str:
    """The window or prompt a step is taken for, in words."""
    t = game.turn
    do = step["do"]
    if t is None:
        return "declare"
    w = t.open
    if do in ("challenge", "pass", "block"):
        if isinstance(w, ChallengeWindow):
            return "block's challenge window" if w.on_block else "challenge window"
        if isinstance(w, BlockWindow):
            return "block window again" if w.again else "block window"
    if do in ("prove", "concede") and isinstance(w, Challenged):
        return "challenged block" if w.on_block else "challenged claim"
    if do == "draw":
        return f"draw ({owed_draw(game, step['by']).reason})"
    return STEPS[do].prompts[0]


def step_label(step: Step) -> str:
    if step["do"] == "pass":
        return "pass (player)" if "by" in step else "pass (table)"
    return str(step["do"])


def base_pairs() -> set[tuple[str, str]]:
    pairs = {("declare", a) for a in ACTIONS}
    for window in ("challenge window", "block's challenge window"):
        pairs |= {(window, "challenge"), (window, "pass (player)"), (window, "pass (table)")}
    for window in ("block window", "block window again"):
        pairs |= {(window, "block"), (window, "pass (player)"), (window, "pass (table)")}
    for window in ("challenged claim", "challenged block"):
        pairs |= {(window, "prove"), (window, "concede")}
    pairs |= {("lose", "lose"), ("keep", "keep"), ("show", "show"), ("decide", "swap"),
              ("decide", "return")}
    pairs |= {(f"draw ({reason})", "draw") for reason in ("proof", "exchange", "examine")}
    return pairs


def reachable() -> set[tuple[str, str, str]]:
    keys = {(w, s, "official") for w, s in base_pairs()}
    for label, kinds in RELEVANT.items():
        for w, s in base_pairs():
            kind = "pass" if s.startswith("pass") else s
            if kind in kinds:
                keys.add((w, s, label))
    # The block window opens again only under reblock_foreign_aid: count it there alone.
    keys = {k for k in keys
            if "again" not in k[0] or k[2] in ("official", "reblock_foreign_aid=true")}
    return keys - set(UNREACHABLE)


# The engine's modules that give rulings (the others hold errors, prompts and settings).
RULING_MODULES = ("coins", "flow", "effects", "declare", "respond", "claims", "deck", "examine")
MARKERS = ("N_", "NP_")


def ruling_templates() -> set[str]:
    """Every ruling the engine can give: each template marked for translation in a module
    that gives rulings, except those inside an error (RuleError) or a table of errors."""
    found: set[str] = set()
    folder = Path(__file__).resolve().parents[1] / "engine"
    for name in RULING_MODULES:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        errors = {id(n) for node in ast.walk(tree) if is_error(node) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in MARKERS and id(node) not in errors
                    and isinstance(node.args[0], ast.Constant)):
                found.add(str(node.args[0].value))
    return found


def is_error(node: ast.AST) -> bool:
    """A RuleError(...) call, or a table of error texts (NAMED_CARDS = {...})."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "RuleError"
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return isinstance(target, ast.Name) and target.id == "NAMED_CARDS"
    return False


@dataclass
class Coverage:
    pairs: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    rulings: Counter[str] = field(default_factory=Counter)
    rules_named: Counter[str] = field(default_factory=Counter)
    games: int = 0
    steps: int = 0

    def count(self, before: Game, step: Step, after: Game, labels: list[str]) -> None:
        window, label = window_of(before, step), step_label(step)
        kind = step["do"]
        self.pairs[(window, label, "official")] += 1
        for setting in labels:
            if kind in RELEVANT.get(setting, ()):
                self.pairs[(window, label, setting)] += 1
        for r in after.log[len(before.log):]:
            text = r.text[0] if isinstance(r.text, tuple) else r.text
            self.rulings[text] += 1
            if r.rule:
                self.rules_named[r.rule] += 1
        self.steps += 1

    def missing_pairs(self) -> list[tuple[str, str, str]]:
        return sorted(k for k in reachable() if not self.pairs[k])

    def missing_rulings(self) -> list[str]:
        return sorted(ruling_templates() - set(self.rulings))

    def table(self) -> str:
        lines = [f"{self.games} games, {self.steps} steps", "",
                 "window | step | setting | times"]
        for key in sorted(reachable() | set(self.pairs)):
            lines.append(" | ".join((*key, str(self.pairs[key]))))
        lines += ["", "rule | rulings naming it"]
        lines += [f"{rule} | {n}" for rule, n in sorted(self.rules_named.items(),
                                                         key=lambda kv: int(kv[0][2:]))]
        return "\n".join(lines)
