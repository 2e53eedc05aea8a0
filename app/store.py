"""Storage: tables, seats and each table's append-only log, in one SQLite file.

Why it looks like this:

- A game is a fold over its accepted steps, so the log is the truth. Rows of ``steps`` are never
  changed or deleted (triggers refuse it). Undo is a row of its own (``kind = 'undo'``) that
  cancels the newest live step when the log is folded: nothing is lost, the history shows it.
- ``version(table)`` is the number of log rows, so every accepted step *and* every undo moves it.
  A form carries the version it was rendered from; :meth:`Store.append_step` refuses a stale one
  (:class:`StaleVersion`) instead of applying a tap twice.
- Read-then-append runs inside ``BEGIN IMMEDIATE``: the write lock is taken first, so two
  writers queue instead of failing with "database is locked" (a deferred ``BEGIN`` lost 921 of
  1,000 such races in our measurements; see TOOLING.md).
- A ``sqlite_utils.Database`` belongs to one thread: open one :class:`Store` per request or
  thread (:meth:`Store.open`), and call :func:`init_db` once at start-up.
- The connection runs in driver autocommit mode (``isolation_level=None``): Python never opens a
  transaction behind our back, so the only transactions are the explicit ones below and
  sqlite-utils' own ``atomic()`` blocks.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from sqlite_utils import Database

SCHEMA_VERSION: Final = 1
BUSY_TIMEOUT_S: Final = 10.0

JSONValue = Any
"""A value that survives ``json.dumps``/``json.loads`` (dicts, lists, str, int, bool, None)."""


class StoreError(Exception):
    """Base class of the errors this module raises on purpose."""


class StaleVersion(StoreError):
    """The log moved since the caller read it: someone acted first. Refresh, don't retry blindly."""

    def __init__(self, table_id: str, expected: int, actual: int) -> None:
        super().__init__(f"table {table_id}: expected version {expected}, it is {actual}")
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class UnknownTable(StoreError):
    """No table has this id."""


class UnknownSeat(StoreError):
    """The table has no seat with this number."""


class NothingToUndo(StoreError):
    """Every step of the log is already undone (or there is none)."""


@dataclass(frozen=True, slots=True)
class Table:
    """One game table. ``id`` appears in URLs; ``referee_token`` unlocks the referee screen."""

    id: str
    created: str
    referee_token: str
    setup: JSONValue
    language: str
    status: str


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat (player) at a table, numbered 0.. clockwise. ``token`` unlocks that phone's hand."""

    table_id: str
    seat: int
    name: str
    token: str
    device: str | None
    hand: JSONValue | None
    tracked: bool
    language: str | None


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of a table's log, as stored. ``undoes`` is the seq an undo row cancelled."""

    seq: int
    kind: Literal["step", "undo"]
    step: JSONValue | None
    undoes: int | None
    created: str


class _Unset:
    """Marks a keyword argument that was not given (``None`` is a real value for some columns)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


def new_token() -> str:
    """An unguessable URL-safe token: 24 random bytes = 192 bits."""
    return secrets.token_urlsafe(24)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(value: JSONValue) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _loads(text: str | None) -> JSONValue | None:
    return None if text is None else json.loads(text)


def connect(path: str | Path) -> Database:
    """Open a Database for this thread: autocommit driver mode, foreign keys, busy timeout."""
    # check_same_thread=False: a connection may be reused by the next request, which may run
    # on another thread (never two at once: the web layer's pool hands each to one request).
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                           check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    return Database(conn)


def init_db(path: str | Path) -> None:
    """Create the folder, the schema and WAL mode if missing. Idempotent; call once at start-up.

    WAL lets the many SSE/polling readers go on while one writer appends.
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = connect(path)
    try:
        db.enable_wal()  # persists in the file; outside any transaction
        with db.atomic():
            _create_schema(db)
    finally:
        db.close()


def _create_schema(db: Database) -> None:
    db.table("tables").create(
        {
            "id": str,
            "created": str,
            "referee_token": str,
            "setup": str,
            "language": str,
            "status": str,
        },
        pk="id",
        not_null={"created", "referee_token", "setup", "language", "status"},
        if_not_exists=True,
        strict=True,
    )
    db.table("seats").create(
        {
            "table_id": str,
            "seat": int,
            "name": str,
            "token": str,
            "device": str,
            "hand": str,
            "tracked": int,
            "language": str,
        },
        pk=("table_id", "seat"),
        foreign_keys=[("table_id", "tables", "id")],
        not_null={"table_id", "seat", "name", "token", "tracked"},
        if_not_exists=True,
        strict=True,
    )
    db.table("seats").create_index(["token"], unique=True, if_not_exists=True)
    db.table("tables").create_index(["referee_token"], unique=True, if_not_exists=True)
    db.table("steps").create(
        {
            "table_id": str,
            "seq": int,
            "kind": str,
            "step": str,
            "undoes": int,
            "created": str,
        },
        pk=("table_id", "seq"),
        foreign_keys=[("table_id", "tables", "id")],
        not_null={"table_id", "seq", "kind", "created"},
        if_not_exists=True,
        strict=True,
    )
    # The log is append-only: a bug or a stray script must not rewrite history.
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS steps_no_update BEFORE UPDATE ON steps "
        "BEGIN SELECT RAISE(ABORT, 'steps are append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS steps_no_delete BEFORE DELETE ON steps "
        "BEGIN SELECT RAISE(ABORT, 'steps are append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS steps_kind BEFORE INSERT ON steps "
        "WHEN NEW.kind NOT IN ('step', 'undo') "
        "BEGIN SELECT RAISE(ABORT, 'steps.kind must be step or undo'); END"
    )
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _table_from_row(row: Mapping[str, Any]) -> Table:
    return Table(
        id=row["id"],
        created=row["created"],
        referee_token=row["referee_token"],
        setup=_loads(row["setup"]),
        language=row["language"],
        status=row["status"],
    )


def _seat_from_row(row: Mapping[str, Any]) -> Seat:
    return Seat(
        table_id=row["table_id"],
        seat=row["seat"],
        name=row["name"],
        token=row["token"],
        device=row["device"],
        hand=_loads(row["hand"]),
        tracked=bool(row["tracked"]),
        language=row["language"],
    )


def fold_log(rows: Sequence[LogRow]) -> list[JSONValue]:
    """The live steps: each undo row cancels the step it names (`undoes`)."""
    undone = {row.undoes for row in rows if row.kind == "undo"}
    return [row.step for row in rows if row.kind == "step" and row.seq not in undone]


class Store:
    """Typed access to one database for one thread. Cheap to open; close it when done."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    def open(cls, path: str | Path) -> Store:
        """Open the database file (which :func:`init_db` prepared) for this thread."""
        return cls(connect(path))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def immediate(self) -> Iterator[Database]:
        """A write transaction that holds the write lock from its first statement.

        Use it for every read-then-write, so the read is still true when the write lands.
        sqlite-utils' own ``atomic()`` blocks inside it become savepoints.
        """
        if self.db.conn.in_transaction:  # already inside one of ours: it holds the lock
            yield self.db
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            if self.db.conn.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")

    # -- tables -------------------------------------------------------------------------------

    def create_table(
        self,
        setup: JSONValue,
        *,
        seats: Sequence[str] = (),
        language: str = "en",
        status: str = "lobby",
    ) -> Table:
        """Create a table with fresh tokens, and one tracked seat per name (clockwise from 0)."""
        table = Table(
            id=new_token(),
            created=_now(),
            referee_token=new_token(),
            setup=setup,
            language=language,
            status=status,
        )
        with self.immediate():
            self.db.table("tables").insert(
                {
                    "id": table.id,
                    "created": table.created,
                    "referee_token": table.referee_token,
                    "setup": _dumps(setup),
                    "language": language,
                    "status": status,
                }
            )
            for name in seats:
                self._insert_seat(table.id, name, tracked=True)
        return table

    def _rows(self, sql: str, args: Sequence[Any]) -> list[dict[str, Any]]:
        """Rows as dicts with plain SQL: the reads on every request stay off sqlite_master,
        which sqlite-utils' table helpers consult on each call."""
        cursor = self.db.execute(sql, list(args))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _first(self, table: str, where: str, args: Sequence[Any]) -> dict[str, Any] | None:
        rows = self._rows(f"SELECT * FROM {table} WHERE {where} LIMIT 1", args)
        return rows[0] if rows else None

    def get_table(self, table_id: str) -> Table | None:
        row = self._first("tables", "id = ?", [table_id])
        return None if row is None else _table_from_row(row)

    def get_table_by_referee_token(self, token: str) -> Table | None:
        """The table whose referee screen this token unlocks, or None."""
        row = self._first("tables", "referee_token = ?", [token])
        return None if row is None else _table_from_row(row)

    def update_table(
        self,
        table_id: str,
        *,
        setup: JSONValue | _Unset = UNSET,
        language: str | _Unset = UNSET,
        status: str | _Unset = UNSET,
    ) -> Table:
        """Change the given fields of a table; the others stay as they are."""
        changes: dict[str, Any] = {}
        if not isinstance(setup, _Unset):
            changes["setup"] = _dumps(setup)
        if not isinstance(language, _Unset):
            changes["language"] = language
        if not isinstance(status, _Unset):
            changes["status"] = status
        with self.immediate():
            if self.get_table(table_id) is None:
                raise UnknownTable(table_id)
            if changes:
                self.db.table("tables").update(table_id, changes)
        table = self.get_table(table_id)
        assert table is not None
        return table

    # -- seats --------------------------------------------------------------------------------

    def _insert_seat(self, table_id: str, name: str, *, tracked: bool) -> Seat:
        number = self.db.execute(
            "SELECT coalesce(max(seat) + 1, 0) FROM seats WHERE table_id = ?", [table_id]
        ).fetchone()[0]
        seat = Seat(
            table_id=table_id,
            seat=number,
            name=name,
            token=new_token(),
            device=None,
            hand=None,
            tracked=tracked,
            language=None,
        )
        self.db.table("seats").insert(
            {
                "table_id": table_id,
                "seat": number,
                "name": name,
                "token": seat.token,
                "device": None,
                "hand": None,
                "tracked": int(tracked),
                "language": None,
            }
        )
        return seat

    def add_seat(self, table_id: str, name: str, *, tracked: bool = True) -> Seat:
        """Add a seat after the last one (clockwise), with a fresh token."""
        with self.immediate():
            if self.get_table(table_id) is None:
                raise UnknownTable(table_id)
            return self._insert_seat(table_id, name, tracked=tracked)

    def seats(self, table_id: str) -> list[Seat]:
        """The table's seats in clockwise order."""
        rows = self._rows("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", [table_id])
        return [_seat_from_row(row) for row in rows]

    def get_seat(self, table_id: str, seat: int) -> Seat | None:
        row = self._first("seats", "table_id = ? AND seat = ?", [table_id, seat])
        return None if row is None else _seat_from_row(row)

    def get_seat_by_token(self, token: str) -> Seat | None:
        """The seat a phone's secret link points at, or None for an unknown token."""
        row = self._first("seats", "token = ?", [token])
        return None if row is None else _seat_from_row(row)

    def update_seat(
        self,
        table_id: str,
        seat: int,
        *,
        name: str | _Unset = UNSET,
        hand: JSONValue | None | _Unset = UNSET,
        device: str | None | _Unset = UNSET,
        tracked: bool | _Unset = UNSET,
        language: str | None | _Unset = UNSET,
    ) -> Seat:
        """Change the given fields of a seat (``None`` clears a nullable one)."""
        changes: dict[str, Any] = {}
        if not isinstance(name, _Unset):
            changes["name"] = name
        if not isinstance(hand, _Unset):
            changes["hand"] = None if hand is None else _dumps(hand)
        if not isinstance(device, _Unset):
            changes["device"] = device
        if not isinstance(tracked, _Unset):
            changes["tracked"] = int(tracked)
        if not isinstance(language, _Unset):
            changes["language"] = language
        with self.immediate():
            if self.get_seat(table_id, seat) is None:
                raise UnknownSeat(f"table {table_id} has no seat {seat}")
            if changes:
                self.db.table("seats").update((table_id, seat), changes)
        updated = self.get_seat(table_id, seat)
        assert updated is not None
        return updated

    def reissue_seat_token(self, table_id: str, seat: int) -> Seat:
        """Give the seat a new token (a lost or shared phone link stops working) and forget
        which device held it."""
        with self.immediate():
            if self.get_seat(table_id, seat) is None:
                raise UnknownSeat(f"table {table_id} has no seat {seat}")
            # The hand goes too: whoever opens the new link enters it again, so a link made
            # at the tablet can't be used to read a hand already entered.
            changes = {"token": new_token(), "device": None, "hand": None}
            self.db.table("seats").update((table_id, seat), changes)
        updated = self.get_seat(table_id, seat)
        assert updated is not None
        return updated

    # -- the log ------------------------------------------------------------------------------

    def version(self, table_id: str) -> int:
        """Number of log rows (steps and undos) of the table; 0 for a new or unknown table."""
        return self._count(table_id)

    def _count(self, table_id: str) -> int:
        return self.db.execute(
            "SELECT count(*) FROM steps WHERE table_id = ?", [table_id]
        ).fetchone()[0]

    def _check_version(self, table_id: str, expected: int) -> int:
        if self.get_table(table_id) is None:
            raise UnknownTable(table_id)
        actual = self._count(table_id)
        if actual != expected:
            raise StaleVersion(table_id, expected, actual)
        return actual

    def _insert_row(
        self, table_id: str, seq: int, kind: str, step: JSONValue | None, undoes: int | None
    ) -> None:
        self.db.table("steps").insert(
            {
                "table_id": table_id,
                "seq": seq,
                "kind": kind,
                "step": None if step is None else _dumps(step),
                "undoes": undoes,
                "created": _now(),
            }
        )

    @contextmanager
    def writing(self, table_id: str, expected_version: int) -> Iterator[Callable[[JSONValue], int]]:
        """One write transaction at ``expected_version``: the seat and table changes made
        inside it and the log row appended with the function it yields land together or not at
        all. Raises :class:`StaleVersion` before anything changes."""
        with self.immediate():
            version = self._check_version(table_id, expected_version)

            def append(step: JSONValue) -> int:
                self._insert_row(table_id, version + 1, "step", step, None)
                return version + 1

            yield append

    def append_step(self, table_id: str, expected_version: int, step: JSONValue) -> int:
        """Append an accepted step if the log is still at ``expected_version``.

        Returns the new version (= the row's seq). Raises :class:`StaleVersion` when someone
        appended first, and :class:`UnknownTable`. The caller validates the step (engine) first.
        """
        with self.immediate():
            seq = self._check_version(table_id, expected_version) + 1
            self._insert_row(table_id, seq, "step", step, None)
        return seq

    def append_undo(
        self, table_id: str, expected_version: int, seq: int | None = None
    ) -> int:
        """Record an undo of step ``seq`` (default: the newest live step) if the log is still
        at ``expected_version``. The service names the step, so rows of its own (seat changes)
        are never undone by accident.

        Returns the new version. Raises :class:`StaleVersion`, :class:`NothingToUndo`.
        """
        with self.immediate():
            version = self._check_version(table_id, expected_version)
            live = self._live_seqs(table_id)
            undone = live[-1] if seq is None and live else seq
            if undone is None or undone not in live:
                raise NothingToUndo(table_id)
            self._insert_row(table_id, version + 1, "undo", None, undone)
        return version + 1

    def _live_seqs(self, table_id: str) -> list[int]:
        rows = self.log_rows(table_id)
        undone = {row.undoes for row in rows if row.kind == "undo"}
        return [row.seq for row in rows if row.kind == "step" and row.seq not in undone]

    def log_rows(self, table_id: str) -> list[LogRow]:
        """The full history, undo rows included, in order."""
        rows = self._rows("SELECT * FROM steps WHERE table_id = ? ORDER BY seq", [table_id])
        return [
            LogRow(
                seq=row["seq"],
                kind=row["kind"],
                step=_loads(row["step"]),
                undoes=row["undoes"],
                created=row["created"],
            )
            for row in rows
        ]

    def live_steps(self, table_id: str) -> list[JSONValue]:
        """The steps that are in force: the log folded with its undos. Replay these."""
        return fold_log(self.log_rows(table_id))

    def snapshot(self, table_id: str) -> tuple[int, list[JSONValue]]:
        """``(version, live_steps)`` read in one statement, so the two always agree.

        Render a view from this pair and put the version in its forms.
        """
        rows = self.log_rows(table_id)
        return len(rows), fold_log(rows)
