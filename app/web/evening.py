"""A game night around the games: the table's night settings (a target of wins, the decision
timer), the night's scoreboard and the spectators' link (the players' numbers across nights
are in :mod:`app.web.stats`). Every change of a table still goes through :meth:`Tables.commit`.

The night settings live in the table's settings (``setup["night"]``) and are changed by one
log row ``{"control": "night"}``, which the fold counts as a change like any other.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from app.engine import pending
from app.engine.rulings import N_
from app.store import LogRow, Table, same_secret
from app.web.pool import StorePool
from app.web.refusals import Refusal, Why
from app.web.state import CONTROL, TableState, advance

if TYPE_CHECKING:  # the service calls this module; only its type is needed here
    from app.web.service import Tables

TIMER_MIN: Final = 10
TIMER_MAX: Final = 600
TARGET_MAX: Final = 20
WINDOW_PROMPTS: Final = frozenset({"respond", "block"})
"""Prompts of an open window: the only wait that "let it stand" may end on its own."""


class NightProblem(Exception):
    """A night setting or a player's name the form sent that can't be used; ``text`` is an
    English template (translated where it is shown) and ``params`` its values."""

    def __init__(self, text: str, **params: object) -> None:
        super().__init__(text)
        self.text = text
        self.params = params


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
    """The night settings the tablet's form sent, or :class:`NightProblem`."""
    target = _number(form.get("target", ""), 0, TARGET_MAX,
                     # TRANSLATORS: error (game night's settings). max: a number.
                     N_("The target must be a number of wins from 1 to %(max)s, or empty."))
    timer = _number(form.get("timer", ""), 0, TIMER_MAX,
                    # TRANSLATORS: error (game night's settings). min, max: numbers.
                    N_("The timer must be from %(min)s to %(max)s seconds, or empty (off)."))
    if timer and timer < TIMER_MIN:
        # TRANSLATORS: error (game night's settings). min, max: numbers.
        raise NightProblem(N_("The timer must be from %(min)s to %(max)s seconds, or empty (off)."),
                           min=TIMER_MIN, max=TIMER_MAX)
    return Settings(target, timer, form.get("stand") == "1")


def _number(text: str, low: int, high: int, problem: str) -> int:
    text = (text or "").strip()
    if text in ("", "0"):
        return 0
    if not text.isascii() or not text.isdigit() or not low <= int(text) <= high:
        raise NightProblem(problem, min=TIMER_MIN, max=high)
    return int(text)


def change_settings(tables: Tables, state: TableState, version: object,
                    chosen: Settings) -> TableState:
    """The one write of a settings change: the table's settings, and one log row."""
    tables.fresh(state, version)
    setup = {**state.table.setup, "night": chosen.as_json()}
    return tables.commit(state, {CONTROL: "night"}, change=lambda w: w.update_table(setup=setup))


# -- the night's scoreboard -------------------------------------------------------------------


class Nights:
    """Each table's winners so far. The log is folded once, then only its new rows: the fold
    reached so far and the winners before its game are remembered per table."""

    def __init__(self, size: int = 128) -> None:
        self._folds: OrderedDict[str, tuple[TableState, tuple[str, ...]]] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def winners(self, pool: StorePool, state: TableState) -> tuple[str, ...]:
        """The winner of each finished game at this table, oldest first."""
        with self._lock:
            known = self._folds.get(state.table.id)
        if known is not None and known[0].version >= state.version:
            return (*known[1], *_winner(known[0]))  # as new as asked, or newer
        folded, found = known or (TableState(Table("", "", "", {}, "en"), ()), ())
        if folded.version < state.version:
            with pool.store() as store:
                snapshot = store.read(state.table.id, after=folded.version)
            rows = snapshot.rows if snapshot is not None else ()
            folded, found = fold_winners(folded, found, rows)
            with self._lock:
                self._folds[state.table.id] = (folded, found)
                self._folds.move_to_end(state.table.id)
                while len(self._folds) > self._size:
                    self._folds.popitem(last=False)
        return (*found, *_winner(folded))


def fold_winners(state: TableState, found: tuple[str, ...], rows: Sequence[LogRow]
                 ) -> tuple[TableState, tuple[str, ...]]:
    """Fold more rows, noting the game each new start leaves behind."""
    for row in rows:
        if row.kind == "step" and (row.step or {}).get(CONTROL) == "start":
            found = (*found, *_winner(state))
        state = advance(state, row)
    return state, found


def winners_in(rows: Sequence[LogRow]) -> tuple[str, ...]:
    """The winner of each finished game in a whole log, oldest first."""
    state, found = fold_winners(TableState(Table("", "", "", {}, "en"), ()), (), rows)
    return (*found, *_winner(state))


def _winner(state: TableState) -> tuple[str, ...]:
    return (state.game.winner,) if state.game is not None and state.game.winner else ()


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


def countdown(pool: StorePool, state: TableState) -> Countdown | None:
    """The running countdown, or None: timer off, no game under way, or it is over."""
    chosen = settings(state)
    game = state.game
    if not chosen.timer or state.lobby or game is None or game.over:
        return None
    waiting = tuple(dict.fromkeys(p.player for p in pending(game)))
    started = _last_move(pool, state.table.id)
    if started is None:
        return None
    return Countdown(waiting, started + chosen.timer, chosen.timer, chosen.stand)


def _last_move(pool: StorePool, table_id: str) -> float | None:
    """When the game last moved: its newest step, undo or start (a phone opening its seat or a
    setting changed does not restart the clock)."""
    with pool.store() as store:
        row = store.db.execute(
            "SELECT created FROM steps WHERE table_id = ? AND (kind = 'undo' "
            "OR json_extract(step, '$.control') IS NULL "
            "OR json_extract(step, '$.control') = 'start') ORDER BY seq DESC LIMIT 1",
            [table_id]).fetchone()
    return None if row is None else datetime.fromisoformat(row[0]).timestamp()


def let_it_stand(tables: Tables, pool: StorePool, state: TableState, version: object
                 ) -> TableState:
    """On time-out, with "let it stand" on: the table passes, as if the tablet tapped "nobody
    (else) challenges or blocks". Exactly one step, through the one writer; refused when the
    timer has not run out, the setting is off, or the table waits for anything but a window."""
    tables.fresh(state, version)
    running = countdown(pool, state)
    if running is None or not running.stand:
        raise Refusal(Why.MOVED_ON)
    if time.time() < running.deadline:
        raise Refusal(Why.MOVED_ON)
    assert state.game is not None
    if not all(p.kind in WINDOW_PROMPTS for p in pending(state.game)):
        raise Refusal(Why.MOVED_ON)
    return tables.submit(state, version, {"do": "pass"}, [])
