"""The store keeps tables, seats and an append-only log that refuses stale writers, and brings
any older database up to date, however many processes start at once."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.schema import MIGRATIONS, count_lobbies, remove_abandoned
from app.store import (
    NewSeat,
    SeatGone,
    StaleVersion,
    Store,
    UnknownTable,
    init_db,
    same_secret,
)

SETUP = {"first": "Natasha", "rules": {"exchanger": "ambassador"}}
SEATS = [NewSeat("Natasha"), NewSeat("Sasha"), NewSeat("Kolya", tracked=False)]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "instance" / "coup.sqlite"
    init_db(path)
    return path


@pytest.fixture
def store(db_path: Path):
    with Store.open(db_path) as opened:
        yield opened


def append(store: Store, table_id: str, version: int, entry: dict) -> int:
    with store.write(table_id, version) as writing:
        return writing.append(entry).rows[-1].seq


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


def test_a_write_changes_seats_and_ends_in_one_log_row(store: Store) -> None:
    table = store.create_table(SETUP, SEATS[:1], "en")
    with store.write(table.id, 0) as writing:
        writing.update_seat(0, hand=["duke", "contessa"], device="phone-1", language="uk")
        after = writing.append({"control": "seat"})
    (seat,) = after.seats
    assert (seat.hand, seat.device, seat.language) == (("duke", "contessa"), "phone-1", "uk")
    assert [row.seq for row in after.rows] == [1] and store.version(table.id) == 1
    with store.write(table.id, 1) as writing:
        writing.update_seat(0, hand=None, tracked=False, token="new-token-0123456789xyz")
        after = writing.append({"control": "seat"})
    (seat,) = after.seats
    assert (seat.hand, seat.tracked, seat.device, seat.token) == (
        None, False, "phone-1", "new-token-0123456789xyz")


def test_a_stale_write_is_refused_and_changes_nothing(store: Store) -> None:
    table = store.create_table(SETUP, SEATS[:1], "en")
    assert append(store, table.id, 0, {"by": "Natasha", "do": "income"}) == 1
    with pytest.raises(StaleVersion) as refused, store.write(table.id, 0) as writing:
        writing.update_seat(0, hand=["duke", "duke"])
        writing.append({"by": "Natasha", "do": "income"})
    assert (refused.value.expected, refused.value.actual) == (0, 1)
    snapshot = store.read(table.id)
    assert snapshot is not None and snapshot.seats[0].hand is None
    assert store.version(table.id) == 1
    with pytest.raises(UnknownTable), store.write("nope", 0):
        pass


def test_a_seat_write_checks_the_token_and_device_inside_the_transaction(store: Store) -> None:
    table = store.create_table(SETUP, SEATS[:1], "en")
    snapshot = store.read(table.id)
    assert snapshot is not None
    token = snapshot.seats[0].token
    with store.write(table.id, 0, seat_token=token, seat_device=None) as writing:
        writing.update_seat(0, device="phone-1")
        writing.append({"control": "seat"})
    for wrong_token, wrong_device in ((token, None), (token, "phone-2"), ("old", "phone-1")):
        with pytest.raises(SeatGone), store.write(table.id, 1, seat_token=wrong_token,
                                                  seat_device=wrong_device) as writing:
            writing.update_seat(0, hand=["duke", "duke"])
            writing.append({"control": "seat"})
    assert store.version(table.id) == 1


def test_an_undo_is_a_row_of_its_own(store: Store) -> None:
    table = store.create_table(SETUP, SEATS[:1], "en")
    append(store, table.id, 0, {"n": 1})
    with store.write(table.id, 1) as writing:
        after = writing.undo(1)
    assert [(r.seq, r.kind, r.step, r.undoes) for r in after.rows] == [(2, "undo", None, 1)]
    snapshot = store.read(table.id)
    assert snapshot is not None
    assert [(r.kind, r.undoes) for r in snapshot.rows] == [("step", None), ("undo", 1)]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE steps SET step = '{}'",
        "DELETE FROM steps",
        "INSERT INTO steps (table_id, seq, kind, created) VALUES (?, 99, 'redo', '')",
    ],
)
def test_the_log_is_append_only(store: Store, statement: str) -> None:
    table = store.create_table(SETUP, SEATS[:1], "en")
    append(store, table.id, 0, {"n": 1})
    params = [table.id] if "?" in statement else []

    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute(statement, params)

    snapshot = store.read(table.id)
    assert snapshot is not None and [r.step for r in snapshot.rows] == [{"n": 1}]


def test_abandoned_tables_are_removed_whole_and_others_stay(store: Store) -> None:
    lobby = store.create_table(SETUP, SEATS[:1], "en")
    played = store.create_table(SETUP, SEATS[:1], "en", log=[
        {"control": "start", "setup": {"players": ["Natasha"]}}])
    fresh_lobby = store.create_table(SETUP, SEATS[:1], "en")
    now = datetime.now(UTC)
    day, month = timedelta(days=1), timedelta(days=30)
    assert remove_abandoned(store.db, now, day, month) == 0
    store.db.execute("UPDATE tables SET created = ? WHERE id = ?",
                     [(now - timedelta(days=2)).isoformat(), fresh_lobby.id])
    assert count_lobbies(store.db) == 2
    # Two days on: the lobbies went, the game stays; a month on, it goes too.
    assert remove_abandoned(store.db, now + timedelta(days=2), day, month) == 2
    assert store.version(lobby.id) is None and store.version(fresh_lobby.id) is None
    assert store.version(played.id) == 1
    assert remove_abandoned(store.db, now + timedelta(days=31), day, month) == 1
    assert store.version(played.id) is None
    assert store.db.execute("SELECT count(*) FROM seats").fetchone()[0] == 0
    assert store.db.execute("SELECT count(*) FROM steps").fetchone()[0] == 0


def test_two_writers_at_the_same_version_exactly_one_wins(db_path: Path) -> None:
    """Both threads read version v and append at once; BEGIN IMMEDIATE lets one through and the
    other sees StaleVersion, never "database is locked" and never a double append."""
    with Store.open(db_path) as store:
        table_id = store.create_table(SETUP, SEATS, "en").id
    rounds = 40
    barrier = threading.Barrier(2)
    outcomes: dict[str, list[str]] = {"a": [], "b": []}
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        try:
            with Store.open(db_path) as mine:
                for version in range(rounds):
                    barrier.wait(timeout=10)
                    try:
                        append(mine, table_id, version, {"by": name, "round": version})
                        outcomes[name].append("won")
                    except StaleVersion:
                        outcomes[name].append("stale")
                    barrier.wait(timeout=10)  # both done with this version
        except BaseException as error:  # surfaced below; a thread's exception is otherwise lost
            errors.append(error)
            barrier.abort()

    threads = [threading.Thread(target=writer, args=(name,)) for name in outcomes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not errors
    for a, b in zip(outcomes["a"], outcomes["b"], strict=True):
        assert sorted((a, b)) == ["stale", "won"]
    with Store.open(db_path) as store:
        snapshot = store.read(table_id)
    assert snapshot is not None
    assert [row.step["round"] for row in snapshot.rows if row.step] == list(range(rounds))


def test_two_writers_retrying_lose_nothing(db_path: Path) -> None:
    """Writers that re-read and retry on StaleVersion all land, each exactly once."""
    with Store.open(db_path) as store:
        table_id = store.create_table(SETUP, SEATS, "en").id
    per_writer = 50
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        try:
            with Store.open(db_path) as mine:
                for i in range(per_writer):
                    while True:
                        try:
                            append(mine, table_id, mine.version(table_id) or 0, {"w": name, "i": i})
                            break
                        except StaleVersion:
                            continue
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not errors
    with Store.open(db_path) as store:
        snapshot = store.read(table_id)
        assert store.version(table_id) == 2 * per_writer
    assert snapshot is not None
    steps = [row.step for row in snapshot.rows if row.step]
    for name in ("a", "b"):
        assert [s["i"] for s in steps if s["w"] == name] == list(range(per_writer))
