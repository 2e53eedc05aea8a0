"""Open database connections, kept between requests: one :class:`~app.store.Store` per request.

A sqlite-utils Database belongs to one request at a time (a thread, or a greenlet under gevent).
Connections are kept open rather than closed: when the last connection to a WAL database
closes, SQLite checkpoints the log into the file, and under load that was a fifth of the
server's time (docs/PERFORMANCE-HISTORY.md). A store left inside a transaction is closed, not
reused.
The pool belongs to its app (``app.extensions``), so every app, a test's or the server's, has
its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Final

from app.interfaces import PlayerLog, TableLog
from app.quicklock import quick_lock
from app.store import Store

POOL_SIZE: Final = 16


class StorePool:
    """Stores of one database, lent out one request at a time."""

    def __init__(self, database: str | Path, size: int = POOL_SIZE) -> None:
        self.database = database
        self._size = size
        self._idle: list[Store] = []
        self._lock = quick_lock()

    @contextmanager
    def store(self) -> Iterator[Store]:
        """A store for this block only; then it goes back to the pool."""
        with self._lock:
            store = self._idle.pop() if self._idle else None
        store = store or Store.open(self.database)
        try:
            yield store
        finally:
            self._give_back(store)

    def tables(self) -> AbstractContextManager[TableLog]:
        """A store seen through the tables' seam: the service and seats use nothing else."""
        return self.store()

    def players(self) -> AbstractContextManager[PlayerLog]:
        """A store seen through the players' page's seam (:mod:`app.web.stats`)."""
        return self.store()

    def _give_back(self, store: Store) -> None:
        if not store.db.conn.in_transaction:
            with self._lock:
                if len(self._idle) < self._size:
                    self._idle.append(store)
                    return
        store.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for store in idle:
            store.close()
