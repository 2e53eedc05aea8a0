"""Playing games: one explored game, a seeded run, and games aimed at what a run missed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engine import (
    Game,
    apply,
    new_game,
)
from app.engine.rules import CHOICES

from .checks import (
    check_conservation,
    check_offers,
    check_pass_is_local,
    check_privacy,
    check_replay,
    check_rules,
)
from .coverage import Coverage, setting_labels, step_label
from .setups import Chooser, Step, random_setup, rng_chooser
from .steps import legal_steps


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
