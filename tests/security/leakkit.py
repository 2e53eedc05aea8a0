"""The plan of one leak-differential game (tests/security/test_no_leaks.py): a random table and
game played in the engine, and a second deal for one seat X with which every step stays legal.
"""

from __future__ import annotations

import difflib
import random
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from werkzeug.datastructures import MultiDict

from app.editions import EDITIONS
from app.engine import RuleError, apply, characters_in_play, check_table, new_game, parse_rules
from app.engine.rules import CHOICES
from app.explore import Chooser, legal_steps, random_rules
from app.web.home import FormProblem, settings_from_form

MAX_STEPS = 40


@dataclass
class Plan:
    names: list[str]
    form: dict[str, str]  # the home page's form
    hands: dict[str, list[str] | None]  # None: no phone (untracked)
    setup: dict[str, Any]
    steps: list[dict[str, Any]]
    x: str = ""
    hand_b: list[str] | None = None


def make_plan(seed: int, app) -> Plan | None:
    """A random table and game, and a second deal for one seat; None when there is none."""
    rng = random.Random(seed)
    n = rng.randint(2, 5)
    names = [f"P{i}" for i in range(n)]
    form = {"players": "\n".join(names), "first": rng.choice(names),
            "edition": rng.choice(list(EDITIONS))}
    for key, value in random_rules(mostly_official(rng), n).items():
        if key == "preset" or (key in CHOICES and key != "two_player_setup"):
            form[key] = str(value)
    # Who answers the table's questions: phones too (their own seat's declarations, challenges,
    # blocks), or the tablet only. Derived from the seed, so each seed's game stays the same.
    form["answers"] = "tablet" if seed % 3 == 2 else "both"
    if seed % 2:  # the Inquisitor's examination: a card shown to one player only
        form["exchanger"] = "inquisitor"
        form["examine_shown_by"] = "examiner" if seed % 4 == 1 else "target"
    try:
        with app.test_request_context():
            names, settings = settings_from_form(MultiDict(form))
        rules = settings["rules"]
        check_table(rules, names)
    except (FormProblem, RuleError):
        return None
    parsed = parse_rules(rules)
    deck = [c for c in characters_in_play(parsed) for _ in range(parsed.copies(n))]
    rng.shuffle(deck)
    hands: dict[str, list[str] | None] = {name: [deck.pop(), deck.pop()] for name in names}
    for name in names:
        if rng.random() < 0.3:
            hands[name] = None
    if all(h is None for h in hands.values()):
        hands[names[0]] = [deck.pop(), deck.pop()]
    setup: dict[str, Any] = {"players": names, "first": settings["first"], "hands": hands}
    if rules:
        setup["rules"] = rules
    plan = Plan(names, form, hands, setup, random_game(setup, rng))
    return plan if second_deal(plan, rng) else None


def random_game(setup: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    game = new_game(setup)
    for _ in range(MAX_STEPS):
        if game.over:
            break
        options = legal_steps(game)
        rng.shuffle(options)
        for step in options:
            try:
                game = apply(game, step)
                break
            except RuleError:
                continue
        else:
            break
    return game.steps


def second_deal(plan: Plan, rng: random.Random) -> bool:
    """Choose X and a different hand for X with which the same steps are all legal."""
    rules = parse_rules(plan.setup.get("rules"))
    pairs = list(combinations_with_replacement(characters_in_play(rules), 2))
    tracked = [name for name, hand in plan.hands.items() if hand is not None]
    rng.shuffle(tracked)
    for x in tracked:
        mine = sorted(plan.hands[x] or [])
        candidates = [list(p) for p in pairs if sorted(p) != mine]
        rng.shuffle(candidates)
        for hand in candidates:
            rng.shuffle(hand)
            setup = {**plan.setup, "hands": {**plan.hands, x: hand}}
            if (public(setup, plan.steps) == public(plan.setup, plan.steps)
                    and hand_after(setup, plan.steps, x) != hand_after(plan.setup, plan.steps, x)):
                plan.x, plan.hand_b = x, hand
                return True
    return False


def hand_after(setup: dict[str, Any], steps: list[dict[str, Any]], x: str) -> list[str]:
    """X's hand once a third of the game is played: an imported table's phones open there, so
    the two deals must still differ then (an exchange may have made them the same)."""
    game = new_game(setup)
    for step in steps[:len(steps) // 3]:
        game = apply(game, step)
    return sorted(game.player(x).hand or [])


def public(setup: dict[str, Any], steps: list[dict[str, Any]]) -> list[Any] | None:
    """What the table sees after each step (rulings, cards face up), or None if a step is
    refused. A card turned face up on its own (a last influence lost) is public too."""
    seen: list[Any] = []
    try:
        game = new_game(setup)
        for step in steps:
            game = apply(game, step)
            seen.append((list(game.log), [(p.revealed, p.face_down) for p in game.players]))
    except RuleError:
        return None
    return seen


def mostly_official(rng: random.Random) -> Chooser:
    """Each rule setting left at the official value seven times in ten (the explorer's own
    chooser varies them more than a table usually does, and fewer deals keep every step legal
    for a second hand)."""
    return lambda options, label: options[0] if rng.random() < 0.7 else rng.choice(options)


def first_difference(a: list[tuple[str, int, str, str]], b: list[tuple[str, int, str, str]]) -> str:
    for one, two in zip(a, b, strict=False):
        if one != two:
            diff = difflib.unified_diff(one[3].splitlines(), two[3].splitlines(), lineterm="",
                                        n=2)
            return f"{one[:3]} vs {two[:3]}\n" + "\n".join(list(diff)[:40])
    return f"{len(a)} responses vs {len(b)}"
