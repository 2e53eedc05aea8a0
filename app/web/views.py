"""What each screen may show, and nothing more: the templates receive these views only.

The tablet gets the engine's ``table_view`` (no hidden card), the seats' public facts (a name,
whether a phone is connected and has entered its hand: never the hand) and the prompts of the
seats without a phone with any hidden card stripped. A phone gets ``seat_view`` for its own seat
and, in the lobby, its own hand. No view holds a TableState, a Game, a token other than the
screen's own links, or the referee's key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import qrcode
import qrcode.image.svg
from markupsafe import Markup

from app.editions import edition
from app.engine import (
    Prompt,
    RuleError,
    Ruling,
    characters_in_play,
    claim_of,
    claim_words,
    download,
    parse_rules,
    pending,
)
from app.engine import seat_view as engine_seat_view
from app.engine import table_view as engine_table_view
from app.i18n import Voice
from app.store import Seat
from app.web import words
from app.web.state import TableState

RECENT_RULINGS: Final = 30  # on the tablet's live view; the whole game is one tap away
PHONE_RULINGS: Final = 8

View = dict[str, Any]


@lru_cache(maxsize=256)
def qr_svg(url: str) -> Markup:
    """The QR code of a link as inline SVG; remembered, since screens refresh often."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Markup(image.to_string(encoding="unicode"))


@dataclass(frozen=True)
class SeatCard:
    """A seat as the referee's screen shows it: never its hand, never its device."""

    seat: int
    name: str
    tracked: bool
    hand_entered: bool
    connected: bool
    link: str

    @property
    def qr(self) -> Markup:
        return qr_svg(self.link)


def common(state: TableState, languages: list[tuple[str, str]]) -> View:
    """The names and words every screen of a table uses."""
    rules = parse_rules(dict(state.rules))
    voice = words.table_voice(state)
    return {
        "version": state.version,
        "edition": edition(state.edition),
        "rules": rules,
        "languages": languages,
        "voice": voice,  # the templates' _() speaks it: the box's words (app/web/i18n.py)
        "card": voice.card,
        "act": voice.action,
        "faction": voice.faction,
        "ruling": voice.ruling,
        "brief": lambda e: _brief(e, voice),
        "claim_of": lambda a: claim_of(rules, a),
        # What an action claims, in words: "Duke", or for an Embezzle "no Duke".
        "claim_words": lambda a: claim_words(rules, a),
    }


def _brief(error: RuleError, voice: Voice) -> str:
    return voice.say(error.brief or error.text, error.params, error.count)


def tablet(state: TableState, link: Callable[[Seat], str], languages: list[tuple[str, str]]
           ) -> View:
    """The referee's screen: the lobby's seat cards, or the game as the table sees it."""
    view = common(state, languages)
    view["table_id"] = state.table.id
    view["lobby"] = state.lobby
    view["seats"] = [SeatCard(s.seat, s.name, s.tracked, s.hand is not None,
                              s.device is not None, link(s)) for s in state.seats]
    if state.lobby or state.game is None:
        return view
    prompts = pending(state.game)
    public = engine_table_view(state.game, prompts)
    untracked = {s.name for s in state.seats if not s.tracked}
    view["view"] = public
    view["prompts"] = [p if not p.private else _stripped(p) for p in prompts
                       if not p.private or p.player in untracked]
    view["log"] = list(reversed(public["log"]))[:RECENT_RULINGS]
    view["log_total"] = len(public["log"])
    view["undone"] = [words.describe_step(s, view["voice"]) for s in reversed(state.undone)]
    view["can_undo"] = bool(state.steps) and not state.closed
    view["closed"] = state.closed
    view["download"] = download(state.game, state.closed).value
    return view


def _stripped(p: Prompt) -> Prompt:
    """An untracked examiner's "shown" card is on nobody's screen: the target shows it."""
    if p.kind == "decide":
        return Prompt(p.player, p.kind, {**p.options, "shown": None})
    return p


def whole_log(state: TableState) -> list[Ruling]:
    return list(engine_table_view(state.game)["log"]) if state.game else []


def phone(state: TableState, seat: Seat, languages: list[tuple[str, str]]) -> View:
    """A seat's phone: its own hand and questions, and the table as everyone sees it."""
    view = common(state, languages)
    view["token"] = seat.token
    view["name"] = seat.name
    view["lobby"] = state.lobby or state.game is None
    if view["lobby"]:
        view["hand"] = seat.hand
        view["choices"] = list(characters_in_play(view["rules"]))
        return view
    assert state.game is not None
    mine = engine_seat_view(state.game, seat.name)
    view["view"] = mine
    view["prompts"] = mine["prompts"]
    view["log"] = list(reversed(mine["log"]))[:PHONE_RULINGS]
    view["me"] = next(p for p in mine["players"] if p["name"] == seat.name)
    return view


def rules_summary(state: TableState) -> list[tuple[str, str, str]]:
    """(setting, explanation, this game's value) for every setting, official ones included."""
    rules = parse_rules(dict(state.rules))
    rows = []
    for key, (explanation, labels) in words.settings(words.table_voice(state)).items():
        value = getattr(rules, key)
        label = labels.get(value, value) if labels else value
        rows.append((key, explanation, str(label)))
    return rows
