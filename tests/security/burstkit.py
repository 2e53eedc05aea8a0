"""Steps and taps for the tests that hit the live server with many at once (bursts, a crash
mid-game): every step the engine takes now, and callables run in threads together.
"""

from __future__ import annotations

import threading
from typing import Any

from app.engine import Game, RuleError, apply
from app.explore import legal_steps


def legal(game: Game, rng) -> list[dict[str, Any]]:
    """The steps `pending` offers that the engine takes now."""
    found = []
    for step in legal_steps(game):
        try:
            apply(game, step)
        except RuleError:
            continue
        found.append(step)
    return found


def run_threads(targets: list[Any]) -> list[Any]:
    results: list[Any] = [None] * len(targets)

    def run(i: int) -> None:
        results[i] = targets[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(targets))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results
