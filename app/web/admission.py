"""New tables: anyone on the Wi-Fi can reach the start page, so making tables is bounded.

- One device (client address) makes at most ``NEW_TABLES_PER_DEVICE`` tables in
  ``NEW_TABLES_WINDOW_S`` (a referee makes a few an evening).
- Abandoned tables go before a new one is made: a table where no game started, a day after
  its last change (``LOBBY_AGE``); any table, finished or not, a month after (``TABLE_AGE``).
- The laptop keeps at most ``MAX_LOBBIES`` tables where no game has started; when they are
  all there, those untouched for ``LOBBY_IDLE`` make room, so one device filling the laptop
  holds it for an hour at most, not a day.
The clocks are the service's, so tests move them instead of waiting.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Final

from app.quicklock import quick_lock
from app.schema import count_lobbies, remove_abandoned
from app.store import Store
from app.web.refusals import Refusal, Why

NEW_TABLES_PER_DEVICE: Final = 10
NEW_TABLES_WINDOW_S: Final = 3600
MAX_LOBBIES: Final = 100
LOBBY_IDLE: Final = timedelta(hours=1)
LOBBY_AGE: Final = timedelta(days=1)
TABLE_AGE: Final = timedelta(days=30)


class Admission:
    """Whether a device may make a table now; tidies the database first."""

    def __init__(self, clock: Callable[[], float], now: Callable[[], datetime]) -> None:
        self.clock = clock
        self.now = now
        self._made: dict[str, deque[float]] = {}
        self._lock = quick_lock()

    def admit(self, store: Store, client: str) -> None:
        """Refuses (429) a device that made many tables just now, or a full laptop."""
        moment = self.clock()
        with self._lock:
            made = self._made.setdefault(client, deque())
            while made and made[0] < moment - NEW_TABLES_WINDOW_S:
                made.popleft()
            if len(made) >= NEW_TABLES_PER_DEVICE:  # says when its oldest leaves the hour
                wait = timedelta(seconds=made[0] + NEW_TABLES_WINDOW_S - moment)
                raise Refusal(Why.TOO_MANY_TABLES, again=self.now() + wait)
            made.append(moment)
        remove_abandoned(store.db, self.now(), LOBBY_AGE, TABLE_AGE)
        if count_lobbies(store.db) >= MAX_LOBBIES:  # full: idle lobbies make room
            remove_abandoned(store.db, self.now(), LOBBY_IDLE, TABLE_AGE)
        if count_lobbies(store.db) >= MAX_LOBBIES:
            raise Refusal(Why.TOO_MANY_LOBBIES)
