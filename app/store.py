"""Storage: tables, seats and each table's append-only log, in one SQLite file.

Why it looks like this:

- A game is a fold over its accepted steps, so the log is the truth. Rows of ``steps`` are never
  changed (triggers refuse it) and are deleted only with their table. Undo is a row of its own
  (``kind = 'undo'``) naming the step it cancels: nothing is lost, the history shows it.
- Every change to a table appends exactly one log row in the same transaction, so
  ``version(table)``, the number of rows, names the whole table: seats included. A form carries
  the version it was drawn from and :meth:`Store.write` refuses a stale one (:class:`StaleVersion`)
  instead of applying a tap twice.
- A write runs inside ``BEGIN IMMEDIATE``: the write lock is taken first, so its checks (the
  version, the seat's token) are still true when it commits, and two writers queue instead of
  failing with "database is locked" (a deferred ``BEGIN`` lost 921 of 1,000 such races in our
  measurements; see TOOLING.md). A read of a whole table is one read transaction.
- A ``sqlite_utils.Database`` belongs to one request at a time: open one :class:`Store` per
  request or thread (:meth:`Store.open`), and call :func:`init_db` at start-up (the schema and
  its migrations: :mod:`app.schema`).
- The connection runs in driver autocommit mode (``isolation_level=None``): Python never opens a
  transaction behind our back, so the only transactions are the explicit ones below.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from sqlite_utils import Database

from app.frozen import freeze
from app.interfaces import Naming, PlayerLog, TableLog
from app.rows import (
    JSON,
    GameResult,
    LogRow,
    NewSeat,
    Seat,
    SeatGone,
    Snapshot,
    StaleVersion,
    Table,
    UnknownTable,
    dumps,
    log_row,
    new_token,
    now,
    same_secret,
    seat_from_row,
    table_from_row,
)
from app.schema import BUSY_TIMEOUT_S, connect, immediate, init_db


class Store:
    """Typed access to one database for one request at a time. Close it when done."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    def open(cls, path: str | Path) -> Store:
        """Open the database file (which :func:`init_db` prepared)."""
        return cls(connect(path))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _rows(self, sql: str, args: Sequence[Any]) -> list[dict[str, Any]]:
        """Rows as dicts with plain SQL: the reads on every request stay off sqlite_master,
        which sqlite-utils' table helpers consult on each call."""
        cursor = self.db.execute(sql, list(args))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """One read transaction: every read inside sees the same moment of the file."""
        if self.db.conn.in_transaction:  # inside a write: it sees its own moment already
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            self.db.execute("COMMIT")

    # -- reading ------------------------------------------------------------------------------

    def version(self, table_id: str) -> int | None:
        """Number of log rows of the table, or None when there is no such table; one query.
        Rows are numbered 1, 2, 3... (:meth:`write`): the newest seq, found at once by the
        primary key's index, is their number (a count would walk the table's whole log)."""
        newest, exists = self.db.execute("SELECT (SELECT max(seq) FROM steps WHERE table_id = ?),"
                                         " EXISTS (SELECT 1 FROM tables WHERE id = ?)",
                                         [table_id, table_id]).fetchone()
        return int(newest or 0) if exists else None

    def read(self, table_id: str, after: int = 0) -> Snapshot | None:
        """The table, its seats and its log rows after seq ``after``, read together."""
        with self._reading():
            tables = self._rows("SELECT * FROM tables WHERE id = ?", [table_id])
            if not tables:
                return None
            seats = self.seats(table_id)
            rows = self.rows_after(table_id, after)
        return Snapshot(table_from_row(tables[0]), seats, rows)

    def rows_after(self, table_id: str, after: int) -> tuple[LogRow, ...]:
        """The table's log rows after seq ``after``, in order."""
        rows = self._rows("SELECT seq, kind, step, undoes, created FROM steps "
                          "WHERE table_id = ? AND seq > ? ORDER BY seq", [table_id, after])
        return tuple(map(log_row, rows))

    def seats(self, table_id: str) -> tuple[Seat, ...]:
        """The table's seats in clockwise order (none for an unknown table)."""
        rows = self._rows("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", [table_id])
        return tuple(map(seat_from_row, rows))

    def table_of_seat(self, token: str) -> str | None:
        """The id of the table a seat link belongs to, or None for an unknown token."""
        row = self.db.execute("SELECT table_id FROM seats WHERE token = ?", [token]).fetchone()
        return None if row is None else str(row[0])

    # -- writing ------------------------------------------------------------------------------

    def create_table(self, setup: JSON, seats: Sequence[NewSeat], language: str,
                     log: Sequence[JSON] = (), result: GameResult | None = None) -> Table:
        """A table with fresh tokens, its seats clockwise from 0, and its first log rows
        (with ``result``, the numbers of the game they finish, in the same transaction)."""
        table = Table(id=new_token(), created=now(), referee_token=new_token(),
                      setup=freeze(setup), language=language)
        with immediate(self.db):
            self.db.execute(
                "INSERT INTO tables (id, created, referee_token, setup, language, status) "
                "VALUES (?, ?, ?, ?, ?, 'open')",
                [table.id, table.created, table.referee_token, dumps(setup), language])
            for number, seat in enumerate(seats):
                self.db.execute(
                    "INSERT INTO seats (table_id, seat, name, token, device, hand, tracked, "
                    "language) VALUES (?, ?, ?, ?, NULL, ?, ?, NULL)",
                    [table.id, number, seat.name, new_token(),
                     None if seat.hand is None else dumps(list(seat.hand)), int(seat.tracked)])
            for seq, entry in enumerate(log, 1):
                self._insert_row(table.id, seq, "step", entry, None)
            if result is not None:
                self._keep_result(table.id, result)
        return table

    # -- the players' page: finished games' numbers, renamed and merged names ------------------

    def results(self) -> list[GameResult]:
        rows = self.db.execute("SELECT game, winner, tallies, settled FROM night_games "
                               "ORDER BY rowid").fetchall()
        return [GameResult(game, winner, freeze(json.loads(tallies)), bool(settled))
                for game, winner, tallies, settled in rows]

    def aliases(self) -> dict[str, str]:
        return {r[0]: r[1] for r in self.db.execute("SELECT name, person FROM night_names")}

    def language_of_device(self, device: str) -> str | None:
        row = self.db.execute(
            "SELECT coalesce(seats.language, tables.language) FROM seats "
            "JOIN tables ON tables.id = seats.table_id WHERE seats.device = ? "
            "ORDER BY tables.created DESC LIMIT 1", [device]).fetchone()
        return None if row is None else str(row[0])

    def name_people(self, decide: Naming) -> None:
        with immediate(self.db):  # the checks read what is there under the write lock
            keys, person = decide(self.results(), self.aliases())
            for key in keys:
                self.db.execute("INSERT OR REPLACE INTO night_names (name, person) "
                                "VALUES (?, ?)", [key, person])

    def _keep_result(self, table_id: str, result: GameResult) -> None:
        """A game's numbers, kept once per game: a later note (it was settled) updates them
        but keeps the moment it finished."""
        self.db.execute(
            "INSERT INTO night_games (table_id, game, finished, winner, tallies, settled) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, game) DO UPDATE SET "
            "winner = excluded.winner, tallies = excluded.tallies, settled = excluded.settled",
            [table_id, result.game, now(), result.winner, dumps(result.tallies),
             int(result.settled)])

    @contextmanager
    def write(self, table_id: str, expected_version: int, *, seat_token: str | None = None,
              seat_device: str | None = None, known: Known | None = None) -> Iterator[Writing]:
        """One write transaction at ``expected_version``: the changes made through the
        :class:`Writing` it yields land together, with their one log row, or not at all.

        With ``seat_token``, the seat must still hold that token and be held by
        ``seat_device`` (None: by no device yet). Raises :class:`UnknownTable`,
        :class:`StaleVersion` or :class:`SeatGone` before anything changes.

        ``known``: the table and its seats as the caller holds them at ``expected_version``.
        Only a transaction that ends in a log row changes them, so when this one changes
        neither, they are the snapshot's, and only its log row is read back.
        """
        with immediate(self.db):
            actual = self.version(table_id)
            if actual is None:
                raise UnknownTable(table_id)
            if actual != expected_version:
                raise StaleVersion(table_id, expected_version, actual)
            if seat_token is not None:
                held = self.db.execute(
                    "SELECT 1 FROM seats WHERE table_id = ? AND token = ? AND device IS ?",
                    [table_id, seat_token, seat_device]).fetchone()
                if held is None:
                    raise SeatGone(seat_token)
            yield Writing(self, table_id, actual, known)

    def _insert_row(self, table_id: str, seq: int, kind: str, step: JSON | None,
                    undoes: int | None) -> None:
        self.db.execute(
            "INSERT INTO steps (table_id, seq, kind, step, undoes, created) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [table_id, seq, kind, None if step is None else dumps(step), undoes, now()])


_UNSET: Final[Any] = object()

Known = tuple[Table, tuple[Seat, ...]]
"""A table and its seats as a caller holds them at a version (:meth:`Store.write`)."""


class Writing:
    """What one write transaction may change, ended by its one log row (:meth:`append` or
    :meth:`undo`), which also reads back the table and seats as they now are."""

    def __init__(self, store: Store, table_id: str, version: int, known: Known | None = None):
        self._store = store
        self._db = store.db
        self.table_id = table_id
        self.version = version
        self._known = known  # the table and seats at ``version``, until a change here

    def update_table(self, *, setup: JSON) -> None:
        self._known = None
        self._db.execute("UPDATE tables SET setup = ? WHERE id = ?",
                         [dumps(setup), self.table_id])

    def update_seat(self, seat: int, *, hand: Sequence[str] | None = _UNSET,
                    device: str | None = _UNSET, tracked: bool = _UNSET,
                    language: str = _UNSET, token: str = _UNSET) -> None:
        """Change the given columns of one seat; ``None`` clears a hand or a device."""
        changes: dict[str, Any] = {}
        if hand is not _UNSET:
            changes["hand"] = None if hand is None else dumps(list(hand))
        if tracked is not _UNSET:
            changes["tracked"] = int(tracked)
        for column, value in (("device", device), ("language", language), ("token", token)):
            if value is not _UNSET:
                changes[column] = value
        if changes:
            self._known = None
            assignments = ", ".join(f"{column} = ?" for column in changes)
            self._db.execute(
                f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                [*changes.values(), self.table_id, seat])

    def keep_result(self, result: GameResult) -> None:
        """The numbers of the game this transaction's row finishes (or settles)."""
        self._store._keep_result(self.table_id, result)

    def drop_result(self, game: int) -> None:
        """This transaction's row (an undo) reopens a finished game: it counts no more."""
        self._db.execute("DELETE FROM night_games WHERE table_id = ? AND game = ? "
                         "AND settled = 0", [self.table_id, game])

    def append(self, entry: JSON) -> Snapshot:
        """The transaction's log row: a step or a control entry."""
        self._store._insert_row(self.table_id, self.version + 1, "step", entry, None)
        return self._after()

    def undo(self, seq: int) -> Snapshot:
        """The transaction's log row: an undo of the step at ``seq``."""
        self._store._insert_row(self.table_id, self.version + 1, "undo", None, seq)
        return self._after()

    def _after(self) -> Snapshot:
        if self._known is not None:  # neither changed: only the new row is read back
            table, seats = self._known
            return Snapshot(table, seats, self._store.rows_after(self.table_id, self.version))
        snapshot = self._store.read(self.table_id, after=self.version)
        assert snapshot is not None  # the table is there: this transaction checked it
        return snapshot


__all__ = ["BUSY_TIMEOUT_S", "GameResult", "JSON", "LogRow", "NewSeat", "PlayerLog", "Seat",
           "SeatGone", "Snapshot", "StaleVersion", "Store", "Table", "TableLog", "UnknownTable",
           "Writing", "connect", "init_db", "new_token", "same_secret"]
