"""More referees: a six-digit code shown on the tablet lets one more device act as the referee.

A code lasts ten minutes, works once and dies after five wrong tries (a million codes, five
guesses). Codes live in memory only: a restart of the laptop forgets them, which is harmless.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from app.quicklock import quick_lock
from app.store import same_secret

CODE_SECONDS: Final = 600
CODE_TRIES: Final = 5


@dataclass
class JoinCode:
    code: str
    expires: float  # on the clock of its JoinCodes
    tries: int = 0


class JoinCodes:
    """The live code of each table, if any."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._codes: dict[str, JoinCode] = {}
        self._lock = quick_lock()

    def new(self, table_id: str) -> JoinCode:
        code = JoinCode(f"{secrets.randbelow(10**6):06d}", self.clock() + CODE_SECONDS)
        with self._lock:
            self._codes[table_id] = code
        return code

    def current(self, table_id: str) -> JoinCode | None:
        with self._lock:
            code = self._codes.get(table_id)
            if code is not None and not self._alive(code):
                del self._codes[table_id]
                code = None
            return code

    def redeem(self, table_id: str, attempt: str) -> bool:
        """Whether ``attempt`` is the table's live code; a right one is used up, a wrong one
        counts against it."""
        with self._lock:
            code = self._codes.get(table_id)
            if code is None or not self._alive(code):
                return False
            if same_secret(attempt.strip(), code.code):
                del self._codes[table_id]
                return True
            code.tries += 1
            if code.tries >= CODE_TRIES:
                del self._codes[table_id]
            return False

    def _alive(self, code: JoinCode) -> bool:
        return self.clock() < code.expires and code.tries < CODE_TRIES
