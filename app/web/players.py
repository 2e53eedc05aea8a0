"""The players' page: every player of this laptop's nights by name (games, wins, bluffs,
challenges), read in one go; a referee's device may rename a player or merge two. Each change is
one check, one service call (PlayerBook), then back to the page saying what was done."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from app.engine.table import printable
from app.web import words
from app.web.i18n import _
from app.web.night import refusal_words
from app.web.refusals import NightProblem
from app.web.screens import languages, tables
from app.web.security import (
    DEVICE_COOKIE,
    csrf_ok,
    csrf_token,
    device_id,
    is_referee,
    referee_cookie,
)

bp = Blueprint("players", __name__)

PLAYERS_SCOPE = "players"

REFEREE_COOKIES = 20
"""At most this many of a device's referee cookies are looked at (each is one table's read)."""


def a_referee() -> bool:
    """Whether this device is the referee of a table on this laptop (it made the table, or
    joined as its referee with the tablet's code): only a referee renames or merges players,
    not a TV or a guest's phone."""
    prefix = referee_cookie("")
    ids = [name[len(prefix):] for name in request.cookies if name.startswith(prefix)]
    for table_id in ids[:REFEREE_COOKIES]:
        state = tables().load(table_id) if table_id.isascii() and len(table_id) < 64 else None
        if state is not None and is_referee(state.table):
            return True
    return False


def players_page(message: str | None = None, status: int = 200,
                 done: str | None = None, problem_of: str | None = None) -> ResponseReturnValue:
    """The players' page: one read, nothing written. A refusal of a change (``problem_of``:
    rename or merge) stands beside its form, which keeps what was chosen."""
    typed = {k: request.form.get(k, "")[:40] for k in ("name", "new", "into")}
    return render_template("night/players.html", players=tables().players.players(),
                           csrf=csrf_token(PLAYERS_SCOPE), message=message, done=done,
                           may_edit=a_referee(), card=words.table_voice(None).card,
                           languages=languages(), problem_of=problem_of,
                           typed=typed if problem_of else None), status


@bp.before_request
def phone_language() -> None:
    """The players' page speaks as the phone's other pages do: the language its seat chose,
    else its table's (else, for a device that holds no seat, the browser's)."""
    if DEVICE_COOKIE not in request.cookies:
        return
    device = device_id()
    if not g.get("new_device"):
        g.language = tables().players.language_of_device(device) or g.get("language")


@bp.get("/players")
def players() -> ResponseReturnValue:
    return players_page(done=done_message(request.args))


def done_message(args: Mapping[str, str]) -> str | None:
    """What the last change did, said on the page it leads back to."""
    name, other = args.get("name", "")[:40], args.get("other", "")[:40]
    if not name or not other:
        return None
    if args.get("done") == "rename":
        # TRANSLATORS: the players' page. name, other: players' names.
        return _("%(name)s is now called %(other)s.", name=printable(name), other=printable(other))
    if args.get("done") == "merge":
        # TRANSLATORS: the players' page. name, other: players' names.
        return _("%(name)s’s games now count for %(other)s.", name=printable(name),
                 other=printable(other))
    return None


def players_change(change: str) -> ResponseReturnValue:
    if not a_referee():
        return players_page(_("Only a referee’s device (one that runs a table here) can rename "
                              "or merge players."), 403)
    if not csrf_ok(PLAYERS_SCOPE):
        return players_page(_("This form has expired; please try again."), 400)
    name = request.form.get("name", "")
    other = request.form.get("new", "") if change == "rename" else request.form.get("into", "")
    try:
        if change == "rename":
            other = tables().players.rename(name, other)
        else:
            tables().players.merge(name, other)
    except NightProblem as problem:
        return players_page(refusal_words(problem), 422, problem_of=change)
    return redirect(url_for(".players", done=change, name=name, other=other), 303)


@bp.post("/players/rename")
def players_rename() -> ResponseReturnValue:
    return players_change("rename")


@bp.post("/players/merge")
def players_merge() -> ResponseReturnValue:
    return players_change("merge")
