"""A game night around the games: the table's night settings (a target of wins, the decision
timer), the night's scoreboard (from the winners the fold keeps, ``TableState.night_winners``)
and the spectators' link (the players' numbers across nights
are in :mod:`app.web.stats`). Every change of a table still goes through :meth:`Tables.commit`.

The night settings live in the table's settings (``setup["night"]``) and are changed by one
log row ``{"control": "night"}``, which the fold counts as a change like any other.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from app.engine import pending
from app.store import same_secret
from app.web.refusals import NightProblem, Refusal, Why
from app.web.state import CLOSED_BY, CONTROL, WINDOWS, TableState

if TYPE_CHECKING:  # the service calls this module; only its type is needed here
    from app.web.service import Tables

TIMER_MIN: Final = 10
TIMER_MAX: Final = 600
TARGET_MAX: Final = 20
WINDOW_PROMPTS: Final = WINDOWS
"""Prompts of an open window: the only wait that "let it stand" may end on its own."""
NOTHING_TO_STAND: Final = frozenset({Why.NOT_TIMED_OUT, Why.MOVED_ON, Why.ACTED_FIRST})
"""Why a tablet's own time-out finds nothing to let stand: its clock ran a little ahead of the
service's, or the table moved on (another tablet's time-out, or a tap) before it came."""


# -- the night's settings ---------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    target: int = 0  # wins that take the night; 0: no target
    timer: int = 0  # seconds per decision; 0: off (the default)
    stand: bool = False  # on time-out, let an open window's claim or action stand

    def as_json(self) -> dict[str, Any]:
        return {"target": self.target, "timer": self.timer, "stand": self.stand}


def settings(state: TableState) -> Settings:
    raw = state.table.setup.get("night")
    if not isinstance(raw, Mapping):
        return Settings()
    return Settings(_int(raw.get("target"), 0, TARGET_MAX), _int(raw.get("timer"), 0, TIMER_MAX),
                    raw.get("stand") is True)


def _int(value: object, low: int, high: int) -> int:
    return value if isinstance(value, int) and low <= value <= high else 0


def settings_from_form(form: Mapping[str, str]) -> Settings:
    """The night settings the tablet's form sent, or :class:`NightProblem`: the first field's,
    carrying every other field's problem too (``also``), so each shows beside its field."""
    problems: list[NightProblem] = []
    target = _checked(problems, lambda: _number("target", form.get("target", ""), TARGET_MAX,
                                                Why.BAD_TARGET))
    timer = _checked(problems, lambda: _timer(form.get("timer", "")))
    if problems:
        first = problems[0]
        first.also = tuple(problems[1:])
        raise first
    return Settings(target, timer, form.get("stand") == "1")


def _checked(problems: list[NightProblem], read: Callable[[], int]) -> int:
    """A field's number, or 0 with its problem added to ``problems``."""
    try:
        return read()
    except NightProblem as problem:
        problems.append(problem)
        return 0


def _timer(text: str) -> int:
    timer = _number("timer", text, TIMER_MAX, Why.BAD_TIMER)
    if timer and timer < TIMER_MIN:
        raise NightProblem(Why.BAD_TIMER, field="timer", min=TIMER_MIN, max=TIMER_MAX)
    return timer


def _number(field: str, text: str, high: int, why: Why) -> int:
    """A whole number from 1 to ``high``, or 0 for an empty field (off). A 0 typed in is
    refused like any other number out of range: the message says "or empty"."""
    text = (text or "").strip()
    if text == "":
        return 0
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= high:
        raise NightProblem(why, field=field, min=TIMER_MIN, max=high)
    return int(text)


# -- the night's scoreboard -------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    name: str
    wins: int
    leads: bool


def scoreboard(names: list[str], winners: tuple[str, ...], target: int
               ) -> tuple[list[Score], str | None]:
    """Wins per player this night, most first, and who reached the target (if anyone)."""
    wins = Counter(winners)
    most = max(wins.values(), default=0)
    rows = sorted((Score(n, wins[n], most > 0 and wins[n] == most) for n in names),
                  key=lambda s: -s.wins)
    champion = next((w for w in _running(winners) if target and w[1] >= target), None)
    return rows, champion[0] if champion else None


def _running(winners: tuple[str, ...]) -> list[tuple[str, int]]:
    count: Counter[str] = Counter()
    out = []
    for w in winners:
        count[w] += 1
        out.append((w, count[w]))
    return out


# -- the spectators' link ---------------------------------------------------------------------


def watch_key(state: TableState) -> str:
    """The key of the table's read-only link: drawn from the referee's key, which it never
    shows (a one-way hash), so it needs no storage and opens nothing but the public board."""
    digest = hashlib.sha256(b"coup-watch|" + state.table.referee_token.encode())
    return digest.hexdigest()[:32]


def may_watch(state: TableState, key: str) -> bool:
    return same_secret(key, watch_key(state))


# -- the decision timer -----------------------------------------------------------------------


@dataclass(frozen=True)
class Countdown:
    """Whom the table waits for, and until when (seconds since the epoch, the server's)."""

    waiting: tuple[str, ...]
    deadline: float
    seconds: int
    stand: bool

    def for_seat(self, name: str) -> bool:
        return name in self.waiting


def countdown(state: TableState) -> Countdown | None:
    """The running countdown, or None: timer off, no game under way, or it is over. It counts
    from the moment the current decision opened, as the log says (the game's newest step, undo
    or start, or the timer's settings changed), so a screen drawn again, after a reload or a
    reconnection, shows the same time left."""
    chosen = settings(state)
    game = state.game
    if not chosen.timer or state.lobby or game is None or game.over or not state.decision_opened:
        return None
    waiting = tuple(dict.fromkeys(p.player for p in pending(game)))
    opened = datetime.fromisoformat(state.decision_opened).timestamp()
    return Countdown(waiting, opened + chosen.timer, chosen.timer, chosen.stand)


# -- the night's taps, through the one writer ----------------------------------------------


class NightTaps:
    """Game night's writes: each is one call from its route, checked against the state it was
    given, then one :meth:`Tables.commit` (one transaction, one log row, one publish)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def change_settings(self, state: TableState, version: object,
                        chosen: Settings) -> TableState:
        """The table's settings and one ``{"control": "night"}`` row."""
        self.tables.fresh(state, version)
        setup = {**state.table.setup, "night": chosen.as_json()}
        return self.tables.commit(state, {CONTROL: "night"},
                                  change=lambda w: w.update_table(setup=setup))

    def let_it_stand(self, state: TableState, version: object) -> TableState:
        """On time-out, with "let it stand" on: the table passes, as if the tablet tapped
        "nobody (else) challenges or blocks". Exactly one step; refused when the timer has not
        run out, the setting is off, or the table waits for anything but a window."""
        self.tables.fresh(state, version)
        if not self.timed_out(state):
            raise Refusal(Why.NOT_TIMED_OUT)
        return self.tables.submit(state, version, {"do": "pass"}, [], time_up=True)

    def clock_ran_out(self, state: TableState, version: object) -> TableState:
        """A tablet's countdown ran out and its page sent the time-out by itself: no person
        tapped, so there is no one to refuse. Early by the service's clock, or after the table
        moved on, it is the table as it is now (whose countdown tells the tablet when to send
        again, if ever); else :meth:`let_it_stand`, one step."""
        try:
            return self.let_it_stand(state, version)
        except Refusal as refusal:
            if refusal.why not in NOTHING_TO_STAND:
                raise
            return self.tables.load(state.table.id) or state

    def timed_out(self, state: TableState) -> bool:
        """The countdown ran out, by the service's clock, on a window "let it stand" may end."""
        running, game = countdown(state), state.game
        return (running is not None and game is not None and running.stand
                and self.tables.now().timestamp() >= running.deadline
                and all(p.kind in WINDOW_PROMPTS for p in pending(game)))

    def open_timeline(self, state: TableState, version: object,
                      seat: tuple[str, str | None] | None = None) -> TableState:
        """Opening the timeline closes a finished game for good, as downloading its record
        does: an undo would reopen a game whose hands everyone has seen. Nothing to write when
        it is settled already."""
        if not state.over:
            raise Refusal(Why.NO_WINNER_YET)
        if state.settled:
            return state
        self.tables.fresh(state, version)
        return self.tables.commit(state, {CONTROL: "closed", CLOSED_BY: "timeline"}, seat=seat)
