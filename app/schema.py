"""The database file: its schema, brought up to date by sqlite-utils Migrations; opening it;
and keeping it tidy (abandoned tables go). Reading and writing a table is :mod:`app.store`.

Migrations are applied under the write lock (``BEGIN IMMEDIATE``) with a bounded wait for it, so
several processes starting at once (``serve`` and a few ``import`` runs) wait for each other
and find the work done instead of failing with "database is locked". An up-to-date database is
only read at start-up. The stored ``user_version`` of the first release is left as it was: the
migrations table says what was applied.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Final

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

BUSY_TIMEOUT_S: Final = 10.0
"""How long a writer waits for another's lock before it gives up ("database is locked")."""

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



@MIGRATIONS()
def night_games_and_names(db: Database) -> None:
    """Game night (issue 14): each finished game's numbers per player, kept when its table
    goes, and the names players were merged or renamed into (the players' page)."""
    db.table("night_games").create(
        {"table_id": str, "game": int, "finished": str, "winner": str, "tallies": str},
        pk=("table_id", "game"), not_null={"table_id", "game", "finished", "tallies"},
        if_not_exists=True, strict=True,
    )
    db.table("night_names").create({"name": str, "person": str}, pk="name",
                                   not_null={"name", "person"}, if_not_exists=True, strict=True)


@MIGRATIONS()
def night_games_count_when_over(db: Database) -> None:
    """A game's numbers are kept as soon as it is over, and marked settled once no undo can
    reopen it (until then its uncaught bluffs are left out). Rows kept before were settled."""
    db.execute("ALTER TABLE night_games ADD COLUMN settled INTEGER NOT NULL DEFAULT 1")


def unknown_migrations(db: Database) -> list[str]:
    """Schema changes applied to ``db`` that this release doesn't know, oldest first (a newer
    release wrote it). Checked before ``serve`` or ``import`` opens it (app/database_file.py)."""
    ours = {migration.name for migration in MIGRATIONS.pending(Database(memory=True))}
    return [done.name for done in MIGRATIONS.applied(db) if done.name not in ours]


def connect(path: str | Path) -> Database:
    """Open a Database: autocommit driver mode, foreign keys, a bounded wait for the lock, and
    ``synchronous = NORMAL``, the usual pairing with WAL: a commit is written to the WAL but
    not synced to the disk, so it waits for no fsync (which would stop the server's one thread
    for every tap). A crash of the app loses nothing; a power cut or a crash of the whole
    system can lose the last steps since the WAL was last synced (at a checkpoint), never
    break the file: the referee then sees the table a few taps back and taps them again
    (docs/PERFORMANCE-HISTORY.md)."""
    # check_same_thread=False: a connection may be reused by the next request, which may run
    # on another thread (never two at once: the web layer's pool hands each to one request).
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                           check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
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
            with immediate(db):  # re-read under the lock: another process may have done it
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
def immediate(db: Database) -> Iterator[None]:
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


# -- keeping it tidy ----------------------------------------------------------------------


def remove_abandoned(db: Database, now: datetime, lobby_age: timedelta, any_age: timedelta
                     ) -> int:
    """Remove every table whose last change is older than ``any_age``, and every table
    where no game ever started whose last change is older than ``lobby_age``. Returns how
    many tables went."""
    lobby_before = (now - lobby_age).isoformat(timespec="seconds")
    any_before = (now - any_age).isoformat(timespec="seconds")
    with immediate(db):
        gone = [row[0] for row in db.execute(
            "SELECT t.id FROM tables t LEFT JOIN steps s ON s.table_id = t.id "
            "GROUP BY t.id HAVING coalesce(max(s.created), t.created) < ? "
            "OR (coalesce(max(s.created), t.created) < ? AND NOT EXISTS ("
            "  SELECT 1 FROM steps g WHERE g.table_id = t.id AND g.kind = 'step' "
            "  AND json_extract(g.step, '$.control') = 'start'))",
            [any_before, lobby_before]).fetchall()]
        db.execute("PRAGMA defer_foreign_keys = ON")  # the rows go in any order
        for table_id in gone:
            db.execute("DELETE FROM tables WHERE id = ?", [table_id])
            db.execute("DELETE FROM seats WHERE table_id = ?", [table_id])
            db.execute("DELETE FROM steps WHERE table_id = ?", [table_id])
    return len(gone)

def count_lobbies(db: Database) -> int:
    """Tables where no game has started yet."""
    row = db.execute(
        "SELECT count(*) FROM tables t WHERE NOT EXISTS (SELECT 1 FROM steps g "
        "WHERE g.table_id = t.id AND g.kind = 'step' "
        "AND json_extract(g.step, '$.control') = 'start')").fetchone()
    return int(row[0])
