"""What the routes answer with: a screen (a fragment for htmx, the whole page otherwise), a page
with one message, or an event stream. Shared by the tablet's and the phones' blueprints."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from flask import Response, current_app, make_response, render_template, request

from app.i18n import LANGUAGES
from app.live import SSE_HEADERS
from app.web import words
from app.web.fragments import Fragments
from app.web.refusals import Refusal
from app.web.service import Tables
from app.web.state import TableState


def tables() -> Tables:
    """The app's service (``app.extensions``): the one way to the store."""
    return cast(Tables, current_app.extensions["tables"])


def fragments() -> Fragments:
    """The app's rendered screens, each drawn once per version (``app.extensions``)."""
    return cast(Fragments, current_app.extensions["fragments"])


def from_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def public_url(path: str) -> str:
    """A link a phone on the same Wi-Fi can open (``PUBLIC_URL``, else this request's host)."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return str(base).rstrip("/") + path


def languages() -> list[tuple[str, str]]:
    """Each language, named in itself, so anyone can find their own."""
    return [(code, words.LANGUAGE_TITLES.get(code, code)) for code in LANGUAGES]


def message_page(message: str, status: int) -> Response:
    return make_response(render_template("message.html", message=message), status)


def refusal_page(refusal: Refusal, table: TableState | None = None) -> Response:
    return message_page(words.refusal(refusal, table), refusal.status)


def event_stream(table_id: str, version: int,
                 still_allowed: Callable[[int], bool] | None = None) -> Response:
    """``changed`` events for one screen, for as long as ``still_allowed`` says yes. No request
    context is kept for the stream: it would hold a database connection for as long as the
    phone listens."""
    service = tables()

    def current() -> int:
        return service.version(table_id) or 0

    return Response(service.broker.stream(table_id, version, current, still_allowed),
                    headers=SSE_HEADERS)
