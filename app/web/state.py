"""A table's state: its log folded into one frozen record, remembered by (table, version).

The log holds engine steps and a few control entries of our own: ``{"control": "start",
"setup": ...}`` begins a game, ``{"control": "rematch"}`` opens the lobby for the next one,
``{"control": "closed"}`` marks the record downloaded (no more undo), and ``{"control":
"seat"}`` marks a change of the seats (a phone claimed its seat, a hand entered, a link
re-issued). A step's row may carry one mark of the web's own: ``"time_up": true``, the
decision timer took it (:func:`engine_step` strips it before the engine). Every change
appends one row, so a version names one state and a state never changes: a cached one is
shared by every request (greenlet) that asks for that version.

Hidden cards never enter the log before a game starts: hands wait in the seats table, and only
the start entry's set-up holds them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from app.engine import Game, apply, new_game, pending
from app.engine.cards import ACTIONS
from app.frozen import freeze
from app.quicklock import quick_lock
from app.store import JSON, LogRow, Seat, Snapshot, Table

CONTROL: Final = "control"
TABLES_KEPT: Final = 1024  # tables whose newest states are remembered
VERSIONS_KEPT: Final = 2  # a table's newest and the one before (a stream a tap behind)


@dataclass(frozen=True, slots=True)
class TableState:
    """A table as its log says it is at ``version``: seats, the current game and around it."""

    table: Table
    seats: tuple[Seat, ...]
    version: int = 0
    setup: JSON | None = None  # the set-up the current game started from
    game: Game | None = None  # the current game, or the last one while the lobby is open
    lobby: bool = True  # between games: seats and hands may change
    games: int = 0  # games started at this table
    steps: tuple[tuple[int, JSON], ...] = ()  # (log seq, step) of each live step of `game`
    undone: tuple[JSON, ...] = ()  # steps of this game the referee undid, oldest first
    undone_at: tuple[int, ...] = ()  # for each, how many rulings the game's log held just after
    undone_seq: int = 0  # the log seq of the newest undo of this game
    closed: bool = False  # its record was downloaded: this game can't be undone any more
    closed_by: str = ""  # what closed it: "record" (downloaded) or "timeline" (opened)
    last_said: int = 0  # how many rulings the game's log held before its last live step
    winners: tuple[str, ...] = ()  # the winner of each earlier game at this table, oldest first
    decision_opened: str = ""  # when the game last moved or the night's settings changed
    # (log seq, rulings before it) of each live step the decision timer took ("on time-out,
    # let it stand"): the screens' logs say the clock decided it
    time_up: tuple[tuple[int, int], ...] = ()
    # How many turns of this game have begun (its steps that are actions): a phone's question
    # keeps its key while other seats take their steps and changes with the next turn
    turns_begun: int = 0

    @property
    def over(self) -> bool:
        """The current game (or the last one, in the lobby) is finished."""
        return self.game is not None and self.game.over

    @property
    def settled(self) -> bool:
        """A finished game no undo can reopen: closed (its record or timeline was opened) or
        back in the lobby. Only such a game's hands may be shown, and its bluffs counted."""
        return self.over and (self.closed or self.lobby)

    @property
    def night_winners(self) -> tuple[str, ...]:
        """The winner of each finished game at this table tonight, this one included."""
        game = self.game
        return (*self.winners, game.winner) if game is not None and game.winner else self.winners

    @property
    def edition(self) -> str:
        return str(self.table.setup.get("edition", "official"))

    @property
    def rules(self) -> Mapping[str, Any]:
        rules = self.table.setup.get("rules")
        return rules if isinstance(rules, Mapping) else {}

    def seat_with_token(self, token: str) -> Seat | None:
        for seat in self.seats:  # a loop, not a generator: asked for each phone's event
            if seat.token == token:
                return seat
        return None


def fold(snapshot: Snapshot) -> TableState:
    """The state a table's whole log leads to: the one fold of the log."""
    state = TableState(snapshot.table, snapshot.seats)
    for row in snapshot.rows:
        state = advance(state, row)
    return state


def advance(state: TableState, row: LogRow, applied: Game | None = None) -> TableState:
    """The state after one more log row (``row.seq`` is the new version). ``applied`` is the
    game after this row's step when the writer has worked it out already (the step was
    checked by applying it): the fold then doesn't apply it a second time."""
    if row.kind == "undo":
        return replace(_undo(state, row.undoes, row.seq), decision_opened=row.created)
    entry = row.step or {}
    control = entry.get(CONTROL)
    if control == "start":
        setup = entry["setup"]
        return replace(state, version=row.seq, setup=setup, game=new_game(dict(setup)),
                       lobby=False, games=state.games + 1, steps=(), undone=(), undone_at=(),
                       closed=False, closed_by="", winners=state.night_winners,
                       decision_opened=row.created, last_said=0, time_up=(), turns_begun=0)
    if control == "rematch":
        return replace(state, version=row.seq, lobby=True)
    if control == "closed":
        return replace(state, version=row.seq, closed=True,
                       closed_by=str(entry.get(CLOSED_BY, "record")))
    if control is None and state.game is not None:
        step = engine_step(entry)
        game = applied if applied is not None else apply(state.game, dict(step))
        opened = state.decision_opened if same_window(state.game, game, step) else row.created
        said = len(state.game.log)
        timed = ((*state.time_up, (row.seq, said)) if entry.get(TIME_UP) is True
                 else state.time_up)
        return replace(state, version=row.seq, game=game, steps=(*state.steps, (row.seq, step)),
                       decision_opened=opened, last_said=said, time_up=timed,
                       turns_begun=state.turns_begun + begins_turn(step))
    if control == "night":  # the timer's settings changed: a running countdown starts again
        return replace(state, version=row.seq, decision_opened=row.created)
    return replace(state, version=row.seq)


TIME_UP: Final = "time_up"
CLOSED_BY: Final = "by"
"""In a ``closed`` control entry: what closed the game ("timeline"; none: its record)."""
"""A web-only mark on a step's log row: the decision timer ran out and the table let it stand.
The engine never sees it (:func:`engine_step`), so a game's record is the same without it."""


def engine_step(entry: JSON) -> JSON:
    """A step's log row as the engine takes it: without the web's own marks (read-only, as
    every row of a cached state is)."""
    if TIME_UP not in entry:
        return entry
    stripped: JSON = freeze({k: v for k, v in entry.items() if k != TIME_UP})
    return stripped


def begins_turn(step: Mapping[str, Any]) -> bool:
    """Whether a (legal) step is an action, the first step of a turn."""
    return step.get("do") in ACTIONS


WINDOWS: Final = frozenset({"respond", "block"})
"""Prompts of an open window (anyone may challenge or block)."""


def same_window(before: Game, after: Game, entry: Mapping[str, Any]) -> bool:
    """One player's own pass in a window that stays open for the others: the decision is the
    same one, so its countdown runs on from when the window opened (issue 14.3)."""
    if entry.get("do") != "pass" or not entry.get("by"):
        return False
    kinds_before = {p.kind for p in pending(before)}
    kinds_after = {p.kind for p in pending(after)}
    return bool(kinds_after) and kinds_after <= kinds_before and kinds_after <= WINDOWS


def _undo(state: TableState, seq: int | None, version: int) -> TableState:
    """Undo is "drop the step and replay" (ARCHITECTURE.md): a game is a few hundred steps."""
    kept = tuple(s for s in state.steps if s[0] != seq)
    if state.setup is None or len(kept) == len(state.steps):
        return replace(state, version=version)  # it names no step of this game
    game = new_game(dict(state.setup))
    last_said = 0
    timed = {s for s, _said in state.time_up}
    time_up: list[tuple[int, int]] = []
    for step_seq, step in kept:
        last_said = len(game.log)
        if step_seq in timed:
            time_up.append((step_seq, last_said))
        game = apply(game, dict(step))
    undone = next(step for s, step in state.steps if s == seq)
    return replace(state, version=version, game=game, steps=kept,
                   turns_begun=sum(begins_turn(step) for _seq, step in kept),
                   undone=(*state.undone, undone), undone_at=(*state.undone_at, len(game.log)),
                   undone_seq=version, last_said=last_said, time_up=tuple(time_up))


class StateCache:
    """The newest states of the most recently used tables: :data:`VERSIONS_KEPT` versions of
    each of at most :data:`TABLES_KEPT` tables. Kept per table, not as one list of versions:
    a table's newest state stays however many other tables tap between two of its taps (a
    list of 512 versions let 300 tables push each other's out, and every tap then folded its
    table's whole log again). Thread- and greenlet-safe; the states themselves are frozen, so
    handing one to many requests is safe."""

    def __init__(self, tables: int = TABLES_KEPT, versions: int = VERSIONS_KEPT) -> None:
        self._tables = tables
        self._versions = versions
        self._states: OrderedDict[str, tuple[TableState, ...]] = OrderedDict()
        self._lock = quick_lock()

    def get(self, table_id: str, version: int) -> TableState | None:
        with self._lock:
            for state in self._states.get(table_id, ()):
                if state.version == version:
                    self._states.move_to_end(table_id)
                    return state
            return None

    def put(self, state: TableState) -> None:
        """Remember ``state`` beside its table's newest others (an older one that comes late,
        from a slow fold, never pushes a newer one out)."""
        table_id = state.table.id
        with self._lock:
            others = [held for held in self._states.pop(table_id, ())
                      if held.version != state.version]
            newest = sorted((*others, state), key=lambda held: held.version)
            self._states[table_id] = tuple(newest[-self._versions:])
            while len(self._states) > self._tables:
                self._states.popitem(last=False)

    def __len__(self) -> int:
        return sum(len(held) for held in self._states.values())
