"""A player's phone: opened from the seat's QR code, it holds that player's hand and asks them
for the steps only they can take. It can never act for another seat or as the referee.

The first device to open a seat's link claims the seat; every way of looking at a seat (the
page, its refresh, the rules, the event stream) goes through that claim, so nothing of a seat
is shown to a device that does not hold it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from flask import Blueprint, Response, abort, g, redirect, render_template, request, url_for
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import MethodNotAllowed

from app.store import Seat, same_secret
from app.web import nightviews, rulebook, views, words
from app.web.fragments import CSRF_SLOT
from app.web.i18n import _
from app.web.i18n import language as speaking
from app.web.links import seat_links
from app.web.phoneframe import frame
from app.web.phoneparts import foot, mine, phone_parts
from app.web.refusals import Refusal, Why
from app.web.regions import Placed
from app.web.screenregions import PHONE
from app.web.screens import (
    event_stream,
    fragments,
    from_htmx,
    languages,
    message_page,
    refusal_page,
    state_at,
    tables,
    tap_answered,
    whole_page,
)
from app.web.seats import Seats
from app.web.security import csrf_ok, csrf_token, device_id, link_previewer
from app.web.state import TableState

SEAT_LINKS: Final = "/s/"
"""Where every seat's link and its parts are (night.py's seat timeline too): each GET there
opens the seat (:func:`opened`)."""

bp = Blueprint("phone", __name__, url_prefix=SEAT_LINKS.rstrip("/"))

LANGUAGES_SHOWN: Final = languages()
"""Each language in itself (:func:`app.web.screens.languages`): the same on every screen, so
listed once rather than at each draw of six phones."""

T = TypeVar("T")

Command = Callable[[tuple[TableState, Seat]], tuple[TableState, Seat]]
"""A service call for a phone's tap, given the seat as the route saw it (one load per tap),
returning the new state and the seat as it now is."""


def seats() -> Seats:
    """The phones' side of the service."""
    return tables().seats


def opened(token: str) -> tuple[TableState, Seat]:
    """The seat for this device, claimed now if no device holds it yet. A HEAD request (a link
    previewer's) claims nothing: it gets 405 (its Allow, like the link's OPTIONS, without HEAD:
    RefereeApp.make_default_options_response), and the seat waits for its player."""
    if request.method == "HEAD":
        raise MethodNotAllowed(valid_methods=seat_link_methods())
    if link_previewer(request.headers.get("User-Agent", "")):  # a chat drawing the link
        abort(message_page(_("This link opens a player’s seat: open it in the player’s phone’s "
                             "browser."), 403, start=False))
    return _seat_for(token, seats().open_seat)


def seat_link_methods() -> list[str]:
    """The methods this seat link's routes take, but HEAD (which :func:`opened` refuses)."""
    adapter = request_ctx.url_adapter
    assert adapter is not None
    return [method for method in adapter.allowed_methods() if method != "HEAD"]


def owned(token: str) -> tuple[TableState, Seat]:
    """The seat, for the device that holds it only (nothing is claimed by a post)."""
    return _seat_for(token, seats().seat_state)


def _seat_for(token: str, look: Callable[[str, str], tuple[TableState, Seat]]
              ) -> tuple[TableState, Seat]:
    try:
        state, seat = look(token, device_id())
    except Refusal as refusal:
        abort(seat_refused(token, refusal))
    g.language = seat.language or state.table.language
    return state, seat


def seat_refused(token: str, refusal: Refusal) -> Response:
    """A seat link refused to this device: never the referee's start page. The old phone of a
    "No phone" seat reads its own language and may look again (the seat may come back to a
    phone)."""
    if refusal.why is not Why.ON_TABLET:
        return whole_page(refusal_page(refusal, start=False))
    g.language = seats().language_of(token)
    return whole_page(refusal_page(refusal, back=url_for("phone.page", token=token),
                                   back_label=_("Check again")))


def context(state: TableState, seat: Seat, message: str | None = None,
            csrf: str | None = None, extras: dict[str, Any] | None = None,
            spoken: str | None = None) -> dict[str, Any]:
    """A seat's screen's view (``spoken``: this request's language, if the caller has it)."""
    if extras is None:
        extras = nightviews.phone_extras(state, seat, lambda: tables().now().timestamp())
    csrf = csrf or csrf_token(f"seat:{seat.token}")
    view = views.phone(state, seat, LANGUAGES_SHOWN)
    if "me" in view:
        view["mine"] = mine(state, seat, view)
    links = seat_links(seat.token)
    view = {**view, "shared": phone_parts(state), "foot": foot(seat, csrf, spoken or speaking()),
            "csrf": csrf, "message": message, "rules_url": links.rules, "fetch_url": links.fetch,
            **extras}
    view["place"] = Placed(PHONE, state.table.id, seat.token, state.version, csrf, view).place
    return view


def fragment_html(state: TableState, seat: Seat, message: str | None = None,
                  csrf: str | None = None) -> str:
    """A seat's screen as a fragment: drawn once per version and language (its refreshes
    share it: :mod:`app.web.fragments`), unless it carries a message. The night's parts (the
    scoreboard, a countdown's seconds) are read each time: they change between versions.
    ``csrf``: this device's form token for the seat, if the caller has it already."""
    if message is not None:
        return render_template("phone/_phone.html", **context(state, seat, message))
    return _remembered(state, seat, csrf, fragments().get)


def fragment_bytes(state: TableState, seat: Seat, csrf: str) -> bytes:
    """:func:`fragment_html` as an event sends it: the UTF-8 bytes kept, neither decoded nor
    encoded again (Fragments.get_encoded)."""
    return _remembered(state, seat, csrf, fragments().get_encoded)


def _remembered(state: TableState, seat: Seat, csrf: str | None, get: Callable[..., T]) -> T:
    """The seat's screen through ``get`` (Fragments.get or get_encoded)."""
    extras = nightviews.phone_extras(state, seat, lambda: tables().now().timestamp())
    spoken = speaking()
    return get(state.table.id, ("seat", seat.token, spoken), state.version,
               lambda: _drawn(context(state, seat, csrf=CSRF_SLOT, extras=extras,
                                      spoken=spoken)),
               csrf or csrf_token(f"seat:{seat.token}"), extras)  # the night's parts: a key too


def _drawn(view: dict[str, Any]) -> str:
    """The screen of ``view``: put together in Python in the usual case, else the template's
    (the same bytes: :mod:`app.web.phoneframe`)."""
    return frame(view) or render_template("phone/_phone.html", **view)


def screen(state: TableState, seat: Seat, message: str | None = None, status: int = 200
           ) -> ResponseReturnValue:
    """The phone as it is now: the fragment for htmx; after a plain form post, a redirect
    to the page (or the page with its message)."""
    if from_htmx():
        return fragment_html(state, seat, message), status
    if request.method == "POST" and message is None:
        return redirect(url_for("phone.page", token=seat.token), 303)
    return render_template("phone/page.html", **context(state, seat, message)), status


def phone_tap(token: str, command: Command) -> ResponseReturnValue:
    state, seat = owned(token)
    if not csrf_ok(f"seat:{seat.token}"):
        return screen(state, seat, _("This screen was out of date; please try again."), 400)
    try:
        new, seat = command((state, seat))
    except Refusal as refusal:
        state, seat = owned(token)  # the seat's link may be gone by now: then a 404 page
        return screen(state, seat, words.refusal(refusal, state, you=seat.name), refusal.status)
    g.language = seat.language or new.table.language
    tap_answered(new)
    return screen(new, seat)


@bp.get("/<token>")
def page(token: str) -> ResponseReturnValue:
    return screen(*opened(token))


@bp.get("/<token>/view")
def fragment(token: str) -> ResponseReturnValue:
    state, seat = opened(token)
    if request.args.get("since") == str(state.version):
        return "", 204  # the usual answer to a poll: nothing to render
    return fragment_html(state, seat)


@bp.get("/<token>/events")
def events(token: str) -> ResponseReturnValue:
    state, _seat = opened(token)
    table_id, device, service = state.table.id, device_id(), seats()
    csrf = csrf_token(f"seat:{token}")  # the stream's device and seat never change

    def draw(version: int) -> bytes | None:
        """The seat's screen at ``version``, for this device only (else the stream ends)."""
        now = state_at(table_id, version)
        seat = None if now is None else now.seat_with_token(token)
        if now is None or seat is None or seat.device is None or \
                not same_secret(device, seat.device):
            return None
        g.language = seat.language or now.table.language
        return fragment_bytes(now, seat, csrf)

    return event_stream(table_id, state.version,
                        lambda version: service.still_holds(table_id, version, token, device),
                        draw)


@bp.get("/<token>/rules")
def rules(token: str) -> ResponseReturnValue:
    state, _seat = opened(token)
    return render_template("rules.html", back=url_for(".page", token=token),
                           **rulebook.page(state), **views.common(state, languages()))


@bp.post("/<token>/hand")
def hand(token: str) -> ResponseReturnValue:
    cards = [c for c in (request.form.get("card1"), request.form.get("card2")) if c]
    return phone_tap(token, lambda seen: seats().enter_hand(token, device_id(), cards, seen))


@bp.post("/<token>/step")
def step(token: str) -> ResponseReturnValue:
    fields = {key: request.form.get(key, "") for key in ("do", "target", "as", "card",
                                                          "position")}
    cards = request.form.getlist("cards")
    version = request.form.get("version")
    return phone_tap(token, lambda seen: seats().play(token, device_id(), version, fields,
                                                      cards, seen))


@bp.post("/<token>/language")
def language(token: str) -> ResponseReturnValue:
    """Each phone may read the game in its own language, remembered for the seat."""
    chosen = request.form.get("language", "")
    known = [code for code, _title in languages()]
    return phone_tap(token, lambda seen: seats().choose_language(token, device_id(), chosen,
                                                                 known, seen))
