"""The links the referee's screen shows that change only with the table's seats and where the
app is served, worked out once per table rather than on every version (six seat links and four
others were ~45 us of each screen drawn)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from flask import current_app, request

from app.web import evening
from app.web.links import link_for
from app.web.screens import public_url
from app.web.state import TableState

LINKS_KEPT: Final = 1024  # tables whose links are remembered (a re-issued seat makes another)


@dataclass(frozen=True)
class TableLinks:
    """The links the referee's screen shows that change only with the table's seats and where
    the app is served: the seats' links (by seat number), where another referee joins, where
    a step is posted, the rules and the spectators' link."""

    seats: dict[int, str]
    join: str
    post: str
    rules: str
    watch: str


def table_links(state: TableState) -> TableLinks:
    """The table's links, worked out once (six seat links and four others were ~45 us a
    screen), remembered by all that makes them: where the app is served, the table and its
    seats' tokens (a seat's new link after a re-issue is another key)."""
    environ = request.environ
    return _links(environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"),
                  environ.get("SCRIPT_NAME"), current_app.config.get("PUBLIC_URL"),
                  state.table.id, evening.watch_key(state),
                  tuple([(seat.seat, seat.token) for seat in state.seats]))


@lru_cache(maxsize=LINKS_KEPT)
def _links(_scheme: str | None, _host: str | None, _script: str | None, _public: str | None,
           table_id: str, watch_key: str, seats: tuple[tuple[int, str], ...]) -> TableLinks:
    """What :func:`table_links` remembers (the first four values are its key, read by
    ``public_url`` and ``link_for`` from the request)."""
    return TableLinks(
        {number: public_url(link_for("phone.page", token=token)) for number, token in seats},
        public_url(link_for("tablet.join", table_id=table_id)),
        link_for("tablet.step", table_id=table_id), link_for("tablet.rules", table_id=table_id),
        public_url(link_for("night.watch", table_id=table_id, key=watch_key)))
