"""The one place that joins storage, the engine and live updates (ARCHITECTURE.md).

Reading: :meth:`Tables.load` is one query when the state of that version was folded before,
else one read of the table and the fold (:mod:`app.web.state`). Writing: every command checks
what it needs against the state it was given, then commits one transaction that re-checks the
version (and a seat's token) under the write lock and ends in one log row, then publishes the
new version once. A command returns the new state, so the answer is drawn without loading again.
Refusals are typed (:mod:`app.web.refusals`); the web layer words them.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from app import tablerules
from app.engine import Game, RuleError, apply, new_game, parse_rules
from app.engine.rulings import N_
from app.live import Broker
from app.records import Record, RecordError, export, replay
from app.store import (
    NewSeat,
    Seat,
    SeatGone,
    StaleVersion,
    Store,
    Table,
    UnknownTable,
    Writing,
    new_token,
    same_secret,
)
from app.tablerules import Download
from app.web.pool import StorePool
from app.web.refusals import Refusal, Why
from app.web.state import CONTROL, StateCache, TableState, advance, fold

SEAT_CHANGED: Final = {CONTROL: "seat"}
RETRIES: Final = 5  # for a phone's taps that carry no version: reload and try again
JOIN_CODE_SECONDS: Final = 600
JOIN_CODE_TRIES: Final = 5
NEW_TABLES_PER_DEVICE: Final = 20  # in NEW_TABLES_WINDOW_S, per client address
NEW_TABLES_WINDOW_S: Final = 600
MAX_LOBBIES: Final = 100  # tables where no game has started, kept at once
LOBBY_AGE: Final = timedelta(days=1)  # a table where no game started, untouched this long, goes
TABLE_AGE: Final = timedelta(days=30)  # any table untouched this long goes


@dataclass
class JoinCode:
    code: str
    expires: float  # on the service's clock
    tries: int = 0


class Tables:
    """The service over one database: every write of a table goes through here."""

    def __init__(self, pool: StorePool, broker: Broker,
                 clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.pool = pool
        self.broker = broker
        self.clock = clock
        self.now = now
        self.states = StateCache()
        self._lock = threading.Lock()
        self._join_codes: dict[str, JoinCode] = {}
        self._created: dict[str, deque[float]] = {}

    # -- reading ------------------------------------------------------------------------------

    def version(self, table_id: str) -> int | None:
        with self.pool.store() as store:
            return store.version(table_id)

    def load(self, table_id: str) -> TableState | None:
        """The table as it is now, or None. Folded once per version, then remembered."""
        with self.pool.store() as store:
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

    def seat_state(self, token: str, device: str) -> tuple[TableState, Seat]:
        """The table of a seat link, for the device that holds the seat. Refuses an unknown
        (or re-issued) link and another device; a seat no device has opened is refused too:
        :meth:`open_seat` claims it first."""
        state, seat = self._seat(token)
        if seat.device is None:
            raise Refusal(Why.NOT_OPENED)
        if not same_secret(device, seat.device):
            raise Refusal(Why.NOT_YOUR_SEAT)
        return state, seat

    def _seat(self, token: str) -> tuple[TableState, Seat]:
        with self.pool.store() as store:
            table_id = store.table_of_seat(token)
        state = None if table_id is None else self.load(table_id)
        seat = None if state is None else state.seat_with_token(token)
        if state is None or seat is None:
            raise Refusal(Why.SEAT_GONE)
        return state, seat

    # -- the one way to write -----------------------------------------------------------------

    def _commit(self, state: TableState, entry: Mapping[str, Any] | None = None, *,
                change: Callable[[Writing], None] | None = None, undo: int | None = None,
                seat: tuple[str, str | None] | None = None) -> TableState:
        """One transaction at ``state.version``: ``change``, then its one log row (``entry``,
        or an undo of seq ``undo``), then one publish. ``seat`` is (token, device) the seat must
        still have when the write lands."""
        token, device = seat if seat is not None else (None, None)
        try:
            with self.pool.store() as store, store.write(
                    state.table.id, state.version, seat_token=token,
                    seat_device=device) as writing:
                if change is not None:
                    change(writing)
                snapshot = writing.undo(undo) if undo is not None else writing.append(
                    entry or SEAT_CHANGED)
        except StaleVersion:
            raise Refusal(Why.ACTED_FIRST) from None
        except (SeatGone, UnknownTable):
            raise Refusal(Why.SEAT_GONE) from None
        new = replace(state, table=snapshot.table, seats=snapshot.seats)
        for row in snapshot.rows:
            new = advance(new, row)
        self.states.put(new)
        self.broker.publish(new.table.id, new.version)
        return new

    def _as_seat(self, token: str, device: str,
                 command: Callable[[TableState, Seat], TableState]
                 ) -> tuple[TableState, Seat]:
        """A phone's tap that carries no version: if someone else wrote first, look again
        (the seat's link may be gone by then) and try again."""
        for _attempt in range(RETRIES):
            state, seat = self.seat_state(token, device)
            try:
                new = command(state, seat)
            except Refusal as refusal:
                if refusal.why is not Why.ACTED_FIRST:
                    raise
                continue
            return new, _same_seat(new, seat)
        raise Refusal(Why.ACTED_FIRST)

    @staticmethod
    def _fresh(state: TableState, version: object) -> None:
        if str(version) != str(state.version):
            raise Refusal(Why.MOVED_ON)

    # -- a new table --------------------------------------------------------------------------

    def create(self, settings: Mapping[str, Any], names: Sequence[str], language: str,
               client: str) -> Table:
        """A table from the set-up form, unless this device made many just now or the laptop
        holds as many unstarted tables as it keeps (abandoned ones are removed first)."""
        try:
            tablerules.check_names(names)
            tablerules.check_rules(settings.get("rules") or {}, len(names))
        except RuleError as error:
            raise Refusal.of(error) from None
        self._admit(client)
        with self.pool.store() as store:
            return store.create_table(settings, [NewSeat(n) for n in names], language)

    def _admit(self, client: str) -> None:
        now = self.clock()
        with self._lock:
            recent = self._created.setdefault(client, deque())
            while recent and recent[0] < now - NEW_TABLES_WINDOW_S:
                recent.popleft()
            if len(recent) >= NEW_TABLES_PER_DEVICE:
                raise Refusal(Why.TOO_MANY_TABLES)
            recent.append(now)
        with self.pool.store() as store:
            store.remove_abandoned(self.now(), LOBBY_AGE, TABLE_AGE)
            if store.count_lobbies() >= MAX_LOBBIES:
                raise Refusal(Why.TOO_MANY_LOBBIES)

    def import_record(self, record: Record, language: str, client: str) -> Table:
        self._admit(client)
        with self.pool.store() as store:
            return import_record(store, record, language)

    # -- the referee's taps -------------------------------------------------------------------

    def submit(self, state: TableState, version: object, fields: Mapping[str, str],
               cards: Sequence[str]) -> TableState:
        """A step tapped on the tablet: public steps, and private ones of a seat with no phone."""
        self._fresh(state, version)
        game = _playing(state)
        by = fields.get("by") or None
        step = _step(game, by, fields, cards)
        try:
            tablerules.check_tablet_step(game, by, step["do"])
            apply(game, step)
        except RuleError as error:
            raise Refusal.of(error) from None
        return self._commit(state, step)

    def undo(self, state: TableState, version: object) -> TableState:
        """Undo the newest step of the current game (the log keeps it, marked undone)."""
        self._fresh(state, version)
        if state.closed and not state.lobby:
            raise Refusal(Why.CLOSED)
        if state.lobby or not state.steps:
            raise Refusal(Why.NOTHING_TO_UNDO)
        return self._commit(state, undo=state.steps[-1][0])

    def set_tracked(self, state: TableState, version: object, seat_no: int,
                    tracked: bool) -> TableState:
        """A seat plays with or without a phone: decided in the lobby, from a fresh screen."""
        self._fresh(state, version)
        _seat_number(state, seat_no)
        if not state.lobby:
            raise Refusal(Why.SEATS_LOCKED)
        return self._commit(state, change=lambda w: w.update_seat(seat_no, tracked=tracked,
                                                                  hand=None))

    def reissue(self, state: TableState, version: object, seat_no: int) -> TableState:
        """A new link for a seat: the old one stops at once, and the next device to open the
        new one claims the seat. In the lobby the hand goes too: whoever opens the new link
        enters it again, so a link made at the tablet can't be used to read a hand."""
        self._fresh(state, version)
        _seat_number(state, seat_no)

        def change(w: Writing) -> None:
            w.update_seat(seat_no, token=new_token(), device=None)
            if state.lobby:
                w.update_seat(seat_no, hand=None)

        return self._commit(state, change=change)

    def start(self, state: TableState, version: object) -> TableState:
        self._fresh(state, version)
        if not state.lobby:
            raise Refusal(Why.UNDER_WAY)
        missing = [s.name for s in state.seats if s.tracked and not s.hand]
        if missing:
            raise Refusal(Why.WAITING_FOR_HANDS, names=", ".join(missing))
        seats = [(s.name, s.hand if s.tracked else None) for s in state.seats]
        try:
            setup = tablerules.game_setup(state.table.setup, seats)
            new_game(setup)
        except RuleError as error:
            raise Refusal.of(error) from None
        return self._commit(state, {CONTROL: "start", "setup": setup})

    def rematch(self, state: TableState, version: object) -> TableState:
        """New game, same table: the seats and phones stay, the winner starts (§1.1)."""
        self._fresh(state, version)
        if state.game is None or not state.game.over or state.lobby:
            raise Refusal(Why.NO_WINNER_YET)
        settings = {**state.table.setup, "first": state.game.winner}

        def change(w: Writing) -> None:
            w.update_table(setup=settings)
            for s in state.seats:
                w.update_seat(s.seat, hand=None)

        return self._commit(state, {CONTROL: "rematch"}, change=change)

    def download(self, state: TableState, version: object, name: str
                 ) -> tuple[TableState, dict[str, Any]]:
        """The game as a record. It holds every hand the phones entered, so while a game with
        phones is under way it is nobody's; once it is over, downloading closes it for good
        (no more undo: the undone steps would be known to whoever holds the file)."""
        game = state.game
        if game is None or state.lobby and not game.over:
            raise Refusal(Why.NO_GAME_YET)
        policy = tablerules.download(game, state.closed)
        if policy is Download.REFUSED:
            raise Refusal(Why.RECORD_AFTER_GAME)
        if policy is Download.CLOSES:
            self._fresh(state, version)
            state = self._commit(state, {CONTROL: "closed"})
        return state, export(game, name=name)

    # -- letting another device referee -------------------------------------------------------

    def new_join_code(self, state: TableState) -> JoinCode:
        """A short code, shown on the tablet, that lets one more device act as the referee.
        It lasts ten minutes and dies after five wrong tries (a million codes, five guesses)."""
        code = JoinCode(f"{secrets.randbelow(10**6):06d}", self.clock() + JOIN_CODE_SECONDS)
        with self._lock:
            self._join_codes[state.table.id] = code
        return code

    def join_code(self, table_id: str) -> JoinCode | None:
        with self._lock:
            code = self._join_codes.get(table_id)
            if code is not None and not self._alive(code):
                del self._join_codes[table_id]
                code = None
            return code

    def _alive(self, code: JoinCode) -> bool:
        return self.clock() < code.expires and code.tries < JOIN_CODE_TRIES

    def redeem(self, table_id: str, attempt: str) -> bool:
        with self._lock:
            code = self._join_codes.get(table_id)
            if code is None or not self._alive(code):
                return False
            if same_secret(attempt.strip(), code.code):
                del self._join_codes[table_id]
                return True
            code.tries += 1
            if code.tries >= JOIN_CODE_TRIES:
                del self._join_codes[table_id]
            return False

    # -- a phone's taps -----------------------------------------------------------------------

    def open_seat(self, token: str, device: str) -> tuple[TableState, Seat]:
        """A device opens a seat link: the first one claims the seat (one write); any other
        device is refused. Nothing of the seat is shown before it is claimed."""
        for _attempt in range(RETRIES):
            state, seat = self._seat(token)
            if seat.device is not None:
                return self.seat_state(token, device)
            try:
                new = self._commit(state, change=_claim(seat.seat, device), seat=(token, None))
            except Refusal as refusal:
                if refusal.why is not Why.ACTED_FIRST:
                    raise
                continue
            return new, _same_seat(new, seat)
        raise Refusal(Why.ACTED_FIRST)

    def enter_hand(self, token: str, device: str, cards: Sequence[str]
                   ) -> tuple[TableState, Seat]:
        """A phone enters the two cards it was dealt. Only what this player can see for
        themselves is checked here; the copies across all hands are checked at the start."""

        def command(state: TableState, seat: Seat) -> TableState:
            if not state.lobby:
                raise Refusal(Why.HAND_LOCKED)
            try:
                rules = parse_rules(dict(state.rules))
                tablerules.check_hand(rules, len(state.seats), cards)
            except RuleError as error:
                raise Refusal.of(error) from None
            return self._commit(state, change=lambda w: w.update_seat(
                seat.seat, hand=list(cards), tracked=True), seat=(token, device))

        return self._as_seat(token, device, command)

    def choose_language(self, token: str, device: str, language: str, known: Sequence[str]
                        ) -> tuple[TableState, Seat]:
        """Each phone may read the game in its own language, remembered for the seat."""
        if language not in known:
            raise Refusal(Why.NO_SUCH_LANGUAGE)
        return self._as_seat(token, device, lambda state, seat: self._commit(
            state, change=lambda w: w.update_seat(seat.seat, language=language),
            seat=(token, device)))

    def play(self, token: str, device: str, version: object, fields: Mapping[str, str],
             cards: Sequence[str]) -> tuple[TableState, Seat]:
        """A step from a seat's phone: only that seat's private steps, when they are asked."""
        state, seat = self.seat_state(token, device)
        self._fresh(state, version)
        game = _playing(state)
        step = _step(game, seat.name, fields, cards)
        try:
            tablerules.check_phone_step(game, seat.name, step["do"])
            apply(game, step)
        except RuleError as error:
            raise Refusal.of(error) from None
        new = self._commit(state, step, seat=(token, device))
        return new, _same_seat(new, seat)


# -- helpers ----------------------------------------------------------------------------------


def _playing(state: TableState) -> Game:
    if state.lobby or state.game is None:
        raise Refusal(Why.NOT_STARTED)
    return state.game


def _step(game: Game, by: str | None, fields: Mapping[str, str],
          cards: Sequence[str]) -> dict[str, Any]:
    try:
        return tablerules.step_from_fields(game, by, fields, cards)
    except RuleError as error:
        raise Refusal(Why.UNKNOWN_STEP, error) from None


def _seat_number(state: TableState, seat_no: int) -> None:
    if not any(s.seat == seat_no for s in state.seats):
        raise Refusal(Why.NO_SUCH_SEAT)


def _claim(seat_no: int, device: str) -> Callable[[Writing], None]:
    return lambda w: w.update_seat(seat_no, device=device)


def _same_seat(state: TableState, seat: Seat) -> Seat:
    return next(s for s in state.seats if s.seat == seat.seat)


def import_record(store: Store, record: Record, language: str = "en") -> Table:
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
    settings = {"first": setup.get("first", players[0]), "rules": setup.get("rules") or {},
                "edition": "official"}
    seats = [NewSeat(name, None if hands.get(name) is None else tuple(hands[name]),
                     tracked=hands.get(name) is not None) for name in players]
    steps = [s for s in record.steps if "expect" not in s and not s.get("rejected")]
    return store.create_table(settings, seats, language,
                              log=[{CONTROL: "start", "setup": setup}, *steps])
