"""One :class:`~app.store.Store` per request, on ``flask.g``, from a small pool of open ones.

A sqlite-utils Database belongs to one request at a time (a thread, or a greenlet under gevent).
Connections are kept open between requests rather than closed: when the last connection to a
WAL database closes, SQLite checkpoints the log into the file, and under load that was a fifth
of the server's time (docs/PERFORMANCE.md). A store that saw an error is closed, not reused.
"""

from __future__ import annotations

import threading

from flask import Flask, current_app, g

from app.store import Store

POOL_SIZE = 16
DATABASES = 8  # pools kept (tests make many apps); the oldest one is closed beyond that
_pools: dict[str, list[Store]] = {}
_lock = threading.Lock()


def get_store() -> Store:
    """The request's store, taken from the pool (or opened) on first use."""
    if "store" not in g:
        database = current_app.config["DATABASE"]
        with _lock:
            pool = _pools.setdefault(database, [])
            store = pool.pop() if pool else None
        g.store = store or Store.open(database)
        g.store_database = database
    store: Store = g.store
    return store


def release_store(exc: BaseException | None = None) -> None:
    store: Store | None = g.pop("store", None)
    if store is None:
        return
    database = g.pop("store_database")
    if exc is None and not store.db.conn.in_transaction:
        with _lock:
            if database not in _pools and len(_pools) >= DATABASES:
                for old in _pools.pop(next(iter(_pools))):
                    old.close()
            pool = _pools.setdefault(database, [])
            if len(pool) < POOL_SIZE:
                pool.append(store)
                return
    store.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(release_store)
