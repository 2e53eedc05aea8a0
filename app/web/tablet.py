"""The referee's screen: seat the phones, play, undo, download the record, admit another
referee. Each tap is one route, one service call, and the fresh screen it returns."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, abort, g, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from app.store import same_secret
from app.web import nightviews, rulebook, views, words
from app.web.fragments import CSRF_SLOT
from app.web.i18n import _, language
from app.web.refusals import Refusal
from app.web.regions import Placed
from app.web.screenregions import TABLET
from app.web.screens import (
    event_stream,
    fragments,
    from_htmx,
    languages,
    message_page,
    public_url,
    refusal_page,
    state_at,
    tables,
    tap_answered,
)
from app.web.security import csrf_ok, csrf_token, grant_referee, is_referee
from app.web.state import TableState
from app.web.tablelinks import table_links
from app.web.tabletframe import frame
from app.web.templating import draw

bp = Blueprint("tablet", __name__, url_prefix="/t")
T = TypeVar("T")
Command = Callable[[TableState, object], TableState]
"""A service call for a tap: (the screen's state, the form's version) -> the new state."""


def referee_state(table_id: str) -> TableState:
    """The table, for its referee only (404 for no such table, 403 for anyone else)."""
    state = tables().load(table_id)
    if state is None:
        abort(404)
    if not is_referee(state.table):
        abort(403)
    g.language = state.table.language
    return state


def scope(state: TableState) -> str:
    return f"table:{state.table.id}"


def join_code_on_show(state: TableState) -> str | None:
    code = tables().join_codes.current(state.table.id)
    return code.code if code else None


def night_extras(state: TableState) -> dict[str, Any]:
    """The night's parts of the screen (:mod:`app.web.nightviews`), as they are now."""
    return nightviews.tablet_extras(state, table_links(state).watch, tables().now().timestamp())


def context(state: TableState, message: str | None = None, csrf: str | None = None,
            extras: dict[str, Any] | None = None) -> dict[str, Any]:
    if extras is None:
        extras = night_extras(state)
    links = table_links(state)
    view = {**views.tablet(state, lambda seat: links.seats[seat.seat], languages()),
            "csrf": csrf or csrf_token(scope(state)), "message": message,
            "join_code": join_code_on_show(state), "join_link": links.join,
            "post": links.post, "rules_url": links.rules, **extras}
    placed = Placed(TABLET, state.table.id, "tablet", state.version, view["csrf"], view)
    # The template places its regions as markup; tabletframe, as strings.
    view["place"], view["place_html"] = placed.place, placed.html
    return view


def fragment_html(state: TableState, message: str | None = None) -> str:
    """The referee's screen as a fragment: drawn once per version for every referee device
    (:mod:`app.web.fragments`), unless it carries a message. The night's parts (scoreboard,
    countdown) are read each time: the screen is drawn again when they are not equal to those
    it was drawn with (compared as values: a ``repr`` of them cost more, 35 µs a screen)."""
    if message is not None:
        return render_template("tablet/_tablet.html", **context(state, message))
    return _remembered(state, fragments().get)


def fragment_answer(state: TableState, message: str | None = None) -> str | bytes:
    """:func:`fragment_html` as an answer's body: the UTF-8 bytes kept (Fragments.get_encoded)."""
    if message is not None:
        return fragment_html(state, message)
    return _remembered(state, fragments().get_encoded)


def _remembered(state: TableState, get: Callable[..., T]) -> T:
    """The screen through ``get`` (Fragments.get or get_encoded)."""
    extras = night_extras(state)
    screen = ("tablet", language(), public_url(""))
    return get(state.table.id, screen, state.version, lambda: _drawn(
        context(state, csrf=CSRF_SLOT, extras=extras)),
        csrf_token(scope(state)), (join_code_on_show(state), tuple(sorted(extras.items()))))


def _drawn(view: dict[str, Any]) -> str:
    """The screen of ``view``: put together in Python in the usual case, else the template's
    (the same bytes: :mod:`app.web.tabletframe`)."""
    return frame(view) or draw("tablet/_tablet.html", **view)


def screen(state: TableState, message: str | None = None, status: int = 200
           ) -> ResponseReturnValue:
    """The tablet as it is now: the fragment for htmx; after a plain form post, a redirect
    to the page (or the page with its message)."""
    if from_htmx():
        return fragment_answer(state, message), status
    if request.method == "POST" and message is None:
        return redirect(url_for("tablet.page", table_id=state.table.id), 303)
    return render_template("tablet/page.html", **context(state, message)), status


def referee_tap(table_id: str, command: Command) -> ResponseReturnValue:
    state = referee_state(table_id)
    if not csrf_ok(scope(state)):
        return screen(state, _("This screen was out of date; please try again."), 400)
    return tap_on(state, command)


def tap_on(state: TableState, command: Command) -> ResponseReturnValue:
    """A referee's tap on the table already loaded and checked (its key, the form's CSRF):
    one service call, and the screen it leads to (with the refusal's words, if refused)."""
    try:
        new = command(state, request.form.get("version"))
    except Refusal as refusal:
        fresh = tables().load(state.table.id) or state
        return screen(fresh, words.refusal(refusal, state), refusal.status)
    tap_answered(new)
    return screen(new)


# -- the screen -----------------------------------------------------------------------------


@bp.get("/<table_id>")
def page(table_id: str) -> ResponseReturnValue:
    key = request.args.get("key")
    if key is not None:  # the link printed by `coup-referee import` makes this the referee
        state = tables().load(table_id)
        if state is None or not same_secret(key, state.table.referee_token):
            abort(403)
        response = redirect(url_for(".page", table_id=table_id), 303)
        grant_referee(response, state.table)
        return response
    return screen(referee_state(table_id))


@bp.get("/<table_id>/view")
def fragment(table_id: str) -> ResponseReturnValue:
    state = referee_state(table_id)
    if request.args.get("since") == str(state.version):
        return "", 204  # the usual answer to a poll: nothing to render
    return fragment_answer(state)


@bp.get("/<table_id>/events")
def events(table_id: str) -> ResponseReturnValue:
    def draw(version: int) -> str | bytes | None:
        """The referee's screen at ``version`` (a referee stays one: no check to repeat), as
        the bytes kept of it."""
        now = state_at(table_id, version)
        if now is None:
            return None
        g.language = now.table.language
        return fragment_answer(now)

    return event_stream(table_id, referee_state(table_id).version, draw=draw)


# -- taps -----------------------------------------------------------------------------------


STEP_FIELDS = ("do", "by", "target", "as", "card", "position")


@bp.post("/<table_id>/step")
def step(table_id: str) -> ResponseReturnValue:
    # Each field's first value, read in one pass: the form's get() raises and catches an
    # exception inside for every field a step leaves out (most of them), 40 us a tap.
    form = request.form.to_dict()
    fields = {key: form.get(key, "") for key in STEP_FIELDS}
    cards = request.form.getlist("cards")
    return referee_tap(table_id, lambda state, version: tables().submit(
        state, version, fields, cards))


@bp.post("/<table_id>/undo")
def undo(table_id: str) -> ResponseReturnValue:
    return referee_tap(table_id, tables().undo)


@bp.post("/<table_id>/start")
def start(table_id: str) -> ResponseReturnValue:
    return referee_tap(table_id, tables().start)


@bp.post("/<table_id>/rematch")
def rematch(table_id: str) -> ResponseReturnValue:
    return referee_tap(table_id, tables().rematch)


@bp.post("/<table_id>/seat/<int:seat_no>/tracked")
def tracked(table_id: str, seat_no: int) -> ResponseReturnValue:
    with_phone = request.form.get("tracked") == "1"
    return referee_tap(table_id, lambda state, version: tables().set_tracked(
        state, version, seat_no, with_phone))


@bp.post("/<table_id>/seat/<int:seat_no>/reissue")
def reissue(table_id: str, seat_no: int) -> ResponseReturnValue:
    answer = referee_tap(table_id, lambda state, version: tables().reissue(
        state, version, seat_no))
    if request.form.get("back") == "phones" and getattr(answer, "status_code", 0) == 303:
        return redirect(url_for(".phones", table_id=table_id), 303)
    return answer


@bp.post("/<table_id>/join-code")
def join_code(table_id: str) -> ResponseReturnValue:
    def show_code(state: TableState, _version: object) -> TableState:
        tables().join_codes.new(state.table.id)
        return state

    return referee_tap(table_id, show_code)


@bp.post("/<table_id>/record.json")
def record(table_id: str) -> ResponseReturnValue:
    """The record as a file. At the end of a game phones played, this closes the game."""
    state = referee_state(table_id)
    if not csrf_ok(scope(state)):
        return message_page(_("This form has expired; please try again."), 400)
    # TRANSLATORS: the downloaded record's title (its "name"). n: a number.
    name = _("Game %(n)s at this table", n=state.games)
    try:
        _state, data = tables().download(state, request.form.get("version"), name)
    except Refusal as refusal:
        return refusal_page(refusal, state)
    response = make_response(json.dumps(data, ensure_ascii=False, indent=1))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="coup-{table_id[:8]}.json"'
    return response


# -- more referees, and pages one tap away --------------------------------------------------


@bp.route("/<table_id>/join", methods=["GET", "POST"])
def join(table_id: str) -> ResponseReturnValue:
    """Another device becomes a referee of this table with the code shown on the tablet."""
    state = tables().load(table_id)
    if state is None:
        abort(404)
    message = None
    if request.method == "POST":
        code = request.form.get("code", "")
        if csrf_ok(f"join:{table_id}") and tables().join_codes.redeem(table_id, code):
            response = redirect(url_for(".page", table_id=table_id), 303)
            grant_referee(response, state.table)
            return response
        message = _("That code is not right or has expired. Ask for a new one on the tablet.")
    return render_template("join.html", table_id=table_id, message=message,
                           csrf=csrf_token(f"join:{table_id}")), (422 if message else 200)


@bp.get("/<table_id>/phones")
def phones(table_id: str) -> ResponseReturnValue:
    """Mid-game, a phone that died or was swapped gets its seat back with a new code."""
    return render_template("tablet/phones.html", **context(referee_state(table_id)))


@bp.get("/<table_id>/log")
def log(table_id: str) -> ResponseReturnValue:
    """Every ruling of the game so far, oldest first, to settle a dispute."""
    state = referee_state(table_id)
    return render_template("tablet/log.html", back=url_for(".page", table_id=table_id),
                           rules_url=url_for(".rules", table_id=table_id),
                           rulings=views.whole_log(state),
                           **views.common(state, languages()))


@bp.get("/<table_id>/rules")
def rules(table_id: str) -> ResponseReturnValue:
    state = referee_state(table_id)
    return render_template("rules.html", back=url_for(".page", table_id=table_id),
                           **rulebook.page(state), **views.common(state, languages()))
