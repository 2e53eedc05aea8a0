"""One :class:`~app.store.Store` per request, on ``flask.g``, closed at teardown.

A sqlite-utils Database belongs to one thread (or greenlet, under gevent), and a request runs in
one; this is the Flask tutorial's ``get_db()`` pattern.
"""

from __future__ import annotations

from flask import Flask, current_app, g

from app.store import Store


def get_store() -> Store:
    """The request's store, opened on first use."""
    if "store" not in g:
        g.store = Store.open(current_app.config["DATABASE"])
    store: Store = g.store
    return store


def close_store(exc: BaseException | None = None) -> None:
    store: Store | None = g.pop("store", None)
    if store is not None:
        store.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_store)
