"""The one place that joins storage, the engine and live updates (ARCHITECTURE.md).

A table's log holds engine steps and a few control entries of our own:
`{"control": "start", "setup": ...}` begins a game, `{"control": "rematch"}` opens the lobby
for the next game, `{"control": "seat"}` marks a change of the seats (a hand entered, a seat
left untracked, a link re-issued) so that every screen refreshes. The current game is the
fold of the engine steps after the last start. Hidden cards never enter the log before the
game starts: hands wait in the seats table, and only the start entry's set-up holds them.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from app.engine import (
    STEPS,
    TOO_MANY_COPIES,
    Game,
    Prompt,
    RuleError,
    SeatHand,
    apply,
    check_hand,
    new_game,
    parse_rules,
    pending,
    setup_from_seats,
)
from app.live import Broker
from app.records import export
from app.store import NothingToUndo, Seat, StaleVersion, Store, Table

CONTROL = "control"
CACHE_SIZE = 512
JOIN_CODE_SECONDS = 600
JOIN_CODE_TRIES = 5


@dataclass
class JoinCode:
    code: str
    expires: float  # time.monotonic()
    tries: int = 0

    def alive(self) -> bool:
        return time.monotonic() < self.expires and self.tries < JOIN_CODE_TRIES


class Refused(Exception):
    """A request the table can't take now. `message` is for the person who sent it;
    `status` is the HTTP status (409 when the screen was out of date)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Folded:
    """A table's log folded: the current game and what the log says around it."""

    game: Game | None = None
    lobby: bool = True
    games: int = 0
    seqs: list[int] = field(default_factory=list)  # log seq of each live step of `game`
    undone: list[dict[str, Any]] = field(default_factory=list)  # steps undone in this game


@dataclass
class Live:
    """A table as it is now: the seats, the log's version and the current game."""

    table: Table
    seats: list[Seat]
    version: int
    game: Game | None = None  # the current game, or the last one while the lobby is open
    lobby: bool = True
    games: int = 0  # games started at this table
    step_seqs: list[int] = field(default_factory=list)  # log seq of each step of `game`
    undone: list[dict[str, Any]] = field(default_factory=list)  # steps undone, oldest first

    @property
    def edition(self) -> str:
        return str(self.table.setup.get("edition", "official"))

    def seat_named(self, name: str) -> Seat:
        return next(s for s in self.seats if s.name == name)


class Tables:
    """Service over one database: every read and write of tables goes through here."""

    def __init__(self, database: str, broker: Broker) -> None:
        self.database = database
        self.broker = broker
        self._cache: OrderedDict[tuple[str, int], Folded] = OrderedDict()
        self._lock = threading.Lock()
        self._join_codes: dict[str, JoinCode] = {}

    # -- letting another device referee -------------------------------------------------------

    def new_join_code(self, table_id: str) -> JoinCode:
        """A short code, shown on the tablet, that lets one more device act as the referee.
        It lasts ten minutes and dies after five wrong tries (a million codes, five guesses)."""
        code = JoinCode(f"{secrets.randbelow(10**6):06d}", time.monotonic() + JOIN_CODE_SECONDS)
        with self._lock:
            self._join_codes[table_id] = code
        return code

    def join_code(self, table_id: str) -> JoinCode | None:
        with self._lock:
            code = self._join_codes.get(table_id)
            if code is not None and not code.alive():
                del self._join_codes[table_id]
                code = None
            return code

    def redeem(self, table_id: str, attempt: str) -> bool:
        with self._lock:
            code = self._join_codes.get(table_id)
            if code is None or not code.alive():
                return False
            if hmac.compare_digest(code.code, attempt.strip()):
                del self._join_codes[table_id]
                return True
            code.tries += 1
            if code.tries >= JOIN_CODE_TRIES:
                del self._join_codes[table_id]
            return False

    def store(self) -> Store:
        return Store.open(self.database)

    # -- reading ---------------------------------------------------------------------------

    def load(self, store: Store, table_id: str) -> Live | None:
        table = store.get_table(table_id)
        if table is None:
            return None
        version = store.version(table_id)
        seats = store.seats(table_id)
        live = Live(table, seats, version)
        key = (table_id, version)
        with self._lock:
            cached = self._cache.get(key)
            if cached:
                self._cache.move_to_end(key)
        if cached is None:  # the log is read only when this version was never folded
            rows = store.log_rows(table_id)
            live.version = len(rows)
            cached = self._replay(rows)
            self._remember((table_id, live.version), cached)
        live.game, live.lobby, live.games = cached.game, cached.lobby, cached.games
        live.step_seqs, live.undone = list(cached.seqs), list(cached.undone)
        return live

    def _replay(self, rows) -> Folded:
        undone = {row.undoes for row in rows if row.kind == "undo"}
        steps = {row.seq: row.step for row in rows if row.kind == "step"}
        folded = Folded()
        game_started = 0
        for row in rows:
            if row.kind == "undo" and row.undoes and row.undoes > game_started:
                folded.undone.append(steps[row.undoes])
            if row.kind != "step" or row.seq in undone:
                continue
            entry = row.step
            control = entry.get(CONTROL)
            if control == "start":
                folded.game, folded.lobby, folded.seqs = new_game(entry["setup"]), False, []
                folded.games += 1
                folded.undone = []
                game_started = row.seq
            elif control == "rematch":
                folded.lobby = True
            elif control is None and folded.game is not None:
                folded.game = apply(folded.game, entry)
                folded.seqs.append(row.seq)
        return folded

    def _remember(self, key, value) -> None:
        with self._lock:
            self._cache[key] = value
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    # -- writing ---------------------------------------------------------------------------

    def _append(self, store: Store, live: Live, entry: dict[str, Any], expected: int) -> int:
        try:
            version = store.append_step(live.table.id, expected, entry)
        except StaleVersion:
            raise Refused(_("Someone acted first; here is the table as it is now."), 409) from None
        self.broker.publish(live.table.id, version)
        return version

    @contextmanager
    def _writing(self, store: Store, live: Live) -> Iterator[Callable[[dict[str, Any]], int]]:
        try:
            with store.writing(live.table.id, live.version) as append:
                yield append
        except StaleVersion:
            raise Refused(_("Someone acted first; here is the table as it is now."), 409) from None

    def touch(self, store: Store, live: Live) -> None:
        """Tell every screen that the seats changed (no game state moves)."""
        for _attempt in range(5):
            try:
                version = store.append_step(live.table.id, store.version(live.table.id),
                                            {CONTROL: "seat"})
            except StaleVersion:
                continue
            self.broker.publish(live.table.id, version)
            return

    def check_version(self, live: Live, version: object) -> None:
        if str(version) != str(live.version):
            raise Refused(_("The table moved on before your tap; here it is as it is now."), 409)

    def submit(self, store: Store, live: Live, version: object, step: dict[str, Any],
               seat: str | None = None) -> Game:
        """Apply one step from the referee (seat None) or from a seat's phone."""
        self.check_version(live, version)
        if live.lobby or live.game is None:
            raise Refused(_("The game has not started yet."))
        game = live.game
        if seat is not None:
            step["by"] = seat
            mine = [p for p in pending(game) if p.player == seat and p.private]
            if not any(allows(p, step["do"]) for p in mine):
                raise Refused(_("There is nothing for you to do right now."))
        else:
            by = step.get("by")
            if by is not None and not game.has(by):
                raise Refused(_("There is no such player at this table."))
            owner = [p for p in pending(game) if p.player == by and allows(p, step["do"])]
            if any(p.private for p in owner) and live.seat_named(str(by)).tracked:
                raise Refused(_("Only %(name)s's phone can do that.", name=by))
        try:
            new = apply(game, step)
        except RuleError as e:
            raise Refused(self.say_error(e, live)) from None
        version = self._append(store, live, step, live.version)
        self._remember((live.table.id, version),
                       Folded(new, False, live.games, [*live.step_seqs, version], live.undone))
        return new

    def say_error(self, error: RuleError, live: Live) -> str:
        from app.web.words import say

        return say(error.text, error.params, live.edition, error.count)

    def undo(self, store: Store, live: Live, version: object) -> None:
        """Undo the newest step of the current game (the log keeps it, marked undone)."""
        self.check_version(live, version)
        if live.lobby or not live.step_seqs:
            raise Refused(_("There is nothing to undo in this game."))
        try:
            new_version = store.append_undo(live.table.id, live.version, live.step_seqs[-1])
        except StaleVersion:
            raise Refused(_("Someone acted first; here is the table as it is now."), 409) from None
        except NothingToUndo:
            raise Refused(_("There is nothing to undo in this game.")) from None
        self.broker.publish(live.table.id, new_version)

    # -- the lobby -------------------------------------------------------------------------

    def enter_hand(self, store: Store, live: Live, seat: Seat, cards: list[str]) -> None:
        """A phone enters the two cards it was dealt. Only what this player can see for
        themselves is checked here; the copies across all hands are checked at the start."""
        if not live.lobby:
            raise Refused(_("The game has started; your hand can't change now."))
        rules = parse_rules(live.table.setup.get("rules"))
        try:
            check_hand(rules, len(live.seats), cards)
        except RuleError as e:
            raise Refused(self.say_error(e, live)) from None
        store.update_seat(seat.table_id, seat.seat, hand=cards, tracked=True)
        self.touch(store, live)

    def set_tracked(self, store: Store, live: Live, version: object, seat_no: int,
                    tracked: bool) -> None:
        """A seat plays with or without a phone: decided in the lobby, from a fresh screen."""
        self.check_version(live, version)
        if not live.lobby:
            raise Refused(_("Seats can only change between games."))
        with self._writing(store, live) as append:
            store.update_seat(live.table.id, seat_no, tracked=tracked, hand=None)
            version = append({CONTROL: "seat"})
        self.broker.publish(live.table.id, version)

    def start(self, store: Store, live: Live, version: object) -> None:
        self.check_version(live, version)
        if not live.lobby:
            raise Refused(_("The game is already under way."))
        seats = [SeatHand(s.name, s.tracked, tuple(s.hand) if s.hand else None)
                 for s in live.seats]
        try:
            setup = setup_from_seats(live.table.setup, seats)
        except RuleError as e:
            if e.code == TOO_MANY_COPIES:
                raise Refused(_("The hands entered hold more copies of a card than the deck "
                                "has: someone entered a wrong card. Ask everyone to check "
                                "their hand.")) from None
            raise Refused(self.say_error(e, live)) from None
        self._append(store, live, {CONTROL: "start", "setup": setup}, live.version)

    def rematch(self, store: Store, live: Live, version: object) -> None:
        """New game, same table: the seats and phones stay, the winner starts (§1.1)."""
        self.check_version(live, version)
        if live.game is None or not live.game.over or live.lobby:
            raise Refused(_("A new game can start once this one has a winner."))
        settings = dict(live.table.setup, first=live.game.winner)
        with self._writing(store, live) as append:  # all of it, or nothing if someone was first
            store.update_table(live.table.id, setup=settings)
            for s in live.seats:
                store.update_seat(live.table.id, s.seat, hand=None)
            version = append({CONTROL: "rematch"})
        self.broker.publish(live.table.id, version)

    def record(self, live: Live) -> dict[str, Any]:
        """The game as a record. It holds every hand the phones entered, so while a game with
        phones is under way it is nobody's to download, not even the public tablet's."""
        game = live.game
        if game is None or live.lobby and not game.over:
            raise Refused(_("No game has been played at this table yet."), 404)
        if not game.over and any(p.tracked for p in game.players):
            raise Refused(_("The record shows every hidden card, so it can be downloaded once "
                            "the game is over."), 403)
        return export(game, name=_("Game %(n)s at this table", n=live.games))


def allows(prompt: Prompt, do: str) -> bool:
    """Whether a step named `do` answers this prompt (the engine's table of step kinds)."""
    return do in STEPS and prompt.allows(do)


__all__ = ["Live", "Refused", "Tables", "allows"]
