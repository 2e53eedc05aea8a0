"""The explorer: games nobody thought of, step by step, checking the engine as it goes.

Never used by the referee itself: the property tests, the coverage test and `bench/explore.py`
drive it. At each state it offers *every* legal step the engine's `pending` describes (each
eligible player's own pass, the table's pass, every challenge, a block as each character,
every private step with every card choice the table could make), and a chooser picks one: a
seeded `random.Random`, or hypothesis (`st.data()`), so that a failing game shrinks to a short
one. Set-ups range over every rule setting, every preset, 2-10 players, tracked and untracked
hands, short decks and small boxes of coins.

After every step `check` asserts the invariants: coins and cards conserved; `pending` offers a
step if and only if `apply` accepts it (for near-miss steps made by changing one field of a
legal one, and for steps refused only because every copy of a card is accounted for); what a
seat's screen is given never depends on another seat's hidden cards; and at the end, the
exported record replays to the same state.

`Coverage` counts, for each window and step kind (and each setting that changes that step),
how often it was reached, and which rulings were given.
"""

from __future__ import annotations

import ast
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, TypeVar

from .engine import (
    CARD_ACCOUNTED_FOR,
    STEPS,
    Game,
    Prompt,
    RuleError,
    apply,
    characters_in_play,
    new_game,
    pending,
    seat_view,
    table_view,
)
from .engine.cards import ACTIONS, CHARACTERS
from .engine.rules import CHOICES, PRESETS, Rules, default_copies, parse_rules
from .engine.state import (
    BlockWindow,
    Challenged,
    ChallengeWindow,
    Draw,
    Examine,
    Exchange,
    evolve,
    with_player,
)
from .records import export, parse

T = TypeVar("T")
Step = dict[str, Any]
Chooser = Callable[[Sequence[T], str], T]


def rng_chooser(rng: random.Random) -> Chooser[Any]:
    return lambda options, label: rng.choice(list(options))


# --- set-ups -----------------------------------------------------------------------------


def random_rules(choose: Chooser[Any], players: int) -> dict[str, Any]:
    """Any preset (or none), and each setting left alone or set to any of its values."""
    rules: dict[str, Any] = {}
    preset = choose(["", *PRESETS], "preset")
    if preset:
        rules["preset"] = preset
    for key, values in CHOICES.items():
        if key == "two_player_setup" and players != 2:
            continue
        value = choose([None, *values], key)
        if value is not None:
            rules[key] = value
    return rules


def random_setup(choose: Chooser[Any], players: int | None = None) -> dict[str, Any]:
    """A legal set-up: any rules, a short deck or a small box now and then, hands dealt from
    the deck (or chosen from sets of five), some hands untracked."""
    n = players or choose(range(2, 11), "players")
    rules = random_rules(choose, n)
    parsed = parse_rules(rules)
    copies = default_copies(n)
    if n <= 6 and parsed.two_player_setup != "choose_hand":  # three sets of five
        least = -(-2 * n // 5)  # the hands must fit in the deck
        copies = choose([copies, *range(least, copies)], "copies")
        if copies != default_copies(n):
            rules["copies_per_character"] = copies
    box = choose([50, 30, 2 * n + 2], "coins_in_box")
    if box != 50:
        rules["coins_in_box"] = box
    names = [f"P{i}" for i in range(n)]
    setup: dict[str, Any] = {"rules": rules, "players": names, "first": choose(names, "first")}
    in_play = list(characters_in_play(parsed))
    if parsed.two_player_setup == "choose_hand":
        court = [c for c in in_play]
        dealt = [choose(court, "dealt")]
        dealt.append(choose([c for c in court if c != dealt[0]], "dealt"))
        hands = {name: [choose(in_play, "kept"), card] for name, card in zip(names, dealt,
                                                                           strict=True)}
        setup["court_deck"] = [c for c in in_play if c not in dealt]
    else:
        deck = Counter({c: copies for c in in_play})
        hands = {}
        for name in names:
            hand = []
            for _ in range(2):
                c = choose(sorted(deck.elements()), "card")
                deck[c] -= 1
                hand.append(c)
            hands[name] = hand
    setup["hands"] = {name: hand if choose([True, False], "tracked") else None
                      for name, hand in hands.items()}
    return setup


# --- every legal step --------------------------------------------------------------------


def legal_steps(game: Game) -> list[Step]:
    """Every step the engine offers now, with every card choice the table could make."""
    steps: list[Step] = []
    t = game.turn
    if t is not None and isinstance(t.open, ChallengeWindow | BlockWindow):
        steps.append({"do": "pass"})
    for prompt in pending(game):
        steps += PROMPT_STEPS[prompt.kind](game, prompt)
    return steps


def declare_steps(game: Game, p: Prompt) -> list[Step]:
    steps: list[Step] = []
    for a in p.options["actions"]:
        if a["targets"] is None and a["error"] is None:
            steps.append({"by": p.player, "do": a["action"]})
        for target in a["targets"] or []:
            steps.append({"by": p.player, "do": a["action"], "target": target})
    return steps


def respond_steps(game: Game, p: Prompt) -> list[Step]:
    return [{"by": p.player, "do": "challenge"}, {"by": p.player, "do": "pass"}]


def block_steps(game: Game, p: Prompt) -> list[Step]:
    return [*({"by": p.player, "do": "block", "as": c} for c in p.options["as"]),
            {"by": p.player, "do": "pass"}]


def answer_steps(game: Game, p: Prompt) -> list[Step]:
    steps = []
    claim = p.options["claim"]
    possible = p.options["inverted"] or p.options["holds"] is not None or game.unseen[claim] > 0
    if p.options["can_prove"] and possible:
        steps.append({"by": p.player, "do": "prove"})
    return [*steps, {"by": p.player, "do": "concede"}]


def lose_steps(game: Game, p: Prompt) -> list[Step]:
    player = game.player(p.player)
    must = p.options["must"]
    cards = sorted(set(p.options["cards"]))
    if player.hand is None:
        cards = [c for c in cards if game.unseen[c] > 0]
    return [{"by": p.player, "do": "lose", "card": c} for c in cards if must in (None, c)]


def draw_pool(game: Game, d: Draw) -> Counter[str]:
    """The cards the deck can hand this drawer (as `check_draw` reckons it)."""
    pool = Counter(game.unseen.items())
    if (d.reason == "proof" and not d.to_bottom) or (d.to_bottom and game.deck_size < d.count):
        pool.update(d.returned)
    return pool


def owed_draw(game: Game, name: str) -> Draw:
    assert game.turn is not None
    return next(d for d in game.turn.draws if d.player == name)


def draw_steps(game: Game, p: Prompt) -> list[Step]:
    if not p.options["tracked"]:
        return [{"by": p.player, "do": "draw"}]
    pool = draw_pool(game, owed_draw(game, p.player))
    return [{"by": p.player, "do": "draw", "cards": list(combo)}
            for combo in multisets(sorted(pool), p.options["count"])
            if not Counter(combo) - pool]


def multisets(kinds: list[str], n: int) -> Iterator[tuple[str, ...]]:
    return combinations_with_replacement(kinds, n)


def keep_steps(game: Game, p: Prompt) -> list[Step]:
    offered = p.options["offered"]
    if offered is None:
        return [{"by": p.player, "do": "keep"}]
    hand = Counter(game.player(p.player).hand or ())
    steps = []
    for combo in sorted(set(combinations_with_replacement(sorted(offered), p.options["count"]))):
        kept = Counter(combo)
        if not kept - Counter(offered) and sum((kept - hand).values()) <= p.options["max_swap"]:
            steps.append({"by": p.player, "do": "keep", "cards": list(combo)})
    return steps


def show_steps(game: Game, p: Prompt) -> list[Step]:
    target = game.player(p.options["target"])
    if target.hand is None:
        return [{"by": p.player, "do": "show"}]
    return [{"by": p.player, "do": "show", "card": c} for c in sorted(set(target.hand))]


def decide_steps(game: Game, p: Prompt) -> list[Step]:
    steps = []
    if p.options["can_swap"]:
        steps.append({"by": p.player, "do": "swap"})
    if p.options["can_return"]:
        steps.append({"by": p.player, "do": "return"})
    return steps


PROMPT_STEPS: dict[str, Callable[[Game, Prompt], list[Step]]] = {
    "declare": declare_steps,
    "respond": respond_steps,
    "block": block_steps,
    "answer": answer_steps,
    "lose": lose_steps,
    "draw": draw_steps,
    "keep": keep_steps,
    "show": show_steps,
    "decide": decide_steps,
}


def counted_out(game: Game) -> list[Step]:
    """Steps `pending` offers but card counting refuses: a card every copy of which is seen."""
    steps: list[Step] = []
    for p in pending(game):
        player = game.player(p.player)
        if p.kind == "lose" and player.hand is None:
            steps += [{"by": p.player, "do": "lose", "card": c} for c in p.options["cards"]
                      if game.unseen[c] == 0 and p.options["must"] in (None, c)]
        elif p.kind == "draw" and p.options["tracked"]:
            pool = draw_pool(game, owed_draw(game, p.player))
            steps += [{"by": p.player, "do": "draw", "cards": [c] * p.options["count"]}
                      for c in p.options["choices"] if pool[c] < p.options["count"]]
        elif p.kind == "answer" and player.hand is None and not p.options["inverted"]:
            if game.unseen[p.options["claim"]] == 0:
                steps.append({"by": p.player, "do": "prove"})
    return steps


# --- near misses -------------------------------------------------------------------------


def near_misses(game: Game, legal: list[Step], choose: Chooser[Any], count: int) -> list[Step]:
    """Steps one field away from a legal one (another player, step, target or card), and a
    few with no player or an unknown one."""
    names = [p.name for p in game.players]
    values: dict[str, list[Any]] = {
        "by": [*names, "Nobody"],
        "do": list(STEPS),
        "target": [*names, "Nobody"],
        "as": [*CHARACTERS, "joker"],
        "card": [*CHARACTERS, "joker"],
        "cards": [[], [CHARACTERS[0]], list(CHARACTERS[:2]), list(CHARACTERS[1:4])],
    }
    misses: list[Step] = []
    for _ in range(count):
        base = dict(choose(legal, "base")) if legal else {"do": choose(list(STEPS), "do")}
        key = choose(sorted(values), "field")
        value = choose(values[key], "value")
        if key in ("by", "target") and choose([False, True], "drop"):
            base.pop(key, None)
        else:
            base[key] = value
        misses.append(base)
    return misses


# --- invariants --------------------------------------------------------------------------


def check_conservation(game: Game) -> None:
    rules = game.rules
    coins = sum(p.coins for p in game.players) + game.treasury + game.reserve
    assert coins == rules.coins_in_box, "coins are conserved"
    assert min([game.treasury, game.reserve, *(p.coins for p in game.players)]) >= 0
    t = game.turn
    aside = t.open.count if t is not None and isinstance(t.open, Exchange) else 0
    cards = game.deck_size + aside + sum(p.face_down + len(p.revealed) for p in game.players)
    if rules.two_player_setup == "choose_hand":
        assert cards == 7, "the choose-hand set-up plays with seven cards"
        return
    copies = rules.copies(len(game.players))
    assert cards == 5 * copies, "cards are conserved"
    assert all(n >= 0 for n in game.unseen.counts)
    counted = Counter(game.unseen.items())
    for p in game.players:
        counted.update(p.hand or ())
        counted.update(p.revealed)
    if t is not None and isinstance(t.open, Exchange):
        counted.update(t.open.drawn)
    assert counted == Counter({c: copies for c in characters_in_play(rules)})


def scrambled(game: Game, seat: str, choose: Chooser[Any]) -> Game | None:
    """The same game with `seat`'s secret cards swapped for others (what the table saw kept:
    cards shown to prove a claim that wait to be replaced)."""
    p = game.player(seat)
    if p.hand is None:
        return None
    t = game.turn
    public: Counter[str] = Counter()
    if t is not None:
        for d in t.draws:
            if d.player == seat and d.reason == "proof":
                public.update(d.returned)
        for proof in t.proofs:
            if proof.player == seat:
                public.update(proof.cards)
    kept = list((Counter(p.hand) & public).elements())
    choices = list(characters_in_play(game.rules))
    hand = tuple(kept + [choose(choices, "secret") for _ in range(len(p.hand) - len(kept))])
    other = with_player(game, seat, hand=hand)
    if t is not None and t.actor == seat and isinstance(t.open, Exchange) and t.open.drawn:
        drawn = tuple(choose(choices, "secret") for _ in t.open.drawn)
        other = evolve(other, turn=evolve(t, open=evolve(t.open, drawn=drawn)))
    if t is not None and t.target == seat and isinstance(t.open, Examine) and t.open.shown:
        shown = choose(hand, "shown")
        other = evolve(other, turn=evolve(t, open=evolve(t.open, shown=shown)))
    if t is not None and any(d.player == seat and d.reason == "examine" for d in t.draws):
        return None  # the shown card waits on the target's own draw prompt: not scrambled
    return other


def sees_shown(game: Game, seat: str) -> str | None:
    """The examiner, who alone may see the card `seat` shows (E-30)."""
    t = game.turn
    if t is not None and t.target == seat and isinstance(t.open, Examine) and t.open.shown:
        return t.actor
    return None


def check_privacy(game: Game, choose: Chooser[Any]) -> None:
    seat = choose([p.name for p in game.players], "seat")
    other = scrambled(game, seat, choose)
    if other is None:
        return
    assert same(table_view(other), table_view(game)), "the table sees a hidden card"
    examiner = sees_shown(game, seat)
    for p in game.players:
        if p.name not in (seat, examiner):
            assert same(seat_view(other, p.name), seat_view(game, p.name)), (
                f"{p.name}'s screen depends on {seat}'s hidden cards")


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two views hold the same things (the logs compared as rulings, the rest as text)."""
    return a["log"] == b["log"] and repr({**a, "log": None}) == repr({**b, "log": None})


def normal(step: Step) -> str:
    """A step as comparable text: the order of the cards named does not matter."""
    if isinstance(step.get("cards"), list):
        step = {**step, "cards": sorted(map(str, step["cards"]))}
    return json.dumps(step, sort_keys=True)


def check_offers(game: Game, legal: list[Step], choose: Chooser[Any], misses: int) -> None:
    """`pending` offers a step if and only if `apply` accepts it."""
    offered = {normal(s) for s in legal}
    for step in counted_out(game):
        try:
            apply(game, step)
        except RuleError as e:
            assert e.code == CARD_ACCOUNTED_FOR, (step, e.code)
        else:
            raise AssertionError(f"accepted a card every copy of which is seen: {step}")
    for step in near_misses(game, legal, choose, misses):
        try:
            apply(game, step)
        except RuleError:
            continue
        assert normal(step) in offered, f"accepted but not offered: {step}"


def check_rules(game: Game) -> None:
    """Rulings every state must respect, whatever led to it (RULES.md §1.2-1.3, §2)."""
    prompts = pending(game)
    for p in prompts:
        assert not game.player(p.player).out, "E-7: a player who is out is never asked"
    t = game.turn
    if t is None:
        if not game.over and game.player(game.current).coins >= 10:
            [declare] = prompts
            free = [a["action"] for a in declare.options["actions"] if a["error"] is None]
            assert free == ["coup"], "E-14: ten coins at the start of a turn force a Coup"
        return
    spec = ACTIONS[t.action]
    blocking = [p.player for p in prompts if p.kind == "block"]
    if blocking:
        assert spec.blockers, "E-24: only Foreign Aid, Steal and Assassinate are blocked"
        assert t.actor not in blocking, "nobody blocks their own action"
        if spec.blockers == "target":
            assert not game.player(str(t.target)).out, "E-3: no block window for a dead target"
            if not game.rules.anyone_may_block_targeted:
                assert blocking == [t.target], "E-9: only the target blocks"
        assert not any(game.same_side(b, t.actor) for b in blocking), "E-34: not your own side"
    if isinstance(t.open, ChallengeWindow):
        asked = {p.player for p in prompts if p.kind == "respond"}
        assert t.open.claimant not in asked, "nobody challenges their own claim"
        assert asked == {p.name for p in game.players if not p.out and p.name != t.open.claimant
                         and p.name not in t.open.passed}, "E-2: every other living player"


def check_pass_is_local(game: Game, legal: list[Step], choose: Chooser[Any]) -> None:
    """E-4: a pass binds only its own window. Whatever happens next in the window, a player's
    earlier pass leaves no trace once the window is settled."""
    passes = [s for s in legal if s["do"] == "pass" and "by" in s]
    others = [s for s in legal if s["do"] in ("challenge", "block")]
    if not passes or not others:
        return
    passed = choose(passes, "passer")
    step = choose([s for s in others if s["by"] != passed["by"]] or [None], "then")
    if step is None:
        return
    before = apply(game, passed)
    if before.turn is None or before.turn.open is None or not any(
            s == step for s in legal_steps(before)):
        return
    a, b = apply(game, step), apply(before, step)
    assert evolve(a, history=()) == evolve(b, history=()), (
        f"E-4: {passed} changed what followed {step}")


def check_replay(game: Game) -> None:
    record = parse(json.loads(json.dumps(export(game))))
    again = new_game(record.setup)
    for step in record.steps:
        again = apply(again, step)
    assert again == game, "the exported record replays to the same state"


# --- coverage ----------------------------------------------------------------------------

# Which settings change which step kinds: a step is counted under each such setting in force.
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
    """The window or prompt a step answers, in words."""
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
    return STEPS[do].answers[0]


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


def ruling_templates() -> set[str]:
    """Every ruling the engine can give: the first argument after the game of each `say`."""
    found: set[str] = set()
    folder = Path(__file__).resolve().parent / "engine"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "say" and len(node.args) >= 2):
                found.add(template_key(node.args[1]))
    found.discard("")
    return found


def template_key(node: ast.expr) -> str:
    """A say() call's template as text (the singular of a plural pair; "" for an expression)."""
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        return str(node.args[0].value)
    if isinstance(node, ast.IfExp):
        return template_key(node.body) + "|" + template_key(node.orelse)
    return ""


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
        reached = set()
        for text in self.rulings:
            reached.add(text)
        wanted = set()
        for key in ruling_templates():
            options = key.split("|")
            if not any(o in reached for o in options):
                wanted.add(key)
        return sorted(wanted)

    def table(self) -> str:
        lines = [f"{self.games} games, {self.steps} steps", "",
                 "window | step | setting | times"]
        for key in sorted(reachable() | set(self.pairs)):
            lines.append(" | ".join((*key, str(self.pairs[key]))))
        lines += ["", "rule | rulings naming it"]
        lines += [f"{rule} | {n}" for rule, n in sorted(self.rules_named.items(),
                                                         key=lambda kv: int(kv[0][2:]))]
        return "\n".join(lines)


# --- a game ------------------------------------------------------------------------------


@dataclass
class Exploration:
    game: Game
    steps: list[Step]


def explore(choose: Chooser[Any], coverage: Coverage | None = None, max_steps: int = 300,
            checks: bool = True, misses: int = 6, setup: dict[str, Any] | None = None
            ) -> Exploration:
    """Play one game, choosing among every legal step (a kind of step first, so that rare
    kinds are as likely as common ones), checking the invariants after each."""
    setup = setup or random_setup(choose)
    game = new_game(setup)
    labels = setting_labels(game.rules, len(game.players))
    if any(p.hand is None for p in game.players):
        labels.append("untracked")
    played: list[Step] = []
    while not game.over and len(played) < max_steps:
        legal = legal_steps(game)
        assert legal, "a game that is not over always has a legal step"
        if checks:
            check_conservation(game)
            check_rules(game)
            check_offers(game, legal, choose, misses)
            check_privacy(game, choose)
            check_pass_is_local(game, legal, choose)
        kinds = sorted({step_label(s) for s in legal})
        kind = choose(kinds, "kind")
        step = choose([s for s in legal if step_label(s) == kind], "step")
        after = apply(game, step)
        if coverage is not None:
            coverage.count(game, step, after, labels)
        game = after
        played.append(step)
    if checks:
        check_conservation(game)
        check_replay(game)
    if coverage is not None:
        coverage.games += 1
    return Exploration(game, played)


def run(games: int, seed: int = 0, checks: bool = True,
        coverage: Coverage | None = None) -> Coverage:
    coverage = coverage if coverage is not None else Coverage()
    for i in range(games):
        explore(rng_chooser(random.Random(seed * 1_000_003 + i)), coverage, checks=checks)
    return coverage


# --- directed exploration ------------------------------------------------------------------

# What a set-up must choose for a window or step to be reachable at all.
NEEDS: dict[str, dict[str, Any]] = {
    "examine": {"exchanger": "inquisitor"},
    "show": {"exchanger": "inquisitor"},
    "decide": {"exchanger": "inquisitor"},
    "draw (examine)": {"exchanger": "inquisitor"},
    "convert": {"reformation": True},
    "embezzle": {"reformation": True},
    "block window again": {"reblock_foreign_aid": True},
}


def forces_for(key: tuple[str, str, str]) -> dict[str, Any]:
    """Set-up choices that make a (window, step, setting) key reachable."""
    window, label, setting = key
    forced: dict[str, Any] = {}
    for part in (window, label):
        forced.update(NEEDS.get(part, {}))
    if setting == "untracked":
        forced["tracked"] = False
    elif setting == "short deck":
        forced.update(players=5, copies=2)  # an empty court deck: every draw is short
    elif setting == "small box":
        forced["coins_in_box"] = 2 * 3 + 2
        forced["players"] = 3
    elif "=" in setting:
        name, value = setting.split("=")
        values = {str(v).lower(): v for v in CHOICES[name]}
        forced[name] = values[value]
        if name == "two_player_setup":
            forced["players"] = 2
    if window == "decide" and label == "return" and setting == "examine_swap=mandatory":
        forced.update(players=5, copies=2)  # a mandatory swap is waived only when deck is empty
    return forced


def directed_chooser(rng: random.Random, forced: dict[str, Any], prefer: str) -> Chooser[Any]:
    """A random chooser that takes the forced set-up choices, and the preferred step kind
    whenever it is on offer (most of the time, so the game still goes on)."""

    def choose(options: Sequence[Any], label: str) -> Any:
        options = list(options)
        if label in forced and forced[label] in options:
            return forced[label]
        if label == "kind" and prefer in options and rng.random() < 0.8:
            return prefer
        if label == "kind" and "challenge" in options and rng.random() < 0.3:
            return "challenge"
        return rng.choice(options)

    return choose


# Rare rulings, and the set-up and step kind that make them likely.
RULING_NEEDS: dict[str, tuple[dict[str, Any], str]] = {
    "%(target)s is already out; there is nothing to examine.": (
        {"exchanger": "inquisitor", "players": 3}, "examine"),
    "%(target)s is already out; the %(action)s has no effect.": ({"players": 3}, "assassinate"),
    "The treasury holds only %(paid)s of the %(amount)s coin due; %(name)s takes what is "
    "there.": ({"coins_in_box": 8, "players": 3}, "tax"),
}


def run_until_covered(games: int, seed: int = 0, tries: int = 60, checks: bool = True,
                      coverage: Coverage | None = None) -> Coverage:
    """`games` random games, then games aimed at each key or ruling still missing (up to
    `tries` each), so that a run reaches everything reachable without a huge number of games.
    `coverage` may hold what earlier games reached."""
    coverage = run(games, seed, checks, coverage)
    rng = random.Random(seed)
    for key in coverage.missing_pairs():
        forced = forces_for(key)
        for _ in range(tries):
            if coverage.pairs[key]:
                break
            explore(directed_chooser(rng, forced, key[1]), coverage, checks=checks)
    for text in coverage.missing_rulings():
        forced, prefer = RULING_NEEDS.get(text, ({}, "challenge"))
        for _ in range(tries):
            if text not in coverage.missing_rulings():
                break
            explore(directed_chooser(rng, forced, prefer), coverage, checks=checks)
    return coverage
