"""Four of the referee's screen's regions drawn in Python: the rulings to read aloud
(night/_spoken.html), the log (tablet/_log.html), the undo (tablet/_undo.html) and a seat's
row (tablet/_seat.html). The first three are new on nearly every tap (a step adds a ruling;
the undo quotes the last step), a seat's row whenever its coins, cards or badge change (two a
tap in bench/tap.py), and a template run costs several times the few lines below.

Each is drawn from its region's scope alone (what its partial reads), so it is keyed and
remembered as the partial was. The partials stay the reference, and the catalogue's source
of the sentences: tests/web/test_tablet_regions.py compares both at every step of random
games in every language. A change to one needs the same change to the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from app.i18n import Voice
from app.web.fragments import CSRF_SLOT, VERSION_SLOT
from app.web.i18n import escaped, nsay, say
from app.web.links import link_for
from app.web.loglines import log_html, time_up_html
from app.web.pieces import card_face, hidden, seat_name


def spoken_html(scope: Mapping[str, Any]) -> str:
    """night/_spoken.html: the newest rulings, for the tablet to read aloud."""
    voice: Voice = scope["voice"]
    lines = [f'<li data-n="{line.number}">{time_up_html(voice, line.time_up)}'
             f"{escaped(voice.ruling(line.ruling))}</li>" for line in scope["spoken"]]
    return (f'<ol class="spoken" hidden data-speech data-lang="{escaped(scope["speech_lang"])}">'
            + "".join(lines) + "</ol>")


def log_region_html(scope: Mapping[str, Any]) -> str:
    """tablet/_log.html: the newest rulings, newest first, and a link to the whole game's."""
    voice: Voice = scope["voice"]
    log = scope["log"]
    if not log:
        body = (f'<p class="empty">'
                f'{say(voice, "Each ruling will appear here, with the rule behind it.")}</p>')
        return _log_section(voice, f"\n  \n  {body}\n  ")
    more = ""
    if scope["log_total"] > len(log):
        whole = escaped(link_for("tablet.log", table_id=scope["table_id"]))
        more = (f'<p><a class="button" href="{whole}">'
                f'{say(voice, "The whole game so far")}</a></p>')
    lines = log_html(log, voice, scope["rules_url"])
    return _log_section(voice, f'\n  \n  <ol class="lines">\n    {lines}\n  </ol>\n  {more}\n  ')


def _log_section(voice: Voice, inside: str) -> str:
    return (f'\n<section id="log" class="log">\n  <h2>{say(voice, "Rulings")}</h2>'
            f"{inside}\n</section>")


def undo_html(scope: Mapping[str, Any]) -> str:
    """tablet/_undo.html: the undo's form, its question quoting the last step."""
    voice: Voice = scope["voice"]
    post = escaped(link_for("tablet.undo", table_id=scope["table_id"]))
    said = scope["undo_said"]
    question = (say(voice, "Undo the last step (“%(said)s”)? Every screen will be told.",
                    said=said) if said else say(voice, "Undo the last step?"))
    disabled = "" if scope["can_undo"] else "disabled"
    if scope["closed_by"] == "timeline":
        why = f'<small>{say(voice, "the timeline closed the game")}</small>'
    elif scope["closed"]:
        why = f'<small>{say(voice, "the download closed the game")}</small>'
    else:
        why = ""
    return (f'\n    <form method="post" action="{post}" hx-post="{post}" '
            f'hx-confirm="{question}">\n      {hidden(CSRF_SLOT, VERSION_SLOT)}\n'
            f'      \n      <button type="submit" {disabled}>{say(voice, "Undo")}{why}'
            "</button>\n    </form>")


BADGES: Final = {"act": "Must act", "answer": "Must answer", "lose": "Must lose a card",
                 "draw": "Must draw a card", "keep": "Must choose cards",
                 "show": "Must show a card", "decide": "Must swap or return",
                 "challenge": "May challenge", "block": "May block"}
"""A seat's badge (seat_calls' second word), in the third person: the tablet is public."""
NBSP: Final = "\u00a0"  # an idle seat's badge line keeps its height


def seat_html(scope: Mapping[str, Any]) -> str:
    """tablet/_seat.html: one seat's row (its name, whose turn, its badge, coins, cards)."""
    voice: Voice = scope["voice"]
    p, call, won = scope["p"], scope["call"], scope["won"]
    level, what = call or ("", "")
    classes = (f'seat {"current" if p["current"] else ""} '
               f'{f"acting {escaped(level)}" if call else ""} {"out" if p["out"] else ""} '
               f'{"won" if won else ""}')
    tag = "" if p["tracked"] else f' <small class="tag">{say(voice, "no phone")}</small>'
    mark = (f'<span class="turn-mark">{say(voice, "Turn")}</span>'
            if p["current"] and not won else "")
    badge = say(voice, BADGES[what]) if call and what in BADGES else "" if call else NBSP
    coins = (f'<span class="status">{say(voice, "out")}</span>' if p["out"] else
             nsay(voice, "%(num)s coin", "%(num)s coins", p["coins"]))
    back = escaped(voice.gettext("face-down card"))
    cards = (f'<span class="card back" role="img" aria-label="{back}"></span>' * p["face_down"]
             + "".join([card_face(c, voice.card(c), "up") for c in p["revealed"]]))
    faction = (f'<p class="faction faction-{escaped(p["faction"])}">'
               f'{escaped(voice.faction(p["faction"]))}</p>' if p["faction"] else "")
    return (f'\n\n\n  <li class="{classes}">\n    <h2>{seat_name(p["name"])}{tag}</h2>\n'
            f"    {mark}\n    \n    \n"
            f'    <p class="to-act {escaped(level or "idle")}">{badge}</p>\n    \n    \n'
            f'    <p class="coins">{coins}</p>\n    <p class="cards">{cards}</p>\n'
            f"    {faction}\n  </li>")
