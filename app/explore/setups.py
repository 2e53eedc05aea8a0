"""Random set-ups: any rules, any preset, 2-10 players, short decks, small boxes, some hands
untracked (or chosen from sets of five). Every choice goes through a chooser."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from app.engine import (
    characters_in_play,
)
from app.engine.rules import CHOICES, PRESETS, default_copies, parse_rules

T = TypeVar("T")
Step = dict[str, Any]
Chooser = Callable[[Sequence[T], str], T]


def rng_chooser(rng: random.Random) -> Chooser[Any]:
    return lambda options, label: rng.choice(list(options))


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
