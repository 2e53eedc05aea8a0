"""What a table's state gives a screen is worked out once per state (and language): a state
never changes (:mod:`app.web.state`), and a version's six phones (and the tablet) ask for the
same things. Remembered by the state's identity, for the most recent states only; the memo
holds each state, so its id can't be reused while it is remembered."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Final, Generic, TypeVar

from app.web.i18n import language
from app.web.state import TableState

T = TypeVar("T")
KEPT: Final = 256  # states remembered: 300 busy tables ask for their newest in turn


class PerState(Generic[T]):
    """``compute(state)``, worked out once for each of the last ``size`` states asked about,
    in each language if ``spoken`` (then it is asked in a request: its language is the key)."""

    def __init__(self, compute: Callable[[TableState], T], spoken: bool,
                 size: int = KEPT) -> None:
        self._compute, self._spoken, self._size = compute, spoken, size
        self._memo: OrderedDict[tuple[int, str], tuple[TableState, T]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, state: TableState) -> T:
        key = (id(state), language() if self._spoken else "")
        with self._lock:
            hit = self._memo.get(key)
            if hit is not None and hit[0] is state:
                self._memo.move_to_end(key)
                return hit[1]
        value = self._compute(state)
        with self._lock:
            self._memo[key] = (state, value)
            while len(self._memo) > self._size:
                self._memo.popitem(last=False)
        return value
