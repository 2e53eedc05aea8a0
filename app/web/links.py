"""The templates' ``url_for``, remembered: a screen builds the same few links (its Rules page,
where its buttons post, its refresh) on every draw, and building one through the URL map costs
more than the rest of its line. A link depends only on the endpoint (a relative one is
made whole with the request's blueprint), its values and where the app is served (scheme, host,
the path it is mounted at), so it is remembered by those.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from flask import Flask, current_app, has_request_context, request, url_for

from app.quicklock import quick_lock

LINKS: Final = 8192  # links remembered (a few per screen, and a refresh link per version)
SEATS: Final = 4096  # seats whose own links are remembered (300 tables of six, and more)


class Links:
    """``url_for`` for templates, by (where the app is served, endpoint, values)."""

    def __init__(self, size: int = LINKS) -> None:
        self._size = size
        self._built: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = quick_lock()

    def __call__(self, endpoint: str, **values: Any) -> str:
        if not has_request_context():
            return url_for(endpoint, **values)
        environ = request.environ
        if endpoint.startswith("."):  # relative to this request's blueprint
            endpoint = f"{request.blueprint or ''}{endpoint}"
        try:
            key = (environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"),
                   environ.get("SCRIPT_NAME"), endpoint, tuple(sorted(values.items())))
            hash(key)
        except TypeError:  # a value that can't be a key: build it each time
            return url_for(endpoint, **values)
        with self._lock:
            built = self._built.get(key)
            if built is not None:
                self._built.move_to_end(key)
                return built
        built = url_for(endpoint, **values)
        with self._lock:
            self._built[key] = built
            while len(self._built) > self._size:
                self._built.popitem(last=False)
        return built

    def __len__(self) -> int:
        return len(self._built)


def install(app: Flask) -> None:
    """The templates' ``url_for`` becomes the remembered one."""
    app.jinja_env.globals["url_for"] = Links()


def link_for(endpoint: str, **values: Any) -> str:
    """A link built as the templates' ``url_for`` builds it (remembered), for Python code."""
    links = current_app.jinja_env.globals["url_for"]
    assert isinstance(links, Links)
    return links(endpoint, **values)


@dataclass(frozen=True)
class SeatLinks:
    """A seat's own links, the same at every draw of its screen: its Rules page and its
    screen's fetch (the refresher's, with ``?since=`` and the version after it)."""

    rules: str
    fetch: str


def seat_links(token: str) -> SeatLinks:
    """The links of the seat ``token`` in this request, remembered by what they are built from
    (as :class:`Links` remembers each): six phones ask for theirs at every version."""
    environ = request.environ
    return _seat_links(token, environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"),
                       environ.get("SCRIPT_NAME"))


@lru_cache(maxsize=SEATS)
def _seat_links(token: str, _scheme: str | None, _host: str | None, _script: str | None
                ) -> SeatLinks:
    return SeatLinks(link_for("phone.rules", token=token), link_for("phone.fragment", token=token))
