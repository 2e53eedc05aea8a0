"""Engine speed: one step, a 300-step replay, random complete games per second.

    .venv/bin/python bench/engine.py            (about 20 s; prints the figures)

Goals (one core): one step <= 100 us median; a 300-step replay <= 10 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import RuleError, apply, new_game  # noqa: E402
from app.simulate import legal_steps, play, random_move, random_setup  # noqa: E402

PEACEFUL = ("steal", "exchange", "pass", "draw", "keep", "prove", "lose", "income")


def long_game(min_steps: int = 300):
    """A 6-player game of at least `min_steps` steps: a table that steals and exchanges a lot."""
    rng = random.Random(1)
    setup = random_setup(rng, players=6)
    setup["rules"] = {}
    setup["hands"] = {name: ["duke", "captain"] if i % 2 else ["ambassador", "contessa"]
                      for i, name in enumerate(setup["players"])}
    game = new_game(setup)
    while len(game.steps) < min_steps and not game.over:
        game = random_move(game, rng, lambda s: s["do"] in PEACEFUL) or game
    if len(game.steps) < min_steps:
        raise SystemExit("no game was long enough")
    return setup, game.steps[:min_steps]


def step_times(games: int = 200) -> list[float]:
    times = []
    for seed in range(games):
        rng = random.Random(seed)
        game = new_game(random_setup(rng))
        while not game.over:
            options = legal_steps(game, rng)
            rng.shuffle(options)
            for step in options:
                start = time.perf_counter()
                try:
                    game = apply(game, step)
                except RuleError:
                    continue
                times.append(time.perf_counter() - start)
                break
            else:
                break
    return times


def replay_times(setup, steps, runs: int = 50) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        game = new_game(setup)
        for step in steps:
            game = apply(game, step)
        times.append(time.perf_counter() - start)
    return times


def games_per_second(players: int, seconds: float = 4.0) -> float:
    start, count, seed = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed)
        play(random_setup(rng, players=players), rng)
        count += 1
        seed += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    steps = step_times()
    print(f"one step: median {statistics.median(steps) * 1e6:.1f} us, "
          f"p95 {statistics.quantiles(steps, n=20)[-1] * 1e6:.1f} us ({len(steps)} steps)")
    setup, long = long_game()
    replay = replay_times(setup, long)
    print(f"300-step replay: median {statistics.median(replay) * 1e3:.2f} ms, "
          f"max {max(replay) * 1e3:.2f} ms")
    for n in (4, 6):
        print(f"random complete games, {n} players: {games_per_second(n):.0f} per second")


if __name__ == "__main__":
    main()
