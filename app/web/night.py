"""Game night's pages: the timeline of a finished game (tablet, phones, spectators), the night
settings and the time-out tap of the tablet, and the spectators' board (the players' page is
app/web/players.py). Each route is one check, one service call, one page."""

from __future__ import annotations

import math
from typing import Final

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from app.web import evening, nightviews, views, words
from app.web.i18n import _
from app.web.phone import opened, owned, seats
from app.web.refusals import NightProblem, Refusal
from app.web.screens import (
    event_stream,
    from_htmx,
    languages,
    message_page,
    public_url,
    tables,
)
from app.web.security import (
    csrf_ok,
    csrf_token,
    device_id,
)
from app.web.state import TableState
from app.web.tablet import context as tablet_context
from app.web.tablet import night_extras, referee_state, referee_tap, scope, screen, tap_on

bp = Blueprint("night", __name__)

def refusal_words(problem: NightProblem) -> str:
    return words.refusal(problem, None)


# -- the timeline -----------------------------------------------------------------------------


def not_yet(back: str, follow: bool = False) -> ResponseReturnValue:
    """Mid-game: the timeline would show hands. The page leads back to the game it came from;
    a TV's goes back by itself (the next game started under it)."""
    message = _("The timeline shows every hand, so it opens once the game is over.")
    if not follow:
        return message_page(message, 409, back=back)
    return render_template("message.html", message=message, back=back, follow=(2, back)), 409


def moved_on(state: TableState) -> bool:
    """Whether a timeline page drawn earlier (its ``drawn`` says where the table was then) is
    out of date for good: the next game started, or the rematch's lobby opened under a
    timeline drawn at the winner's screen (issue 14, outside check)."""
    drawn = request.args.get("drawn")
    if drawn is None:
        return False
    return not nightviews.game_over(state) or (drawn == "game" and state.lobby)


def timeline_page(state: TableState, back: str, open_url: str | None,
                  csrf: str | None, events: str, follow: bool = False) -> ResponseReturnValue:
    """The timeline, or what stands before it: a refusal mid-game, and once the game is over
    the button that closes it and opens the timeline. Every such page listens to the table's
    stream (``events``) and asks again on each change (night.js): it shows the timeline once
    someone opens it, and goes back to the live screen when the rematch's lobby opens or the
    next game starts."""
    if moved_on(state):
        return redirect(back, 303)
    if not nightviews.game_over(state):
        return not_yet(back, follow)
    drawn = "lobby" if state.lobby else "game"
    page = {**views.common(state, languages()), "back": back,
            "events": f"{events}?since={state.version}",
            "again": f"{request.path}?drawn={drawn}"}
    if not nightviews.timeline_open(state):
        return render_template("night/opening.html", open_url=open_url, csrf=csrf, **page)
    drawing = nightviews.timeline(state)
    if follow:
        page.update(tv=True, **tv_part(len(drawing["turns"]), drawing["lanes"]))
    return render_template("night/timeline.html", **drawing, **page)


TV_BAND: Final = 0.85
"""A TV's timeline fits its screen unscrolled (night.js scales its type): more bands take more
of its height, more turns a band narrow each turn's column. The type is largest with about
TV_BAND x sqrt(turns x players) turns a band (measured at 1920 x 1080: four players and 29
turns, six and 43, six and 103)."""


def tv_band(turns: int, players: int) -> int:
    """Turns per band on a TV: about TV_BAND x sqrt(turns x players), the bands made even, 8
    turns at least (a game of 25 turns or so: two bands)."""
    bands = max(1, round(turns / (TV_BAND * math.sqrt(max(turns * players, 1)))))
    return max(8, -(-turns // bands))


TV_CELLS: Final = 640
"""A TV is sent a game's newest turns, this many of their cells at most (a cell: a turn of a
lane still in the game), banded for that part, and told which turns are left out: a TV can't
scroll, and a game of 400 turns drawn whole on 1920 x 1080 was under 5 px. Six players' 103
turns of incomes and coups (fewer than 618 cells) are sent whole, and fit in 12 px; where the
part sent still needs type under tablet.js's READABLE, the TV leaves out its oldest bands
too."""


def tv_part(turns: int, lanes: list[nightviews.Lane]) -> dict[str, int]:
    """The part of a game a TV shows: from ``start`` (a turn's index), in bands of ``band``."""
    def playing(turn: int) -> int:
        return sum(1 for lane in lanes if lane.out is None or lane.out >= turn)

    start, cells = turns, 0
    while start > 0 and cells + playing(start - 1) <= TV_CELLS:
        start -= 1
        cells += playing(start)
    return {"start": start, "band": tv_band(turns - start, playing(start))}


@bp.get("/t/<table_id>/timeline")
def tablet_timeline(table_id: str) -> ResponseReturnValue:
    state = referee_state(table_id)
    return timeline_page(state, url_for("tablet.page", table_id=table_id),
                         url_for(".tablet_open", table_id=table_id), csrf_token(scope(state)),
                         url_for(".tablet_timeline_events", table_id=table_id))


@bp.get("/t/<table_id>/timeline/events")
def tablet_timeline_events(table_id: str) -> ResponseReturnValue:
    """The versions alone (no screen inside): a timeline page asks again itself."""
    return event_stream(table_id, referee_state(table_id).version)


@bp.post("/t/<table_id>/timeline")
def tablet_open(table_id: str) -> ResponseReturnValue:
    state = referee_state(table_id)
    if not nightviews.game_over(state):
        return not_yet(url_for("tablet.page", table_id=table_id))
    if not csrf_ok(scope(state)):
        return message_page(_("This form has expired; please try again."), 400)
    try:
        tables().night.open_timeline(state, request.form.get("version"))
    except Refusal:
        pass  # someone wrote first: the timeline page says where things stand
    return redirect(url_for(".tablet_timeline", table_id=table_id), 303)


@bp.get("/s/<token>/timeline")
def phone_timeline(token: str) -> ResponseReturnValue:
    state, seat = opened(token)
    return timeline_page(state, url_for("phone.page", token=token),
                         url_for(".phone_open", token=token), csrf_token(f"seat:{seat.token}"),
                         url_for(".phone_timeline_events", token=token))


@bp.get("/s/<token>/timeline/events")
def phone_timeline_events(token: str) -> ResponseReturnValue:
    """The versions alone, for as long as this device holds the seat."""
    state, _seat = opened(token)
    table_id, device, service = state.table.id, device_id(), seats()
    return event_stream(table_id, state.version,
                        lambda version: service.still_holds(table_id, version, token, device))


@bp.post("/s/<token>/timeline")
def phone_open(token: str) -> ResponseReturnValue:
    state, seat = owned(token)
    if not nightviews.game_over(state):
        return not_yet(url_for("phone.page", token=token))
    if not csrf_ok(f"seat:{seat.token}"):
        return message_page(_("This form has expired; please try again."), 400)
    try:
        tables().night.open_timeline(state, request.form.get("version"),
                                     seat=(token, seat.device))
    except Refusal:
        pass
    return redirect(url_for(".phone_timeline", token=token), 303)


# -- the tablet's night settings and time-out -------------------------------------------------


@bp.post("/t/<table_id>/night")
def tablet_settings(table_id: str) -> ResponseReturnValue:
    state = referee_state(table_id)
    if not csrf_ok(scope(state)):
        return screen(state, _("This screen was out of date; please try again."), 400)
    try:
        chosen = evening.settings_from_form(request.form)
    except NightProblem as problem:
        return settings_refused(state, problem)
    return tap_on(state, lambda s, version: tables().night.change_settings(s, version, chosen))


def settings_refused(state: TableState, problem: NightProblem) -> ResponseReturnValue:
    """The referee's screen with the night's settings open, each field's message beside it and
    what was typed still in the form, so it can be put right (nothing was saved)."""
    extras = {**night_extras(state),
              "night_problems": {p.field: refusal_words(p) for p in (problem, *problem.also)},
              "night_typed": {k: request.form.get(k, "") for k in ("target", "timer")}}
    template = "tablet/_tablet.html" if from_htmx() else "tablet/page.html"
    return render_template(template, **tablet_context(state, extras=extras)), 422


@bp.post("/t/<table_id>/timeout")
def tablet_timeout(table_id: str) -> ResponseReturnValue:
    """The tablet's countdown ran out with "let it stand" on: the table passes (one step).
    Sent by the countdown itself (``clock=1``), it is never refused (evening.clock_ran_out)."""
    night = tables().night
    by_clock = request.form.get("clock") == "1"
    return referee_tap(table_id, night.clock_ran_out if by_clock else night.let_it_stand)


# -- the spectators' board --------------------------------------------------------------------


def watched(table_id: str, key: str) -> TableState:
    state = tables().load(table_id)
    if state is None or not evening.may_watch(state, key):
        abort(404)
    g.language = state.table.language
    return state


def tv_context(state: TableState, key: str) -> dict[str, object]:
    return {**views.common(state, languages()), **nightviews.tv(state), **nightviews.night(state),
            "table_id": state.table.id, "key": key,
            "game_over": nightviews.game_over(state),
            "follows_timeline": winner_screen(state) and not nightviews.timeline_open(state)}


def winner_screen(state: TableState) -> bool:
    return nightviews.game_over(state) and not state.lobby


@bp.get("/t/<table_id>/watch.svg")
def watch_qr(table_id: str) -> ResponseReturnValue:
    """The spectators' link as a QR code, for the referee only (an image, so the tablet's
    screen, redrawn on every change, does not carry it each time). Sent ``no-store`` like every
    page that holds a key; a browser still draws it once per page, not per redraw (it reuses
    an image it has for the same address)."""
    state = referee_state(table_id)
    link = public_url(url_for(".watch", table_id=table_id, key=evening.watch_key(state)))
    return views.qr_svg(link), 200, {"Content-Type": "image/svg+xml; charset=utf-8"}


@bp.get("/w/<table_id>/<key>")
def watch(table_id: str, key: str) -> ResponseReturnValue:
    state = watched(table_id, key)
    return render_template("night/tv.html", **tv_context(state, key))


@bp.get("/w/<table_id>/<key>/view")
def watch_fragment(table_id: str, key: str) -> ResponseReturnValue:
    state = watched(table_id, key)
    if request.args.get("follow") == "timeline" and timeline_opened(state):
        return "", 204, {"HX-Redirect": url_for(".watch_timeline", table_id=table_id, key=key)}
    if request.args.get("since") == str(state.version):
        return "", 204
    return render_template("night/_tv.html", **tv_context(state, key))


def timeline_opened(state: TableState) -> bool:
    """A TV left on the winner's screen follows the table into the timeline once a player or
    the referee opens it, as it follows the table into the next game (issue 14, outside
    tester)."""
    return winner_screen(state) and nightviews.timeline_open(state)


@bp.get("/w/<table_id>/<key>/events")
def watch_events(table_id: str, key: str) -> ResponseReturnValue:
    return event_stream(table_id, watched(table_id, key).version)


@bp.get("/w/<table_id>/<key>/timeline")
def watch_timeline(table_id: str, key: str) -> ResponseReturnValue:
    state = watched(table_id, key)
    return timeline_page(state, url_for(".watch", table_id=table_id, key=key), None, None,
                         url_for(".watch_timeline_events", table_id=table_id, key=key),
                         follow=True)


@bp.get("/w/<table_id>/<key>/timeline/events")
def watch_timeline_events(table_id: str, key: str) -> ResponseReturnValue:
    return event_stream(table_id, watched(table_id, key).version)


# -- the players' page ------------------------------------------------------------------------
