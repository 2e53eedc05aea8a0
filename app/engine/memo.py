"""What a game state gives is worked out once: states are frozen, so ``pending(game)`` and the
public view of one state never change, and the screens of one version (the tablet, every
phone, their refreshes) ask for them many times. Remembered by the state's identity (a frozen
``Game`` is never changed, and the memo holds it, so its id can't be reused meanwhile), for
the most recent states only."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Final, Generic, TypeVar

from .state import Game

T = TypeVar("T")
REMEMBERED: Final = 256


class PerGame(Generic[T]):
    """``compute(game)``, worked out once for each of the last ``size`` states asked about."""

    def __init__(self, compute: Callable[[Game], T], size: int = REMEMBERED) -> None:
        self._compute = compute
        self._size = size
        self._memo: OrderedDict[int, tuple[Game, T]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, game: Game) -> T:
        key = id(game)
        with self._lock:
            hit = self._memo.get(key)
            if hit is not None and hit[0] is game:
                self._memo.move_to_end(key)
                return hit[1]
        value = self._compute(game)
        with self._lock:
            self._memo[key] = (game, value)
            while len(self._memo) > self._size:
                self._memo.popitem(last=False)
        return value
