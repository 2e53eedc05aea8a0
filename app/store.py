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
  request or thread (:meth:`Store.open`), and call :func:`init_db` at start-up. Schema changes
  are sqlite-utils :class:`~sqlite_utils.migrations.Migrations`, applied under the write lock,
  so processes starting at once wait for each other (bounded by ``BUSY_TIMEOUT_S``).
- The connection runs in driver autocommit mode (``isolation_level=None``): Python never opens a
  transaction behind our back, so the only transactions are the explicit ones below.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, Literal

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

BUSY_TIMEOUT_S: Final = 10.0

JSON = Mapping[str, Any]
"""A JSON object as stored: read it, never change it (states built from it are shared)."""


class StoreError(Exception):
    """Base class of the errors this module raises on purpose."""


class StaleVersion(StoreError):
    """The log moved since the caller read it: someone acted first. Refresh, don't retry blindly."""

    def __init__(self, table_id: str, expected: int, actual: int) -> None:
        super().__init__(f"table {table_id}: expected version {expected}, it is {actual}")
        self.expected = expected
        self.actual = actual


class UnknownTable(StoreError):
    """No table has this id."""


class SeatGone(StoreError):
    """The seat's link was re-issued (or it is held by another device) since it was read."""


@dataclass(frozen=True, slots=True)
class Table:
    """One game table. ``id`` appears in URLs; ``referee_token`` unlocks the referee screen."""

    id: str
    created: str
    referee_token: str
    setup: JSON
    language: str


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat (player) at a table, numbered 0.. clockwise. ``token`` unlocks that phone's hand."""

    seat: int
    name: str
    token: str
    device: str | None
    hand: tuple[str, ...] | None
    tracked: bool
    language: str | None


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of a table's log, as stored. ``undoes`` is the seq an undo row cancelled."""

    seq: int
    kind: Literal["step", "undo"]
    step: JSON | None
    undoes: int | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table as one transaction saw it: the row, the seats and the log."""

    table: Table
    seats: tuple[Seat, ...]
    rows: tuple[LogRow, ...]


def new_token() -> str:
    """An unguessable URL-safe token: 24 random bytes = 192 bits."""
    return secrets.token_urlsafe(24)


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of any text, non-ASCII included: compared as UTF-8 bytes
    (``hmac.compare_digest`` raises on non-ASCII ``str``)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- the schema ---------------------------------------------------------------------------

MIGRATIONS: Final = Migrations("coup-referee")


@MIGRATIONS()
def create_tables(db: Database) -> None:
    """Tables, seats and the append-only log (``if_not_exists``: databases made before the
    migrations were kept already have them)."""
    db.table("tables").create(
        {"id": str, "created": str, "referee_token": str, "setup": str, "language": str,
         "status": str},
        pk="id", not_null={"created", "referee_token", "setup", "language", "status"},
        if_not_exists=True, strict=True,
    )
    db.table("seats").create(
        {"table_id": str, "seat": int, "name": str, "token": str, "device": str, "hand": str,
         "tracked": int, "language": str},
        pk=("table_id", "seat"), foreign_keys=[("table_id", "tables", "id")],
        not_null={"table_id", "seat", "name", "token", "tracked"}, if_not_exists=True,
        strict=True,
    )
    db.table("seats").create_index(["token"], unique=True, if_not_exists=True)
    db.table("tables").create_index(["referee_token"], unique=True, if_not_exists=True)
    db.table("steps").create(
        {"table_id": str, "seq": int, "kind": str, "step": str, "undoes": int, "created": str},
        pk=("table_id", "seq"), foreign_keys=[("table_id", "tables", "id")],
        not_null={"table_id", "seq", "kind", "created"}, if_not_exists=True, strict=True,
    )
    # The log is append-only: a bug or a stray script must not rewrite history.
    db.execute("CREATE TRIGGER IF NOT EXISTS steps_no_update BEFORE UPDATE ON steps "
               "BEGIN SELECT RAISE(ABORT, 'steps are append-only'); END")
    db.execute("CREATE TRIGGER IF NOT EXISTS steps_no_delete BEFORE DELETE ON steps "
               "BEGIN SELECT RAISE(ABORT, 'steps are append-only'); END")
    db.execute("CREATE TRIGGER IF NOT EXISTS steps_kind BEFORE INSERT ON steps "
               "WHEN NEW.kind NOT IN ('step', 'undo') "
               "BEGIN SELECT RAISE(ABORT, 'steps.kind must be step or undo'); END")


@MIGRATIONS()
def logs_leave_with_their_table(db: Database) -> None:
    """An abandoned table is removed whole: its log rows may be deleted once the table row is
    gone, and never while it is there."""
    db.execute("DROP TRIGGER IF EXISTS steps_no_delete")
    db.execute("CREATE TRIGGER steps_no_delete BEFORE DELETE ON steps "
               "WHEN EXISTS (SELECT 1 FROM tables WHERE id = OLD.table_id) "
               "BEGIN SELECT RAISE(ABORT, 'steps are append-only'); END")
    db.execute("CREATE INDEX IF NOT EXISTS steps_created ON steps (created)")


def connect(path: str | Path) -> Database:
    """Open a Database: autocommit driver mode, foreign keys, a bounded wait for the lock."""
    # check_same_thread=False: a connection may be reused by the next request, which may run
    # on another thread (never two at once: the web layer's pool hands each to one request).
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                           check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    return Database(conn)


def init_db(path: str | Path) -> None:
    """Create the folder, WAL mode and the schema, or bring an older schema up to date.

    Safe when several processes start at once (``serve`` and a few ``import`` runs): each waits
    for the write lock, up to ``BUSY_TIMEOUT_S``, then finds the work done. An up-to-date
    database is only read. WAL lets the many readers go on while one writer appends.
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = connect(path)
    try:
        _enable_wal(db)
        if MIGRATIONS.pending(db):
            with _immediate(db):  # re-read under the lock: another process may have done it
                MIGRATIONS.apply(db)
    finally:
        db.close()


def _enable_wal(db: Database) -> None:
    """WAL mode persists in the file. Switching needs a moment alone with a new file, which
    SQLite does not wait for: retry, bounded like any other wait for the lock."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


@contextmanager
def _immediate(db: Database) -> Iterator[None]:
    """A write transaction holding the write lock from its first statement (waits for it up to
    ``BUSY_TIMEOUT_S``). sqlite-utils' ``atomic()`` blocks inside become savepoints."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.conn.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


# -- rows ---------------------------------------------------------------------------------


def _table_from_row(row: Mapping[str, Any]) -> Table:
    return Table(id=row["id"], created=row["created"], referee_token=row["referee_token"],
                 setup=json.loads(row["setup"]), language=row["language"])


def _seat_from_row(row: Mapping[str, Any]) -> Seat:
    hand = row["hand"]
    return Seat(seat=row["seat"], name=row["name"], token=row["token"], device=row["device"],
                hand=None if hand is None else tuple(json.loads(hand)),
                tracked=bool(row["tracked"]), language=row["language"])


def _log_row(row: Mapping[str, Any]) -> LogRow:
    step = row["step"]
    return LogRow(seq=row["seq"], kind=row["kind"],
                  step=None if step is None else json.loads(step), undoes=row["undoes"])


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat of a table being created: its name, and its hand when one is known already."""

    name: str
    hand: tuple[str, ...] | None = None
    tracked: bool = True


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
        """Number of log rows of the table, or None when there is no such table. One query:
        a screen that is up to date learns it from this alone."""
        count, exists = self.db.execute(
            "SELECT (SELECT count(*) FROM steps WHERE table_id = ?), "
            "EXISTS (SELECT 1 FROM tables WHERE id = ?)", [table_id, table_id]).fetchone()
        return int(count) if exists else None

    def read(self, table_id: str, after: int = 0) -> Snapshot | None:
        """The table, its seats and its log rows after seq ``after``, read together."""
        with self._reading():
            tables = self._rows("SELECT * FROM tables WHERE id = ?", [table_id])
            if not tables:
                return None
            seats = self._rows("SELECT * FROM seats WHERE table_id = ? ORDER BY seat",
                               [table_id])
            rows = self._rows("SELECT seq, kind, step, undoes FROM steps WHERE table_id = ? "
                              "AND seq > ? ORDER BY seq", [table_id, after])
        return Snapshot(_table_from_row(tables[0]), tuple(map(_seat_from_row, seats)),
                        tuple(map(_log_row, rows)))

    def table_of_seat(self, token: str) -> str | None:
        """The id of the table a seat link belongs to, or None for an unknown token."""
        row = self.db.execute("SELECT table_id FROM seats WHERE token = ?", [token]).fetchone()
        return None if row is None else str(row[0])

    # -- writing ------------------------------------------------------------------------------

    def create_table(self, setup: JSON, seats: Sequence[NewSeat], language: str,
                     log: Sequence[JSON] = ()) -> Table:
        """A table with fresh tokens, its seats clockwise from 0, and its first log rows."""
        table = Table(id=new_token(), created=_now(), referee_token=new_token(), setup=setup,
                      language=language)
        with _immediate(self.db):
            self.db.execute(
                "INSERT INTO tables (id, created, referee_token, setup, language, status) "
                "VALUES (?, ?, ?, ?, ?, 'open')",
                [table.id, table.created, table.referee_token, _dumps(setup), language])
            for number, seat in enumerate(seats):
                self.db.execute(
                    "INSERT INTO seats (table_id, seat, name, token, device, hand, tracked, "
                    "language) VALUES (?, ?, ?, ?, NULL, ?, ?, NULL)",
                    [table.id, number, seat.name, new_token(),
                     None if seat.hand is None else _dumps(list(seat.hand)), int(seat.tracked)])
            for seq, entry in enumerate(log, 1):
                self._insert_row(table.id, seq, "step", entry, None)
        return table

    @contextmanager
    def write(self, table_id: str, expected_version: int, *, seat_token: str | None = None,
              seat_device: str | None = None) -> Iterator[Writing]:
        """One write transaction at ``expected_version``: the changes made through the
        :class:`Writing` it yields land together, with their one log row, or not at all.

        With ``seat_token``, the seat must still hold that token and be held by
        ``seat_device`` (None: by no device yet). Raises :class:`UnknownTable`,
        :class:`StaleVersion` or :class:`SeatGone` before anything changes.
        """
        with _immediate(self.db):
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
            yield Writing(self, table_id, actual)

    def _insert_row(self, table_id: str, seq: int, kind: str, step: JSON | None,
                    undoes: int | None) -> None:
        self.db.execute(
            "INSERT INTO steps (table_id, seq, kind, step, undoes, created) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [table_id, seq, kind, None if step is None else _dumps(step), undoes, _now()])

    def remove_abandoned(self, now: datetime, lobby_age: timedelta, any_age: timedelta) -> int:
        """Remove every table whose last change is older than ``any_age``, and every table
        where no game ever started whose last change is older than ``lobby_age``. Returns how
        many tables went."""
        lobby_before = (now - lobby_age).isoformat(timespec="seconds")
        any_before = (now - any_age).isoformat(timespec="seconds")
        with _immediate(self.db):
            gone = [row[0] for row in self.db.execute(
                "SELECT t.id FROM tables t LEFT JOIN steps s ON s.table_id = t.id "
                "GROUP BY t.id HAVING coalesce(max(s.created), t.created) < ? "
                "OR (coalesce(max(s.created), t.created) < ? AND NOT EXISTS ("
                "  SELECT 1 FROM steps g WHERE g.table_id = t.id AND g.kind = 'step' "
                "  AND json_extract(g.step, '$.control') = 'start'))",
                [any_before, lobby_before]).fetchall()]
            self.db.execute("PRAGMA defer_foreign_keys = ON")  # the rows go in any order
            for table_id in gone:
                self.db.execute("DELETE FROM tables WHERE id = ?", [table_id])
                self.db.execute("DELETE FROM seats WHERE table_id = ?", [table_id])
                self.db.execute("DELETE FROM steps WHERE table_id = ?", [table_id])
        return len(gone)

    def count_lobbies(self) -> int:
        """Tables where no game has started yet."""
        row = self.db.execute(
            "SELECT count(*) FROM tables t WHERE NOT EXISTS (SELECT 1 FROM steps g "
            "WHERE g.table_id = t.id AND g.kind = 'step' "
            "AND json_extract(g.step, '$.control') = 'start')").fetchone()
        return int(row[0])


_UNSET: Final[Any] = object()


class Writing:
    """What one write transaction may change, ended by its one log row (:meth:`append` or
    :meth:`undo`), which also reads back the table and seats as they now are."""

    def __init__(self, store: Store, table_id: str, version: int) -> None:
        self._store = store
        self._db = store.db
        self.table_id = table_id
        self.version = version

    def update_table(self, *, setup: JSON) -> None:
        self._db.execute("UPDATE tables SET setup = ? WHERE id = ?",
                         [_dumps(setup), self.table_id])

    def update_seat(self, seat: int, *, hand: Sequence[str] | None = _UNSET,
                    device: str | None = _UNSET, tracked: bool = _UNSET,
                    language: str = _UNSET, token: str = _UNSET) -> None:
        """Change the given columns of one seat; ``None`` clears a hand or a device."""
        changes: dict[str, Any] = {}
        if hand is not _UNSET:
            changes["hand"] = None if hand is None else _dumps(list(hand))
        if tracked is not _UNSET:
            changes["tracked"] = int(tracked)
        for column, value in (("device", device), ("language", language), ("token", token)):
            if value is not _UNSET:
                changes[column] = value
        if changes:
            assignments = ", ".join(f"{column} = ?" for column in changes)
            self._db.execute(
                f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                [*changes.values(), self.table_id, seat])

    def append(self, entry: JSON) -> Snapshot:
        """The transaction's log row: a step or a control entry."""
        self._store._insert_row(self.table_id, self.version + 1, "step", entry, None)
        return self._after()

    def undo(self, seq: int) -> Snapshot:
        """The transaction's log row: an undo of the step at ``seq``."""
        self._store._insert_row(self.table_id, self.version + 1, "undo", None, seq)
        return self._after()

    def _after(self) -> Snapshot:
        snapshot = self._store.read(self.table_id, after=self.version)
        assert snapshot is not None  # the table is there: this transaction checked it
        return snapshot

