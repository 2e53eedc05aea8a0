"""Engine speed: one step, a 300-step replay, random complete games per second.

    .venv/bin/python bench/engine.py            (about 30 s; prints the figures)

Goals (one core, issue 9): one step <= 15 us median; a 300-step replay <= 3 ms median.
The games are the explorer's (app/explore/) without its checks: every setting, 2-10 players,
a step chosen among every legal one.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import apply, new_game  # noqa: E402
from app.explore import explore, legal_steps, random_setup, rng_chooser  # noqa: E402
from bench.machine import describe  # noqa: E402

PEACEFUL = ("steal", "exchange", "pass", "draw", "keep", "prove", "lose", "income")


def recorded_games(count: int) -> list[tuple[dict, list[dict]]]:
    """Complete random games (set-up and steps), played once without checks."""
    games = []
    for seed in range(count):
        rng = random.Random(seed)
        setup = random_setup(rng_chooser(rng))
        played = explore(rng_chooser(rng), checks=False, setup=setup, max_steps=1000)
        games.append((setup, played.steps))
    return games


def step_times(games: list[tuple[dict, list[dict]]]) -> list[float]:
    times = []
    for setup, steps in games:
        game = new_game(setup)
        for step in steps:
            start = time.perf_counter()
            game = apply(game, step)
            times.append(time.perf_counter() - start)
    return times


def long_game(min_steps: int = 300) -> tuple[dict, list[dict]]:
    """A 6-player game of at least `min_steps` steps: a table that steals and exchanges a lot."""
    rng = random.Random(1)
    names = [f"P{i}" for i in range(6)]
    setup = {"players": names,
             "hands": {name: ["duke", "captain"] if i % 2 else ["ambassador", "contessa"]
                       for i, name in enumerate(names)}}
    game = new_game(setup)
    steps: list[dict] = []
    while len(steps) < min_steps and not game.over:
        options = legal_steps(game)
        calm = [s for s in options if s["do"] in PEACEFUL] or options
        step = rng.choice(calm)
        game = apply(game, step)
        steps.append(step)
    if len(steps) < min_steps:
        raise SystemExit("no game was long enough")
    return setup, steps


def replay_times(setup: dict, steps: list[dict], runs: int = 50) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        game = new_game(setup)
        for step in steps:
            game = apply(game, step)
        times.append(time.perf_counter() - start)
    return times


def games_per_second(games: list[tuple[dict, list[dict]]]) -> float:
    start = time.perf_counter()
    for setup, steps in games:
        game = new_game(setup)
        for step in steps:
            game = apply(game, step)
    return len(games) / (time.perf_counter() - start)


def main() -> None:
    print(describe(), flush=True)
    games = recorded_games(300)
    steps = step_times(games)
    print(f"one step: median {statistics.median(steps) * 1e6:.1f} us, "
          f"p95 {statistics.quantiles(steps, n=20)[-1] * 1e6:.1f} us ({len(steps)} steps)")
    setup, long = long_game()
    replay = replay_times(setup, long)
    print(f"300-step replay: median {statistics.median(replay) * 1e3:.2f} ms, "
          f"max {max(replay) * 1e3:.2f} ms")
    print(f"replaying recorded random games: {games_per_second(games):.0f} games per second "
          f"({len(steps) / len(games):.0f} steps a game on average)")


if __name__ == "__main__":
    main()
