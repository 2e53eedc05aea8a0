"""A seat's screen in a game, put together in Python: what phone/_phone.html draws in the
usual case, byte for byte, at a fraction of a template's cost (six phones are drawn each tap).

The usual case is a game under way on a seat's own phone with nothing unusual on show: no
message, no countdown, no winner, no night's scoreboard or timeline. The screen is then the
seat's regions and parts, each drawn and remembered elsewhere (its alert, questions and
answers by :mod:`app.web.regions`, its coins and hand, the other players' rows and the
rulings by :mod:`app.web.phoneparts`), joined by a frame of a few lines with the seat's name,
links, version and the turn's words. Any other case is the template's (:func:`frame` says
None), and tests/web/test_phone_frame.py checks that both draw the same bytes at every step
of random games.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

from flask import current_app
from markupsafe import escape

from app.i18n import Voice
from app.web.fragments import CSRF_SLOT, VERSION_SLOT
from app.web.i18n import say
from app.web.links import SEATS
from app.web.phonealert import CALM, is_calm
from app.web.phoneanswer import nothing_to_answer
from app.web.pieces import refresher

UNUSUAL: Final = ("message", "on_tablet", "lobby", "countdown", "night_shown", "game_over")
"""What the template alone draws: a screen showing any of these is not put together here."""


def frame(view: dict[str, Any]) -> str | None:
    """``view``'s screen (:func:`app.web.phone.context`) as phone/_phone.html draws it, or
    None where the template must draw it."""
    if any(map(view.get, UNUSUAL)) or view["view"]["winner"]:
        return None
    top = _top(bool(view["must_act"]), view["fetch_url"], view["name"], view["rules_url"],
               view["voice"])
    return "".join((
        top.replace(VERSION_SLOT, str(view["version"])),
        _alert(view), "\n  ", view["mine"], "\n  \n  ", _own_steps(view), "\n  ",
        _answers(view), "\n  ", _table(view),
        '\n  \n  \n<section id="night" class="night">\n  \n  \n</section>\n  ',
        view["foot"], "\n</section>"))


@lru_cache(maxsize=SEATS)
def _top(to_act: bool, fetch_url: str, name: str, rules_url: str, voice: Voice) -> str:
    """The screen's opening up to its alert, with :data:`VERSION_SLOT` for the version: the
    same for a seat at every version but when the table starts or stops waiting for it."""
    since = f"{fetch_url}?since={VERSION_SLOT}"
    return "".join((
        "\n\n\n\n"
        f'<section id="phone" class="phone{" to-act" if to_act else ""}" '
        f'lang="{escape(voice.language)}" data-version="{VERSION_SLOT}" sse-swap="changed"'
        ' hx-target="this" hx-swap="outerHTML" hx-sync="this:replace">\n  ',
        refresher(since, "phone", pushed=True),
        '\n  <header class="bar">\n    <h1>', escape(name),
        '</h1>\n    <a class="button small" href="', escape(rules_url), '">',
        say(voice, "Rules"), "</a>\n  </header>\n  \n  \n  \n  "))


def _alert(view: dict[str, Any]) -> str:
    """The seat's alert (its region), or for a seat with nothing to be alerted to the calm
    one, without working out the region's key."""
    return CALM if is_calm(view) else str(view["place"]("alert"))


def _own_steps(view: dict[str, Any]) -> str:
    """The seat's own steps (the prompt region), or with none of them (most seats, most of the
    time) its empty box, without working out the region's key."""
    return str(view["place"]("prompt")) if view["own_step"] else _no_steps(view["token"])


@lru_cache(maxsize=SEATS)
def _no_steps(token: str) -> str:
    """phone/_prompt.html with no step of the seat's own: its empty box."""
    return current_app.jinja_env.get_template("phone/_prompt.html").render(
        prompts=[], token=token, csrf=CSRF_SLOT, version=VERSION_SLOT)


def _answers(view: dict[str, Any]) -> str:
    """The seat's answers (the answer region), or with no question open to it its empty box,
    without working out the region's key."""
    if any([not prompt.private for prompt in view["prompts"]]):
        return str(view["place"]("answer"))
    return nothing_to_answer(view["answers"] == "both")


def _table(view: dict[str, Any]) -> str:
    """phone/_table.html: whose turn, whom the table waits for, the others and the rulings."""
    v, name, shared = view["view"], view["name"], view["shared"]
    current = v["current"]
    waiting = "" if view["own_step"] else \
        f'<p class="waiting">{escape(view["waiting_to_you"](v["waiting_ruling"]))}</p>'
    return (f'\n\n<section id="table" class="table-now">\n  \n  '
            f'{_turn(view["voice"], current, current == name)}'
            f'\n  {waiting}\n  <ol class="others">\n    {shared.others(name)}\n  </ol>\n'
            f'  <ol class="log lines">\n    {shared.log(view["rules_url"])}\n  </ol>\n'
            "</section>")


@lru_cache(maxsize=SEATS)
def _turn(voice: Voice, current: str, yours: bool) -> str:
    """Whose turn it is, and on that player's own phone that it is theirs: the same line on
    every phone of a turn but one, for many versions."""
    you = f" · <b>{say(voice, 'you')}</b>" if yours else ""
    return f'<p class="turn">{say(voice, "%(name)s’s turn", name=current)}{you}</p>'
