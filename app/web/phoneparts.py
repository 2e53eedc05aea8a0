"""The parts of a phone's screen that every seat of the table sees alike: the other players'
rows and the newest rulings. They are drawn once per version and language (not once per seat)
from the public view alone (:func:`app.web.views.public_view`, ``phone_public``), so no hand
can be in them, and each seat's screen places them: every row but its own, and the rulings
with its own Rules link. Only the seat's own part (its hand, its questions) is drawn per seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from flask import render_template, request
from markupsafe import Markup, escape

from app.i18n import Voice
from app.store import Seat
from app.web import views
from app.web.fragments import CSRF_SLOT
from app.web.i18n import language, nsay, say
from app.web.loglines import RULES_SLOT, log_html
from app.web.perstate import PerState
from app.web.pieces import card_face
from app.web.screens import fragments, languages
from app.web.state import TableState

ROW_END: Final = "\x1f"
"""Ends each row of the other players' rows. A control character can't be in a name or
anything else a screen shows, so what players type can't forge one."""

ROWS: Final = 4096  # players' rows remembered (six a table, a few versions of each)
FEET: Final = 4096  # seats' language forms remembered (one per seat and language)
_BACK: Final = '<span class="card back" role="img" aria-label="{}"></span>'



@dataclass(frozen=True)
class PhoneParts:
    """The shared parts of one version's phone screens, in one language."""

    rows: tuple[tuple[str, str], ...]  # (player's name, their row), in seat order
    rulings: str  # the newest rulings' lines, with RULES_SLOT for the seat's Rules link

    def others(self, name: str) -> Markup:
        """Every player's row but ``name``'s."""
        return Markup("\n".join([row for who, row in self.rows if who != name]))

    def log(self, rules_url: str) -> Markup:
        """The rulings, each rule code linking to this seat's Rules page."""
        return Markup(self.rulings.replace(RULES_SLOT, str(escape(rules_url))))


def _phone_parts(state: TableState) -> PhoneParts:
    if state.game is None or state.lobby:
        return PhoneParts((), "")
    speaking, table_id, version = language(), state.table.id, state.version
    rows = fragments().part(table_id, ("phone rows", speaking), version,
                            lambda: _rows(state))
    rulings = fragments().part(table_id, ("phone rulings", speaking), version,
                               lambda: _rulings(state))
    names = [p.name for p in state.game.players]
    drawn = [row.strip() for row in rows.split(ROW_END)][:len(names)]
    return PhoneParts(tuple(zip(names, drawn, strict=True)), rulings.strip())


phone_parts: Final = PerState(_phone_parts, spoken=True)
"""The shared parts of a state's phone screens in this request's language, split into rows
once for the version's six phones (not once per seat)."""


def _rows(state: TableState) -> str:
    """Every player's row as the other phones show it (public facts only: the public view's),
    each followed by :data:`ROW_END`."""
    voice = views.common(state, languages())["voice"]
    acting = set(views.acting(views.pending_of(state)))
    return "".join(_row(voice, p["name"], p["coins"], p["face_down"], tuple(p["revealed"]),
                        p["out"], p["faction"], p["name"] in acting) + ROW_END
                   for p in views.public_view(state)["players"])


@lru_cache(maxsize=ROWS)
def _row(voice: Voice, name: str, coins: int, face_down: int, revealed: tuple[str, ...],
         out: bool, faction: str | None, acting: bool) -> str:
    """A player's row (each drawn once for what it shows: most rows stay as they were from one
    version to the next)."""
    # A player who is out: "out" where the coins stood, as on the tablet.
    # TRANSLATORS: the phone. num: a number.
    said = f'<span class="status">{say(voice, "out")}</span>' if out else \
        nsay(voice, "%(num)s coin", "%(num)s coins", coins)
    back = escape(voice.gettext("face-down card"))
    up = "".join(card_face(c, voice.card(c), "up small") for c in revealed)
    side = f' <span class="faction faction-{escape(faction)}">{escape(voice.faction(faction))}' \
        "</span>" if faction else ""
    return (f'<li class="{"out" if out else ""}{" acting" if acting else ""}"><b>{escape(name)}'
            f'</b> {said} · {_BACK.format(back) * face_down}{up}{side}</li>')


def _rulings(state: TableState) -> str:
    """The newest rulings' lines, with :data:`RULES_SLOT` for each seat's Rules link."""
    view = views.phone_public(state, languages())
    return str(log_html(view["log"], view["voice"], RULES_SLOT))


def foot(seat: Seat, csrf: str, spoken: str) -> Markup:
    """The seat's language form (phone/_foot.html) in the language ``spoken`` (the request's),
    with ``csrf`` as its form token. It shows
    nothing of the game, only the seat's link and language, so it is drawn once per seat and
    language, not once per version. The old phone of a "No phone" seat has none: the seat
    takes no tap from it, so a form there would be a dead end (it reads the seat's language)."""
    if not seat.tracked:
        return Markup("")
    drawn = _foot(seat.token, spoken, request.script_root).decode()
    return Markup(drawn.replace(CSRF_SLOT, csrf))


@lru_cache(maxsize=FEET)
def _foot(token: str, _speaking: str, _script_root: str) -> bytes:
    """The language form of the seat ``token`` in this request's language (``_speaking``),
    where the app is served (``_script_root``), with :data:`CSRF_SLOT` for the form token; as
    UTF-8, as the fragment cache keeps its screens (each language's own name in the list
    makes the text two bytes a character as a string)."""
    return render_template("phone/_foot.html", token=token, csrf=CSRF_SLOT,
                           languages=languages()).strip().encode()


def mine(state: TableState, seat: Seat, view: dict[str, Any]) -> Markup:
    """The seat's own coins, hand, cards face up and side (phone/_mine.html), from its phone
    view ``view``. It changes a few times a game, so it is drawn again only when what it shows
    does; remembered per seat (by its token: no other seat's screen can get it) and voice."""
    shows = (view["voice"], repr(view["me"]), repr(view["view"]["hand"]))
    drawn = fragments().alike(state.table.id, ("phone mine", seat.token), shows,
                              lambda: render_template("phone/_mine.html", **view))
    return Markup(drawn)
