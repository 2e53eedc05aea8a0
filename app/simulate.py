"""Random legal games, for property tests and benchmarks (never used by the referee itself).

The table is the source of chance at a real game; here a seeded `random.Random` stands in
for it: it deals, draws and picks among the steps that `pending` offers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import Any

from .engine import Game, RuleError, apply, characters_in_play, new_game, pending
from .engine.cards import CHARACTERS
from .engine.rules import CHOICES, PRESETS, default_copies, parse_rules

Step = dict[str, Any]


def random_rules(rng: random.Random, players: int) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    if rng.random() < 0.3:
        rules["preset"] = rng.choice(list(PRESETS))
    for key, values in CHOICES.items():
        if key == "two_player_setup" and players != 2:
            continue
        if rng.random() < 0.3:
            rules[key] = rng.choice(values)
    if rng.random() < 0.1:
        rules["coins_in_box"] = rng.choice([20, 30, 50])
    return rules


def random_setup(rng: random.Random, players: int | None = None) -> dict[str, Any]:
    n = players or rng.randint(2, 10)
    rules = random_rules(rng, n)
    names = [f"P{i}" for i in range(n)]
    copies = default_copies(n)
    in_play = characters_in_play(parse_rules(rules))
    deck = [c for c in in_play for _ in range(copies)]
    rng.shuffle(deck)
    setup: dict[str, Any] = {"rules": rules, "players": names, "first": rng.choice(names)}
    hands: dict[str, Any] = {}
    if rules.get("two_player_setup") == "choose_hand":
        court = rng.sample(list(in_play), 3)
        missing = [c for c in in_play if c not in court]
        rng.shuffle(missing)
        for name, dealt in zip(names, missing, strict=True):
            hands[name] = [rng.choice(in_play), dealt]
        setup["court_deck"] = court
    else:
        for name in names:
            hands[name] = [deck.pop(), deck.pop()]
    for name in names:
        if rng.random() < 0.2:
            hands[name] = None
    setup["hands"] = hands
    if rules.get("coins_in_box", 50) < 2 * n:
        rules["coins_in_box"] = 50
    return setup


def legal_steps(game: Game, rng: random.Random) -> list[Step]:
    """Concrete steps offered by `pending`, with cards chosen the way a real table might."""
    steps: list[Step] = []
    t = game.turn
    if t is not None and t.window:
        steps.append({"do": "pass"})
    for p in pending(game):
        by = p.player
        o = p.options
        if p.kind == "declare":
            for a in o["actions"]:
                if a["targets"] is None and a["reason"] is None:
                    steps.append({"by": by, "do": a["action"]})
                for target in a["targets"] or []:
                    steps.append({"by": by, "do": a["action"], "target": target})
        elif p.kind == "respond":
            steps += [{"by": by, "do": "challenge"}, {"by": by, "do": "pass"}]
        elif p.kind == "block":
            steps += [{"by": by, "do": "block", "as": c} for c in o["as"]]
            steps.append({"by": by, "do": "pass"})
        elif p.kind == "answer":
            if o["can_prove"]:
                steps.append({"by": by, "do": "prove"})
            steps.append({"by": by, "do": "concede"})
        elif p.kind == "lose":
            for c in sorted(set(o["cards"])):
                if o["must"] in (None, c):
                    steps.append({"by": by, "do": "lose", "card": c})
        elif p.kind == "draw":
            step: Step = {"by": by, "do": "draw"}
            if o["tracked"]:
                step["cards"] = draw_cards(game, by, o["count"], rng)
            steps.append(step)
        elif p.kind == "keep":
            steps += keep_steps(game, by, o, rng)
        elif p.kind == "show":
            step = {"by": by, "do": "show"}
            if o["tracked"]:
                hand = game.player(o["target"]).hand or []
                for c in sorted(set(hand)):
                    steps.append({**step, "card": c})
            else:
                steps.append(step)
        elif p.kind == "decide":
            if o["can_swap"]:
                steps.append({"by": by, "do": "swap"})
            if o["can_return"]:
                steps.append({"by": by, "do": "return"})
    return steps


def draw_cards(game: Game, by: str, count: int, rng: random.Random) -> list[str]:
    """Cards a tracked player could draw: taken from what may be in the deck."""
    t = game.turn
    pool = Counter(game.unseen)
    owed = next((d for d in t.draws if d.player == by), None) if t else None
    if owed is not None and owed.reason == "proof" and not owed.to_bottom:
        pool.update(owed.returned)
    elif owed is not None and owed.to_bottom and game.deck_size < owed.count:
        pool.update(owed.returned)
    cards = list(pool.elements())
    rng.shuffle(cards)
    return cards[:count]


def keep_steps(game: Game, by: str, o: dict[str, Any], rng: random.Random) -> list[Step]:
    if o["offered"] is None:
        return [{"by": by, "do": "keep"}]
    hand = Counter(game.player(by).hand or [])
    options = set()
    for combo in combinations(sorted(o["offered"]), o["count"]):
        if sum((Counter(combo) - hand).values()) <= o["max_swap"]:
            options.add(combo)
    chosen = sorted(options)
    rng.shuffle(chosen)
    return [{"by": by, "do": "keep", "cards": list(c)} for c in chosen[:3]]


def random_step(game: Game, rng: random.Random) -> Step:
    """Any step at all, mostly nonsense: for checking that illegal steps are refused cleanly."""
    names = [p.name for p in game.players] + ["Nobody"]
    do = rng.choice(
        ["income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine",
         "convert", "embezzle", "challenge", "block", "pass", "prove", "concede", "lose", "draw",
         "keep", "show", "swap", "return", "dance"]
    )
    step: Step = {"do": do}
    if rng.random() < 0.9:
        step["by"] = rng.choice(names)
    if rng.random() < 0.4:
        step["target"] = rng.choice(names)
    if rng.random() < 0.3:
        step["as"] = rng.choice([*CHARACTERS, "joker"])
    if rng.random() < 0.3:
        step["card"] = rng.choice([*CHARACTERS, "joker"])
    if rng.random() < 0.3:
        step["cards"] = [rng.choice(CHARACTERS) for _ in range(rng.randint(0, 3))]
    return step


def random_move(
    game: Game, rng: random.Random, prefer: Callable[[Step], bool] | None = None
) -> Game | None:
    """The game after one random legal step (those `prefer` likes first), or None if none fits."""
    options = legal_steps(game, rng)
    rng.shuffle(options)
    if prefer is not None:
        options.sort(key=lambda s: not prefer(s))
    for step in options:
        try:
            return apply(game, step)
        except RuleError:
            continue  # e.g. a draw that the cards already seen rule out; try another
    return None


def play(setup: dict[str, Any], rng: random.Random, max_steps: int = 3000) -> Game:
    """A random legal game from `setup`, to its end or `max_steps`."""
    game = new_game(setup)
    for _ in range(max_steps):
        if game.over:
            break
        after = random_move(game, rng)
        if after is None:
            break
        game = after
    return game
