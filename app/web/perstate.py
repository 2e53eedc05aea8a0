"""What a table's state gives a screen is worked out once per state (and language): a state
never changes (:mod:`app.web.state`), and a version's six phones (and the tablet) ask for the
same things. Remembered by the state's identity, for the most recent states only; the memo
holds each state, so its id can't be reused while it is remembered."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final, TypeVar

from app.engine.memo import ByIdentity
from app.web.i18n import language
from app.web.state import TableState

T = TypeVar("T")
KEPT: Final = 256  # states remembered: 300 busy tables ask for their newest in turn


class PerState(ByIdentity[TableState, T]):
    """``compute(state)``, worked out once for each of the last ``size`` states asked about,
    in each language if ``spoken`` (then it is asked in a request: its language is the key)."""

    def __init__(self, compute: Callable[[TableState], T], spoken: bool,
                 size: int = KEPT) -> None:
        super().__init__(compute, size)
        self._spoken = spoken

    def key(self, state: TableState) -> Hashable:
        return (id(state), language() if self._spoken else "")
