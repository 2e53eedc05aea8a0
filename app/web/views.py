"""What each screen may show, and nothing more: the templates receive these views only.

The tablet gets the engine's ``table_view`` (no hidden card), the seats' public facts (a name,
whether a phone is connected and has entered its hand: never the hand) and the prompts of the
seats without a phone with any hidden card stripped. A phone gets ``seat_view`` for its own seat
and, in the lobby, its own hand. No view holds a TableState, a Game, a token other than the
screen's own links, or the referee's key.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import qrcode
import qrcode.image.svg
from markupsafe import Markup

from app.engine import (
    PRIVATE_KINDS,
    Prompt,
    Ruling,
    answers_of,
    characters_in_play,
    download,
    parse_rules,
    pending,
    phone_prompts,
)
from app.engine import seat_view as engine_seat_view
from app.engine import table_view as engine_table_view
from app.i18n import Voice
from app.store import Seat
from app.web import setting_words, words
from app.web.commons import common as common  # the screens' shared names (views.common)
from app.web.perstate import PerState
from app.web.seatcalls import question_key, seat_calls
from app.web.state import TableState
from app.web.waitingwords import waiting_words

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
    # Who may challenge and who may block now (tablet/_prompt.html's two windows).
    view["responders"] = [p for p in view["prompts"] if p.kind == "respond"]
    view["blockers"] = [p for p in view["prompts"] if p.kind == "block"]
    # What those windows' buttons show, by which they are remembered (tabletframe.remembered).
    view["challengers"] = [p.player for p in view["responders"]]
    view["block_offers"] = [(p.player, *p.options["as"]) for p in view["blockers"]]
    view["log"] = log_lines(state, public["log"], view["voice"], RECENT_RULINGS)
    view["log_total"] = len(public["log"])
    view["acting"] = acting(prompts)
    view["calls"] = seat_calls(prompts, public["turn"])
    view["can_undo"] = bool(state.steps) and not state.closed
    view["undo_said"] = last_step_said(state, public["log"], view["voice"])
    view["closed"] = state.closed
    view["closed_by"] = state.closed_by
    view["download"] = download(state.game, state.closed).value
    return view


def last_step_said(state: TableState, log: Sequence[Ruling], voice: Voice) -> str | None:
    """What the undo would take back, in the rulings' own words ("Nobody blocks. Cid steals 2
    coins from Ann."), or the step with who took it where it said nothing."""
    if not state.steps:
        return None
    said = log[state.last_said:]
    if said:
        words_said = " ".join(voice.ruling(r) for r in said)
    else:
        words_said = words.describe_step(state.steps[-1][1], voice)
    # The confirmation quotes it inside its own sentence: no full stop, and its own quotations
    # in the inner marks.
    return words.quoted_within(words_said.rstrip(".。"))


def _stripped(p: Prompt) -> Prompt:
    """An untracked examiner's "shown" card is on nobody's screen: the target shows it."""
    if p.kind == "decide":
        return Prompt(p.player, p.kind, {**p.options, "shown": None})
    return p


def whole_log(state: TableState) -> list[LogLine]:
    return numbered(state, engine_table_view(state.game)["log"]) if state.game else []


def phone(state: TableState, seat: Seat, languages: list[tuple[str, str]]) -> View:
    """A seat's phone: its own hand and questions, and the table as everyone sees it."""
    view = common(state, languages)
    view["token"] = seat.token
    view["name"] = seat.name
    view["lobby"] = state.lobby or state.game is None
    view["on_tablet"] = not seat.tracked
    if view["on_tablet"]:  # "No phone": the tablet plays the seat; this phone shows none of it
        return {**view, "hand": None, "must_act": False}
    if view["lobby"]:
        view["hand"] = seat.hand
        view["choices"] = list(characters_in_play(view["rules"]))
        return view
    assert state.game is not None
    mine = engine_seat_view(state.game, seat.name, public_view(state))
    view["view"] = mine
    view["prompts"] = phone_prompts(state.game, seat.name, answers_of(state.table.setup))
    view["me"] = [p for p in mine["players"] if p["name"] == seat.name][0]
    view["just_undone"] = just_undone(state, view["voice"])
    everyone = pending_of(state)
    view["acting"] = acting(everyone)
    view["asked"] = asked = [p for p in everyone if p.player == seat.name]  # all kinds
    # Whether the seat has a step of its own to take (its table part then says nothing of
    # whom the table waits for): asked here, once, not with a filter chain in the template.
    view["own_step"] = any([p.private for p in view["prompts"]])
    # What the seat is asked, by kind, and which of those are its own steps (phone/_alert.html).
    view["asked_kinds"] = [p.kind for p in asked]
    view["own_kinds"] = [p.kind for p in asked if p.kind in PRIVATE_KINDS]
    view["must_act"] = must_act(asked, mine["turn"], seat.name)
    view["turn_no"] = state.turns_begun
    view["buzz"] = question_key(asked, mine["turn"], view["me"]["face_down"], view["turn_no"])
    voice = view["voice"]
    view["yours"] = lambda r: voice.ruling_to(r, seat.name, words.to_you)
    view["waiting_to_you"] = lambda r: waiting_words(voice, r, seat.name)
    return view


def phone_public(state: TableState, languages: list[tuple[str, str]]) -> View:
    """What every phone of the table shows alike (the other players' rows, the newest
    rulings): drawn once per version and language and placed into each seat's screen. Made
    from the public view alone, so no seat's hand can be in it."""
    view = common(state, languages)
    if state.game is None or state.lobby:
        return {**view, "players": [], "log": [], "acting": []}
    public = public_view(state)
    return {**view, "players": public["players"], "acting": acting(pending_of(state)),
            "log": log_lines(state, public["log"], view["voice"], PHONE_RULINGS)}


def _public_view(state: TableState) -> View:
    assert state.game is not None
    return engine_table_view(state.game, pending(state.game))


public_view: Final = PerState(_public_view, spoken=False)
"""The engine's public view of a state in a game, worked out once for the version's phones
(each seat's view adds its own cards to it, and their shared parts show it): no hidden card
is in it. Its waiting line is then one ruling, worded once per language, not once a seat."""


def must_act(asked: Sequence[Prompt], turn: dict[str, Any] | None, name: str) -> bool:
    """Whether the table waits for this player in particular (their turn, a step only they can
    take, or an answer to an action aimed at them): their phone says "It's you" and buzzes.
    A window open to everyone ("you may challenge") is not enough."""
    targeted = turn is not None and turn["target"] == name and turn["actor"] != name
    return bool(asked) and (targeted or any([p.private or p.kind == "declare" for p in asked]))


def pending_of(state: TableState) -> list[Prompt]:
    return pending(state.game) if state.game is not None and not state.lobby else []


def acting(prompts: Sequence[Prompt]) -> list[str]:
    """The players the table waits for now (who must act, or may speak up), in seat order of
    the prompts, each once. Public: the waiting line names them too."""
    return list(dict.fromkeys(p.player for p in prompts))


@dataclass(frozen=True)
class LogLine:
    """A line of a screen's log: a ruling with its number in the whole game, or a step the
    referee undid (``undone``), in the place it happened. ``time_up``: the ruling's step was
    taken by the decision timer ("on time-out, let it stand"), so the line says the clock
    decided it."""

    number: int = 0
    ruling: Ruling | None = None
    undone: str | None = None
    time_up: bool = False


def log_lines(state: TableState, log: Sequence[Ruling], voice: Voice, limit: int
              ) -> list[LogLine]:
    """The newest ``limit`` lines, newest first: rulings numbered as the whole game's log
    numbers them (the same on the tablet and every phone), each undo where it happened."""
    marks = _undo_marks(state, len(log))[::-1]
    timed = time_up_numbers(state)
    if not marks:  # the usual case, in one comprehension: the loop below took ~5 calls a line
        return [LogLine(number, log[number - 1], time_up=number in timed)
                for number in range(len(log), max(len(log) - limit, 0), -1)]
    lines: list[LogLine] = []
    for number in range(len(log), -1, -1):  # from the newest; only as far back as shown
        lines.extend(LogLine(undone=words.describe_step(step, voice))
                     for at, step in marks if at == number)
        if len(lines) >= limit:
            break
        if number:
            lines.append(LogLine(number, log[number - 1], time_up=number in timed))
    return lines[:limit]


def time_up_numbers(state: TableState) -> frozenset[int]:
    """The numbers of the rulings that begin a step the decision timer took."""
    return frozenset(said + 1 for _seq, said in state.time_up)


def numbered(state: TableState, log: Sequence[Ruling], newest: int = 0) -> list[LogLine]:
    """Every ruling of ``log`` (or only the ``newest`` few) as a numbered line, oldest first
    (for the whole-game log)."""
    timed = time_up_numbers(state)
    first = max(len(log) - newest, 0) if newest else 0
    return [LogLine(n, r, time_up=n in timed) for n, r in enumerate(log[first:], first + 1)]


def _undo_marks(state: TableState, size: int) -> list[tuple[int, Any]]:
    """(how many rulings came before it, the step) for each undo, oldest first. A later undo
    that took rulings away pulls the earlier marks back with it: those rulings are gone."""
    marks: list[tuple[int, Any]] = []
    for at, step in zip(state.undone_at, state.undone, strict=False):
        marks = [(min(m, at), s) for m, s in marks]
        marks.append((at, step))
    return [(min(at, size), step) for at, step in marks]


def just_undone(state: TableState, voice: Voice) -> str | None:
    """The step the referee undid, while nothing has happened since: every phone says so."""
    if not state.undone or state.game is None or state.lobby:
        return None
    if not state.steps or state.steps[-1][0] < state.undone_seq:
        return words.describe_step(state.undone[-1], voice)
    return None


def rules_summary(state: TableState) -> list[tuple[str, str, str]]:
    """(setting, explanation, this game's value) for every setting, official ones included."""
    rules = parse_rules(dict(state.rules))
    rows = []
    for key, (explanation, labels) in setting_words.settings(words.table_voice(state)).items():
        value = getattr(rules, key)
        label = labels.get(value, value) if labels else value
        rows.append((key, explanation, str(label)))
    return rows
