"""`coup-referee check` over many random game records, start-up included (issue 9's goal:
300 games at least twice as fast as the 1.5 s of November 2026).

    .venv/bin/python bench/check.py [GAMES]       (default 300; prints the figures)

The records are complete random games from the explorer (every setting, 2-10 players), each
with its final state as expectations, written to a temporary folder; the command is run five
times and the median wall time is printed.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.explore import explore, random_setup, rng_chooser  # noqa: E402
from app.records import export  # noqa: E402
from bench.machine import describe  # noqa: E402


def write_records(folder: Path, games: int) -> list[Path]:
    paths = []
    for seed in range(games):
        rng = random.Random(seed)
        setup = random_setup(rng_chooser(rng))
        game = explore(rng_chooser(rng), checks=False, setup=setup, max_steps=1000).game
        record = export(game, name=f"random game {seed}")
        record["expect"] = {
            "players": {p.name: {"coins": p.coins, "out": p.out, "face_down": p.face_down}
                        for p in game.players},
            "treasury": game.treasury, "deck_size": game.deck_size, "winner": game.winner}
        path = folder / f"game-{seed:04d}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    command = Path(sys.executable).parent / "coup-referee"
    print(describe(), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_records(Path(tmp), games)
        steps = sum(len(json.loads(p.read_text())["steps"]) for p in paths)
        times = []
        for _ in range(5):
            start = time.perf_counter()
            done = subprocess.run([str(command), "check", *map(str, paths)],
                                  capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if done.stdout.count("PASS") != games:
                raise SystemExit(f"not every record passed:\n{done.stdout[-2000:]}")
    print(f"coup-referee check, {games} random games ({steps} steps): median "
          f"{statistics.median(times):.2f} s, best {min(times):.2f} s (5 runs)")


if __name__ == "__main__":
    main()
