"""The one place that joins storage, the engine and live updates (ARCHITECTURE.md).

Reading: :meth:`Tables.load` is one query when the state of that version was folded before,
else one read of the table and the fold (:mod:`app.web.state`). Writing: every command checks
what it needs against the state it was given, then commits one transaction that re-checks the
version (and a seat's token) under the write lock and ends in one log row, then publishes the
new version once. A command returns the new state, so the answer is drawn without loading again.
Refusals are typed (:mod:`app.web.refusals`); the web layer words them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Final

from app.editions import edition_of_rules
from app.engine import (
    Download,
    Game,
    RuleError,
    SeatHand,
    apply,
    check_table,
    download,
    setup_from_seats,
    tablet_may_take,
    undo_problem,
)
from app.engine.rulings import N_, Names
from app.interfaces import TableLog
from app.live import LiveUpdates
from app.records import Record, RecordError, export, replay
from app.store import (
    NewSeat,
    SeatGone,
    StaleVersion,
    Table,
    UnknownTable,
    Writing,
    new_token,
)
from app.web import evening, stats
from app.web.admission import Admission
from app.web.pool import StorePool
from app.web.referees import JoinCodes
from app.web.refusals import Refusal, Why
from app.web.seats import Seats, form_step, playing
from app.web.state import CONTROL, TIME_UP, StateCache, TableState, advance, fold

SEAT_CHANGED: Final = {CONTROL: "seat"}



class Tables:
    """The service over one database: every write of a table goes through here."""

    def __init__(self, pool: StorePool, broker: LiveUpdates,
                 clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.pool = pool
        self.broker = broker
        self.now = now  # the wall clock: the admission's hours, the decision timer's deadlines
        self.states = StateCache()
        self.join_codes = JoinCodes(clock)
        self.admission = Admission(clock, now)
        self.seats = Seats(self)
        self.players = stats.PlayerBook(pool)
        self.night = evening.NightTaps(self)

    # -- reading ------------------------------------------------------------------------------

    def version(self, table_id: str) -> int | None:
        with self.pool.tables() as store:
            return store.version(table_id)

    def load(self, table_id: str) -> TableState | None:
        """The table as it is now, or None. Folded once per version, then remembered."""
        with self.pool.tables() as store:
            version = store.version(table_id)
            if version is None:
                return None
            state = self.states.get(table_id, version)
            if state is not None:
                return state
            snapshot = store.read(table_id)
        if snapshot is None:
            return None
        state = fold(snapshot)
        self.states.put(state)
        return state

    # -- the one way to write -----------------------------------------------------------------

    def commit(self, state: TableState, entry: Mapping[str, Any] | None = None, *,
               change: Callable[[Writing], None] | None = None, undo: int | None = None,
               seat: tuple[str, str | None] | None = None,
               applied: Game | None = None) -> TableState:
        """One transaction at ``state.version``: ``change``, then its one log row (``entry``,
        or an undo of seq ``undo``), then one publish. ``seat`` is (token, device) the seat must
        still have when the write lands. ``applied`` is the game after the step ``entry``, when
        the caller checked the step by applying it (so it is applied once per tap)."""
        token, device = seat if seat is not None else (None, None)
        try:
            with self.pool.tables() as store, store.write(
                    state.table.id, state.version, seat_token=token, seat_device=device,
                    known=(state.table, state.seats)) as writing:
                if change is not None:
                    change(writing)
                snapshot = writing.undo(undo) if undo is not None else writing.append(
                    entry or SEAT_CHANGED)
                new = replace(state, table=snapshot.table, seats=snapshot.seats)
                for row in snapshot.rows:
                    new = advance(new, row, applied if row.seq == state.version + 1 else None)
                stats.note(writing, state, new)  # a game that ends counts in this transaction
        except StaleVersion:
            raise Refusal(Why.ACTED_FIRST) from None
        except (SeatGone, UnknownTable):
            raise Refusal(Why.SEAT_GONE) from None
        self.states.put(new)
        self.broker.publish(new.table.id, new.version)
        return new

    @staticmethod
    def fresh(state: TableState, version: object) -> None:
        if str(version) != str(state.version):
            raise Refusal(Why.MOVED_ON)

    # -- a new table --------------------------------------------------------------------------

    def create(self, settings: Mapping[str, Any], names: Sequence[str], language: str,
               client: str) -> Table:
        """A table from the set-up form, unless this device made many just now or the laptop
        holds as many unstarted tables as it keeps (:mod:`app.web.admission`)."""
        try:
            check_table(settings.get("rules") or {}, names)
        except RuleError as error:
            raise Refusal.of(error) from None
        with self.pool.store() as store:  # admission's housekeeping reads the rows itself
            self.admission.admit(store, client)
            return store.create_table(settings, [NewSeat(n) for n in names], language)

    def import_record(self, record: Record, language: str, client: str) -> Table:
        with self.pool.store() as store:  # admission's housekeeping reads the rows itself
            self.admission.admit(store, client)
            return import_record(store, record, language)

    # -- the referee's taps -------------------------------------------------------------------

    def submit(self, state: TableState, version: object, fields: Mapping[str, str],
               cards: Sequence[str], time_up: bool = False) -> TableState:
        """A step tapped on the tablet: public steps, and private ones of a seat with no phone.
        ``time_up``: the decision timer took it; its log row says so (never the engine)."""
        self.fresh(state, version)
        game = playing(state)
        by = fields.get("by") or None
        step = form_step(game, by, fields, cards)
        try:
            tablet_may_take(game, by, step["do"])
            after = apply(game, step)
        except RuleError as error:
            raise Refusal.of(error) from None
        return self.commit(state, {**step, TIME_UP: True} if time_up else step, applied=after)

    def undo(self, state: TableState, version: object) -> TableState:
        """Undo the newest step of the current game (the log keeps it, marked undone)."""
        self.fresh(state, version)
        if state.closed and not state.lobby:
            raise Refusal(Why.TIMELINE_CLOSED if state.closed_by == "timeline" else Why.CLOSED)
        if state.lobby or not state.steps:
            raise Refusal(Why.NOTHING_TO_UNDO)
        seq, newest = state.steps[-1]
        problem = undo_problem(newest)
        if problem is not None:
            raise Refusal.of(problem)
        return self.commit(state, undo=seq)

    def set_tracked(self, state: TableState, version: object, seat_no: int,
                    tracked: bool) -> TableState:
        """A seat plays with or without a phone: decided in the lobby, from a fresh screen."""
        self.fresh(state, version)
        _seat_number(state, seat_no)
        if not state.lobby:
            raise Refusal(Why.SEATS_LOCKED)
        return self.commit(state, change=lambda w: w.update_seat(seat_no, tracked=tracked,
                                                                  hand=None))

    def reissue(self, state: TableState, version: object, seat_no: int) -> TableState:
        """A new link for a seat: the old one stops at once, and the next device to open the
        new one claims the seat. In the lobby the hand goes too: whoever opens the new link
        enters it again, so a link made at the tablet can't be used to read a hand."""
        self.fresh(state, version)
        _seat_number(state, seat_no)

        def change(w: Writing) -> None:
            w.update_seat(seat_no, token=new_token(), device=None)
            if state.lobby:
                w.update_seat(seat_no, hand=None)

        return self.commit(state, change=change)

    def start(self, state: TableState, version: object) -> TableState:
        self.fresh(state, version)
        if not state.lobby:
            raise Refusal(Why.UNDER_WAY)
        missing = [s.name for s in state.seats if s.tracked and not s.hand]
        if missing:
            raise Refusal(Why.WAITING_FOR_HANDS, names=Names(missing))
        seats = [SeatHand(s.name, s.tracked, tuple(s.hand) if s.hand else None)
                 for s in state.seats]
        try:
            setup = setup_from_seats(state.table.setup, seats)
        except RuleError as error:
            raise Refusal.of(error) from None
        return self.commit(state, {CONTROL: "start", "setup": setup})

    def rematch(self, state: TableState, version: object) -> TableState:
        """New game, same table: the seats and phones stay, the winner starts (§1.1)."""
        self.fresh(state, version)
        if state.game is None or not state.game.over or state.lobby:
            raise Refusal(Why.NO_WINNER_YET)
        settings = {**state.table.setup, "first": state.game.winner}

        def change(w: Writing) -> None:
            w.update_table(setup=settings)
            for s in state.seats:
                w.update_seat(s.seat, hand=None)

        return self.commit(state, {CONTROL: "rematch"}, change=change)

    def download(self, state: TableState, version: object, name: str
                 ) -> tuple[TableState, dict[str, Any]]:
        """The game as a record. It holds every hand the phones entered, so while a game with
        phones is under way it is nobody's; once it is over, downloading closes it for good
        (no more undo: the undone steps would be known to whoever holds the file)."""
        game = state.game
        if game is None or state.lobby and not game.over:
            raise Refusal(Why.NO_GAME_YET)
        policy = download(game, state.closed)
        if policy is Download.REFUSED:
            raise Refusal(Why.RECORD_AFTER_GAME)
        if policy is Download.CLOSES:
            self.fresh(state, version)
            state = self.commit(state, {CONTROL: "closed"})
        return state, export(game, name=name)


# -- helpers ----------------------------------------------------------------------------------


def _seat_number(state: TableState, seat_no: int) -> None:
    if not any(s.seat == seat_no for s in state.seats):
        raise Refusal(Why.NO_SUCH_SEAT)


def import_record(store: TableLog, record: Record, language: str = "en") -> Table:
    """A new table holding the record's game, its steps already played (refused steps left
    out), in one write. The seats of players whose hands are not tracked have no phone. Used
    by the start page's upload and by ``coup-referee import``."""
    outcome = replay(record)
    if outcome.game is None or outcome.refused:
        if outcome.failure is None:
            raise RecordError(N_("the record does not replay"))
        raise RecordError.of(outcome.failure)
    setup = dict(record.setup)
    players = list(setup["players"])
    hands = setup["hands"]
    rules = setup.get("rules") or {}
    settings = {"first": setup.get("first", players[0]), "rules": rules,
                "edition": edition_of_rules(rules, language)}
    seats = [NewSeat(name, None if hands.get(name) is None else tuple(hands[name]),
                     tracked=hands.get(name) is not None) for name in players]
    steps = [s for s in record.steps if "expect" not in s and not s.get("rejected")]
    log = [{CONTROL: "start", "setup": setup}, *steps]
    result = None
    if outcome.game.over:  # whoever loads it has every hand: a finished game stays finished
        log.append({CONTROL: "closed"})
        result = stats.result(outcome.game, 1, settled=True)
    return store.create_table(settings, seats, language, log=log, result=result)
