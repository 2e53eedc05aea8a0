"""A phone's taps, for the seat whose link it opened: claim the seat, enter a hand, choose a
language, take a private step. Each is one :meth:`Tables.commit` that also checks, inside the
write, that the seat still has this link and this device (a re-issued link's slow request
writes nothing). Taps without a version (a hand, a language) look again and retry when someone
else wrote first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from app.engine import (
    Game,
    RuleError,
    answers_of,
    apply,
    check_hand,
    only_passes_since,
    parse_rules,
    phone_may_take,
    step_from_fields,
)
from app.quicklock import quick_lock
from app.store import Seat, Writing, same_secret
from app.web.refusals import Refusal, Why
from app.web.state import TableState

if TYPE_CHECKING:  # the service holds its Seats; only the type is needed here
    from app.web.service import Tables

RETRIES: Final = 5
SEAT_LINKS: Final = 8192  # seat links whose table is remembered (300 tables of 6, and more)


class Seats:
    """The phones' side of the service."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        # A seat link's table, remembered: a token never moves to another table (a re-issued
        # or deleted one is no longer a seat of its table's state, which is always read).
        self._tables_of_seats: OrderedDict[str, str] = OrderedDict()
        self._lock = quick_lock()

    def _remember(self, token: str, table_id: str) -> None:
        with self._lock:
            self._tables_of_seats[token] = table_id
            while len(self._tables_of_seats) > SEAT_LINKS:
                self._tables_of_seats.popitem(last=False)

    def seat_state(self, token: str, device: str) -> tuple[TableState, Seat]:
        """The table of a seat link, for the device that holds the seat. Refuses an unknown
        (or re-issued) link and another device; a seat no device has opened is refused too:
        :meth:`open_seat` claims it first. A seat set to "No phone" takes no tap from its old
        phone: the tablet plays it."""
        state, seat = _held_by(device, *self._seat(token))
        if not seat.tracked:
            raise Refusal(Why.ON_TABLET)
        return state, seat

    def language_of(self, token: str) -> str | None:
        """The language a seat's pages speak (its phone's choice, else the table's), for a
        refused request that has no seat to read it from; None for an unknown link."""
        try:
            state, seat = self._seat(token)
        except Refusal:
            return None
        return seat.language or state.table.language

    def still_holds(self, table_id: str, version: int, token: str, device: str) -> bool:
        """Whether ``device`` holds the seat of ``token`` at ``version`` (asked by its event
        stream at each change: a re-issued link ends the old phone's stream at once). The
        state just published is in the cache: no read of the store."""
        state = self.tables.states.get(table_id, version) or self.tables.load(table_id)
        seat = None if state is None else state.seat_with_token(token)
        return seat is not None and seat.device is not None and same_secret(device, seat.device)

    def _seat(self, token: str) -> tuple[TableState, Seat]:
        table_id = self._tables_of_seats.get(token)
        if table_id is None:
            with self.tables.pool.tables() as store:
                table_id = store.table_of_seat(token)
            if table_id is not None:
                self._remember(token, table_id)
        state = None if table_id is None else self.tables.load(table_id)
        seat = None if state is None else state.seat_with_token(token)
        if state is None or seat is None:
            raise Refusal(Why.SEAT_GONE)
        return state, seat

    @staticmethod
    def _retrying(attempt: Callable[[], tuple[TableState, Seat]]) -> tuple[TableState, Seat]:
        """A phone's tap that carries no version: if someone else wrote first, look again
        (the seat's link may be gone by then) and try again."""
        for _attempt in range(RETRIES):
            try:
                return attempt()
            except Refusal as refusal:
                if refusal.why is not Why.ACTED_FIRST:
                    raise
        raise Refusal(Why.ACTED_FIRST)

    def _as_seat(self, token: str, device: str,
                 command: Callable[[TableState, Seat], TableState],
                 seen: tuple[TableState, Seat] | None = None) -> tuple[TableState, Seat]:
        """``command`` on the seat as ``seen`` (the caller's own look at it, already checked by
        :meth:`seat_state`), or as it is now on a retry."""
        looks = iter([seen] if seen is not None else [])

        def attempt() -> tuple[TableState, Seat]:
            state, seat = next(looks, None) or self.seat_state(token, device)
            new = command(state, seat)
            return new, _same_seat(new, seat)

        return self._retrying(attempt)

    def open_seat(self, token: str, device: str) -> tuple[TableState, Seat]:
        """A device opens a seat link: the first one claims the seat (one write); any other
        device is refused. Nothing of the seat is shown before it is claimed."""

        def attempt() -> tuple[TableState, Seat]:
            state, seat = self._seat(token)
            if seat.device is not None:  # claimed already: this one look is enough
                return _held_by(device, state, seat)
            if not seat.tracked:  # "No phone": nothing to claim
                raise Refusal(Why.ON_TABLET)
            new = self.tables.commit(state, change=_claim(seat.seat, device),
                                     seat=(token, None))
            return new, _same_seat(new, seat)

        return self._retrying(attempt)

    def enter_hand(self, token: str, device: str, cards: Sequence[str],
                   seen: tuple[TableState, Seat] | None = None) -> tuple[TableState, Seat]:
        """A phone enters the two cards it was dealt. Only what this player can see for
        themselves is checked here; the copies across all hands are checked at the start."""

        def command(state: TableState, seat: Seat) -> TableState:
            if not state.lobby:
                raise Refusal(Why.HAND_LOCKED)
            try:
                rules = parse_rules(dict(state.rules))
                check_hand(rules, len(state.seats), cards)
            except RuleError as error:
                raise Refusal.of(error) from None
            return self.tables.commit(state, change=lambda w: w.update_seat(
                seat.seat, hand=list(cards), tracked=True), seat=(token, device))

        return self._as_seat(token, device, command, seen)

    def choose_language(self, token: str, device: str, language: str, known: Sequence[str],
                        seen: tuple[TableState, Seat] | None = None) -> tuple[TableState, Seat]:
        """Each phone may read the game in its own language, remembered for the seat."""
        if language not in known:
            raise Refusal(Why.NO_SUCH_LANGUAGE)
        return self._as_seat(token, device, lambda state, seat: self.tables.commit(
            state, change=lambda w: w.update_seat(seat.seat, language=language),
            seat=(token, device)), seen)

    def play(self, token: str, device: str, version: object, fields: Mapping[str, str],
             cards: Sequence[str], seen: tuple[TableState, Seat] | None = None
             ) -> tuple[TableState, Seat]:
        """A step from a seat's phone: only that seat's own steps, when they are asked (its
        public ones too where the table lets phones answer: engine policies). ``seen`` is the
        caller's look at the seat (:meth:`seat_state`), if it made one."""
        state, seat = seen or self.seat_state(token, device)
        if not self._still_answers(state, seat.name, version, fields):
            self.tables.fresh(state, version)
        game = playing(state)
        step = form_step(game, seat.name, fields, cards)
        try:
            phone_may_take(game, seat.name, step["do"], answers_of(state.table.setup))
            after = apply(game, step)
        except RuleError as error:
            raise Refusal.of(error) from None
        new = self.tables.commit(state, step, seat=(token, device), applied=after)
        return new, _same_seat(new, seat)

    def _still_answers(self, state: TableState, name: str, version: object,
                       fields: Mapping[str, str]) -> bool:
        """A phone's "let it stand" drawn at an older version still answers when only other
        players let it stand since, in the same window (the engine's only_passes_since): two
        players passing at once both count, the second is not refused as out of date."""
        drawn = str(version)
        if fields.get("do") != "pass" or not drawn.isdigit() or len(drawn) > 9 or \
                int(drawn) >= state.version or state.game is None:
            return False
        earlier = self.tables.states.get(state.table.id, int(drawn))
        return earlier is not None and earlier.game is not None and not earlier.lobby and \
            only_passes_since(earlier.game, state.game, name)


def _claim(seat_no: int, device: str) -> Callable[[Writing], None]:
    return lambda w: w.update_seat(seat_no, device=device)


def _same_seat(state: TableState, seat: Seat) -> Seat:
    return next(s for s in state.seats if s.seat == seat.seat)


def playing(state: TableState) -> Game:
    """The game under way, or a refusal when the lobby is open."""
    if state.lobby or state.game is None:
        raise Refusal(Why.NOT_STARTED)
    return state.game


def form_step(game: Game, by: str | None, fields: Mapping[str, str],
              cards: Sequence[str]) -> dict[str, Any]:
    """A form's fields as a step (an unknown step is refused with 400)."""
    try:
        return step_from_fields(game, by, fields, cards)
    except RuleError as error:
        raise Refusal(Why.UNKNOWN_STEP, error) from None


def _held_by(device: str, state: TableState, seat: Seat) -> tuple[TableState, Seat]:
    """The seat, if ``device`` holds it; a seat no device has opened, or another device's, is
    refused."""
    if seat.device is None:
        raise Refusal(Why.NOT_OPENED)
    if not same_secret(device, seat.device):
        raise Refusal(Why.NOT_YOUR_SEAT)
    return state, seat
