"""What a game state gives is worked out once: states are frozen, so ``pending(game)`` and the
public view of one state never change, and the screens of one version (the tablet, every
phone, their refreshes) ask for them many times. Remembered by the state's identity (a frozen
``Game`` is never changed, and the memo holds it, so its id can't be reused meanwhile), for
the most recent states only."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Final, Generic, TypeVar

from app.quicklock import quick_lock

from .state import Game

Thing = TypeVar("Thing")
T = TypeVar("T")
REMEMBERED: Final = 256


class ByIdentity(Generic[Thing, T]):
    """``compute(thing)``, worked out once for each of the last ``size`` things asked about,
    remembered by the thing's identity (and whatever :meth:`key` adds to it). The memo holds
    each thing, so its id can't be reused while it is remembered."""

    def __init__(self, compute: Callable[[Thing], T], size: int = REMEMBERED) -> None:
        self._compute = compute
        self._size = size
        self._memo: OrderedDict[Hashable, tuple[Thing, T]] = OrderedDict()
        self._lock = quick_lock()

    def key(self, thing: Thing) -> Hashable:
        """What ``thing``'s value is remembered by: its identity."""
        return id(thing)

    def __call__(self, thing: Thing) -> T:
        key = self.key(thing)
        with self._lock:
            hit = self._memo.get(key)
            if hit is not None and hit[0] is thing:
                self._memo.move_to_end(key)
                return hit[1]
        value = self._compute(thing)
        with self._lock:
            self._memo[key] = (thing, value)
            while len(self._memo) > self._size:
                self._memo.popitem(last=False)
        return value


class PerGame(ByIdentity[Game, T]):
    """``compute(game)``, worked out once for each of the last ``size`` states asked about."""
