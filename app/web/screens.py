"""What the routes answer with: a screen (a fragment for htmx, the whole page otherwise), a page
with one message, or an event stream. Shared by the tablet's and the phones' blueprints."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

from flask import Flask, Response, current_app, g, make_response, render_template, request
from flask.ctx import RequestContext
from flask.globals import _cv_app

from app.i18n import LANGUAGES
from app.live import HELD, SSE_HEADERS
from app.web import words
from app.web.answered import Answered
from app.web.fragments import Fragments
from app.web.refusals import Refusal
from app.web.security import device_id
from app.web.service import Tables
from app.web.state import TableState

# These three are asked some 35 times a tap: each reads the app from Flask's context variable
# itself (``current_app``'s proxy is two more Python calls), and no cast() (one more).


def tables() -> Tables:
    """The app's service (``app.extensions``): the one way to the store."""
    found: Tables = _cv_app.get().app.extensions["tables"]
    return found


TABLE_IN_PATH = re.compile(r"/[tw]/([A-Za-z0-9_-]{1,64})(?:/|$)")
"""A URL that names its table: the referee's (``/t/<id>/…``) and the spectators' (``/w/<id>/…``)."""


def speak_the_table_s_language() -> None:
    """An error page under a URL that names a table speaks that table's language, where the
    route had not said it yet (an old link of a Russian table reads Russian, whatever the
    browser's language); elsewhere the browser's (app/web/i18n.py)."""
    if g.get("language") is not None:
        return
    named = TABLE_IN_PATH.match(request.path)
    state = tables().load(named.group(1)) if named else None
    if state is not None:
        g.language = state.table.language


def fragments() -> Fragments:
    """The app's rendered screens, each drawn once per version (``app.extensions``)."""
    found: Fragments = _cv_app.get().app.extensions["fragments"]
    return found


def answered() -> Answered:
    """The versions devices were given in their own taps' answers (``app.extensions``)."""
    found: Answered = _cv_app.get().app.extensions["answered"]
    return found


def tap_answered(state: TableState) -> None:
    """Note that this request, a tap, answers its device with ``state``'s screen, so that its
    stream need not send that screen again. Only htmx takes the screen from the answer (a plain
    form's answer is a redirect to the page)."""
    if from_htmx():
        answered().note(state.table.id, device_id(), state.version)


def from_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def state_at(table_id: str, version: int) -> TableState | None:
    """The table at ``version`` if it is remembered (a version just published is), else now."""
    service = tables()
    return service.states.get(table_id, version) or service.load(table_id)


def public_url(path: str) -> str:
    """A link a phone on the same Wi-Fi can open (``PUBLIC_URL``, else this request's host)."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return str(base).rstrip("/") + path


def languages() -> list[tuple[str, str]]:
    """Each language, named in itself, so anyone can find their own."""
    return [(code, words.LANGUAGE_TITLES.get(code, code)) for code in LANGUAGES]


def message_page(message: str, status: int, back: str | None = None,
                 back_label: str | None = None, start: bool = True) -> Response:
    """A page that says one thing; ``back`` leads to the screen it came from (its button says
    ``back_label``, else "Back to the game"); with no ``back``, the start page, unless
    ``start`` is false (a player's phone or a TV: the start page is the referee's)."""
    return make_response(render_template("message.html", message=message, back=back,
                                         back_label=back_label, start=start), status)


def whole_page(response: Response) -> Response:
    """A page that ends a screen (its link is gone, or it is another device's): asked for by
    htmx (a live screen fetching itself, or a tap), it is loaded whole instead of swapped in
    (``HX-Refresh``), so the page that says so holds no event stream. A swapped-in one kept the
    old screen's stream asking for its gone link every minute, for ever."""
    if from_htmx():
        response.headers["HX-Refresh"] = "true"
    return response


def refusal_page(refusal: Refusal, table: TableState | None = None, back: str | None = None,
                 back_label: str | None = None, start: bool = True) -> Response:
    return message_page(words.refusal(refusal, table), refusal.status, back, back_label, start)


class StreamContext(RequestContext):
    """The request context a stream draws its events in, pushed once per event: its URL is
    matched to its route at the first push only (the stream's URL never changes, and Flask
    matches it again at every push otherwise: 40% of a push and pop)."""

    def match_request(self) -> None:
        if self.request.url_rule is None and self.request.routing_exception is None:
            super().match_request()


KEPT_OF_ENVIRON = ("wsgi.version", "wsgi.errors", "wsgi.multithread", "wsgi.multiprocess",
                   "wsgi.run_once")


def stream_environ(environ: Mapping[str, Any]) -> dict[str, Any]:
    """What of a stream's request its events are drawn in: the request's text (its path, its
    headers and cookies, the server's name) and no body, not its connection's reader or the
    objects made for it (Werkzeug's request, the session), which a handed-over stream would
    keep all evening (:mod:`app.live`)."""
    kept: dict[str, Any] = {key: value for key, value in environ.items()
                            if isinstance(value, str)}
    kept.update((key, environ[key]) for key in KEPT_OF_ENVIRON if key in environ)
    kept["wsgi.input"] = io.BytesIO()
    return kept


def event_stream(table_id: str, version: int,
                 still_allowed: Callable[[int], bool] | None = None,
                 draw: Callable[[int], str | bytes | None] | None = None) -> Response:
    """``changed`` events for one screen, for as long as ``still_allowed`` says yes, each
    carrying the screen ``draw`` gives at that version. ``version`` is the one the screen shows
    (the page's ``since``, if it said, else now). No request context is kept for the stream
    between events (it would hold a database connection for as long as the phone listens):
    ``draw`` runs inside a request context made once per stream from this request's text
    (:func:`stream_environ`), pushed for each event and popped again (each push brings a
    fresh ``g``).
    A version this device was given in the answer to its own tap is not drawn again: its
    event carries only the version (:mod:`app.web.answered`)."""
    service, given, device = tables(), answered(), device_id()
    app = cast(Flask, current_app._get_current_object())  # type: ignore[attr-defined]
    context = StreamContext(app, stream_environ(request.environ))
    since = request.args.get("since", "")
    shown = min(version, int(since)) if since.isdigit() and len(since) < 10 else version

    def current() -> int:
        return service.version(table_id) or 0

    def screen_at(version: int) -> str | bytes | None:
        if draw is None:
            return None
        if given.holds(table_id, device, version):
            return HELD
        with context:
            return draw(version)

    # The broker's stream is the response's iterable as it is (``direct_passthrough``: no
    # encoding loop of Werkzeug's, which would hold the last chunk), and the server lets go of
    # each chunk once written (:meth:`app.wsgi.LimitedHandler.process_result`): a parked stream
    # holds no screen, for each of 2,100 parked streams. Closing it (the server does, when the
    # device goes away) makes the broker forget the stream at once.
    return Response(service.broker.stream(table_id, shown, current, still_allowed,
                                          screen_at if draw is not None else None),
                    headers=SSE_HEADERS, direct_passthrough=True)

