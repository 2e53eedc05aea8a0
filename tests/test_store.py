"""The store keeps tables, seats and an append-only log that refuses stale writers,
and brings any older database up to date, however many processes start at once. Here: the
schema and its migrations, tables and seats, secrets (writes: test_store_writes.py)."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tablekit import STORE_SEATS as SEATS
from tablekit import STORE_SETUP as SETUP

from app.schema import MIGRATIONS, remove_abandoned
from app.store import Store, init_db, same_secret


def test_init_is_idempotent_enables_wal_and_records_its_migrations(db_path: Path) -> None:
    init_db(db_path)
    with Store.open(db_path) as store:
        assert store.db.journal_mode == "wal"
        # NORMAL (1) with WAL: a commit waits for no fsync; an app crash loses nothing.
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 1
        assert set(store.db.table_names()) >= {"tables", "seats", "steps", "night_games",
                                               "night_names"}
        assert MIGRATIONS.pending(store.db) == []
        assert [m.name for m in MIGRATIONS.applied(store.db)] == [
            "create_tables", "logs_leave_with_their_table", "night_games_and_names",
            "night_games_count_when_over"]


def test_a_database_from_before_the_migrations_is_brought_up_to_date(tmp_path: Path) -> None:
    """The first release made its schema by hand and wrote user_version = 1; its tables and
    rows stay, and the new trigger replaces the old one."""
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, created TEXT NOT NULL, referee_token TEXT NOT
          NULL, setup TEXT NOT NULL, language TEXT NOT NULL, status TEXT NOT NULL) STRICT;
        CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
          name TEXT NOT NULL, token TEXT NOT NULL, device TEXT, hand TEXT, tracked INTEGER NOT
          NULL, language TEXT, PRIMARY KEY (table_id, seat)) STRICT;
        CREATE TABLE steps (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,
          kind TEXT NOT NULL, step TEXT, undoes INTEGER, created TEXT NOT NULL,
          PRIMARY KEY (table_id, seq)) STRICT;
        CREATE TRIGGER steps_no_delete BEFORE DELETE ON steps
          BEGIN SELECT RAISE(ABORT, 'steps are append-only'); END;
        INSERT INTO tables VALUES ('old', '2026-01-01T00:00:00+00:00', 'key', '{}', 'en', 'lobby');
        INSERT INTO steps VALUES ('old', 1, 'step', '{"control":"seat"}', NULL,
          '2026-01-01T00:00:00+00:00');
        PRAGMA user_version = 1;
    """)
    conn.close()
    init_db(path)
    with Store.open(path) as store:
        assert MIGRATIONS.pending(store.db) == []
        assert store.version("old") == 1
        gone = remove_abandoned(store.db, datetime.now(UTC), timedelta(days=1),
                                timedelta(days=30))
        assert gone == 1 and store.version("old") is None


def test_many_processes_starting_at_once_all_find_the_database_ready(tmp_path: Path) -> None:
    """Several `serve` and `import` runs open one new instance at the same moment: each waits
    for the others (bounded by the busy timeout) instead of failing with "database is
    locked", and the schema is made once."""
    for round_ in range(5):
        path = tmp_path / f"round-{round_}" / "coup.sqlite"
        barrier = threading.Barrier(6)
        errors: list[BaseException] = []
        threads = [threading.Thread(target=start_at_once, args=(path, barrier, errors))
                   for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors, errors
        with Store.open(path) as store:
            assert [m.name for m in MIGRATIONS.applied(store.db)] == [
                "create_tables", "logs_leave_with_their_table", "night_games_and_names",
            "night_games_count_when_over"]


def start_at_once(path: Path, barrier: threading.Barrier, errors: list[BaseException]) -> None:
    try:
        barrier.wait(timeout=30)
        init_db(path)
    except BaseException as error:  # surfaced by the test; a thread's exception is otherwise lost
        errors.append(error)


def test_table_and_seats_round_trip(store: Store) -> None:
    table = store.create_table(SETUP, SEATS, "ru")
    snapshot = store.read(table.id)
    assert snapshot is not None
    assert snapshot.table == table
    assert table.setup == SETUP  # JSON comes back as data, not text
    assert [(s.seat, s.name, s.tracked, s.hand, s.device) for s in snapshot.seats] == [
        (0, "Natasha", True, None, None), (1, "Sasha", True, None, None),
        (2, "Kolya", False, None, None)]
    assert store.table_of_seat(snapshot.seats[1].token) == table.id
    assert store.read("nope") is None
    assert store.table_of_seat("nope") is None
    assert store.version("nope") is None and store.version(table.id) == 0


def test_tokens_are_long_and_distinct(store: Store) -> None:
    table = store.create_table(SETUP, SEATS[:2], "en")
    snapshot = store.read(table.id)
    assert snapshot is not None
    tokens = {table.id, table.referee_token, *(s.token for s in snapshot.seats)}
    assert len(tokens) == 4
    assert all(len(token) >= 32 for token in tokens)  # 24 random bytes, base64url


def test_secrets_are_compared_as_bytes_whatever_the_text() -> None:
    assert same_secret("abc", "abc") and not same_secret("abc", "abd")
    for odd in ("é", "日本", "\udce9", "", "a" * 1000):
        assert not same_secret(odd, "abc")
        assert same_secret(odd, odd)

