"""The explorer over many random games, every check on, and its coverage table.

    .venv-test/bin/python bench/explore.py [GAMES] [--workers N] [--seed S]

Default: 10,000 games on every core. Each game is a random set-up (every setting, every preset,
2-10 players, tracked and untracked hands, short decks, small boxes) played to its end by
choosing among every legal step, with the invariants checked after each (app/explore/).
Then games aimed at anything the random ones missed. Prints what was found (nothing, we hope),
the time taken, and the table: for each window, step and setting, how often it was reached.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.explore import Coverage, explore, rng_chooser, run_until_covered  # noqa: E402


def play_batch(seeds: range) -> tuple[Coverage, list[str]]:
    coverage, failures = Coverage(), []
    for seed in seeds:
        try:
            explore(rng_chooser(random.Random(seed)), coverage)
        except Exception:  # noqa: BLE001 - a finding to report, with its seed
            failures.append(f"seed {seed}:\n{traceback.format_exc()}")
            coverage.games += 1
    return coverage, failures


def merge(total: Coverage, part: Coverage) -> None:
    total.pairs.update(part.pairs)
    total.rulings.update(part.rulings)
    total.rules_named.update(part.rules_named)
    total.games += part.games
    total.steps += part.steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=10_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"machine load before the run: {os.getloadavg()[0]:.2f} (1-minute load average)")
    start = time.perf_counter()
    first = args.seed * 1_000_000
    size = max(1, args.games // (args.workers * 8))
    batches = [range(i, min(i + size, first + args.games))
               for i in range(first, first + args.games, size)]
    total, failures = Coverage(), []
    with ProcessPoolExecutor(args.workers) as pool:
        for coverage, found in pool.map(play_batch, batches):
            merge(total, coverage)
            failures += found
    before = total.games
    run_until_covered(0, seed=args.seed, coverage=total)  # games aimed at what is missing
    if total.games > before:
        print(f"{total.games - before} games aimed at what the random ones missed")
    seconds = time.perf_counter() - start
    print(f"{total.games} games, {total.steps} steps, {seconds:.0f} s "
          f"({args.workers} workers); {len(failures)} found wrong")
    for failure in failures[:5]:
        print(failure)
    print(f"keys never reached: {total.missing_pairs() or 'none'}")
    print(f"rulings never given: {total.missing_rulings() or 'none'}")
    print()
    print(total.table())
    if failures or total.missing_pairs() or total.missing_rulings():
        raise SystemExit(1)


if __name__ == "__main__":
    main()
