"""A player's phone: opened from the seat's QR code, it holds that player's hand and asks
them for the steps only they can take. It can never act for another seat or as the referee."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from app.store import Seat
from app.web import views
from app.web.db import get_store
from app.web.security import csrf_ok, csrf_token, device_id, seat_belongs_here
from app.web.service import Live, Refused, Tables
from app.web.steps import step_from_form
from app.web.tablet import refuse_page, stream

bp = Blueprint("phone", __name__, url_prefix="/s")


def tables() -> Tables:
    return current_app.extensions["tables"]


def load_seat(token: str, claim: bool = False) -> tuple[Live, Seat]:
    store = get_store()
    seat = store.get_seat_by_token(token)
    if seat is None:
        abort(404)
    if not seat_belongs_here(seat):
        abort(Response(render_template(
            "message.html",
            message=_("This seat is already open on another phone. If that phone is lost or "
                      "broken, ask the referee for a new link."),
        ), 403))
    live = tables().load(store, seat.table_id)
    if live is None:
        abort(404)
    g.language = seat.language or live.table.language
    if seat.device is None and claim:
        seat = store.update_seat(seat.table_id, seat.seat, device=device_id())
        tables().touch(store, live)  # the tablet shows the phone as connected
        live = tables().load(store, seat.table_id)
        assert live is not None
    return live, seat


def context(live: Live, seat: Seat, message: str | None = None) -> dict:
    return {"csrf": csrf_token(f"seat:{seat.token}"), "message": message,
            **views.phone(live, seat)}


@bp.get("/<token>")
def page(token: str):
    live, seat = load_seat(token, claim=True)
    return render_template("phone.html", **context(live, seat))


@bp.get("/<token>/view")
def fragment(token: str):
    store = get_store()
    seat = store.get_seat_by_token(token)
    if seat is None:
        abort(404)
    if seat_belongs_here(seat) and request.args.get("since") == str(store.version(seat.table_id)):
        return Response(status=204)  # the usual answer to a poll: nothing to load or render
    live, seat = load_seat(token)
    return render_template("_phone.html", **context(live, seat))


def answer(token: str, message: str | None = None, status: int = 200):
    live, seat = load_seat(token)
    if request.headers.get("HX-Request") != "true":
        if message is None:
            return redirect(url_for("phone.page", token=token), 303)
        return render_template("phone.html", **context(live, seat, message)), status
    return render_template("_phone.html", **context(live, seat, message)), status


def guarded(token: str, action):
    live, seat = load_seat(token)
    if seat.device is None:
        return answer(token, _("Open your seat's link first."), 403)
    if not csrf_ok(f"seat:{seat.token}"):
        return answer(token, _("This screen was out of date; please try again."), 400)
    try:
        action(live, seat)
    except Refused as e:
        return answer(token, e.message, e.status)
    return answer(token)


@bp.post("/<token>/hand")
def hand(token: str):
    def act(live: Live, seat: Seat) -> None:
        cards = [c for c in (request.form.get("card1"), request.form.get("card2")) if c]
        tables().enter_hand(get_store(), live, seat, cards)

    return guarded(token, act)


@bp.post("/<token>/step")
def step(token: str):
    def act(live: Live, seat: Seat) -> None:
        s = step_from_form(request.form, live, seat.name)
        tables().submit(get_store(), live, request.form.get("version"), s, seat=seat.name)

    return guarded(token, act)


@bp.post("/<token>/language")
def language(token: str):
    """Each phone may read the game in its own language, remembered for the seat."""
    from app.web import LANGUAGES

    def act(live: Live, seat: Seat) -> None:
        chosen = request.form.get("language", "")
        if chosen not in LANGUAGES:
            raise Refused(_("That language is not available."), 400)
        get_store().update_seat(seat.table_id, seat.seat, language=chosen)
        g.language = chosen

    return guarded(token, act)


@bp.get("/<token>/rules")
def rules(token: str):
    live, seat = load_seat(token)
    return render_template("rules.html", back=url_for("phone.page", token=token),
                           rows=views.rules_summary(live), **views.common(live))


@bp.get("/<token>/events")
def events(token: str):
    live, _seat = load_seat(token)
    return stream(live)


__all__ = ["bp", "refuse_page"]
