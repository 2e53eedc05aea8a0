"""The store's writes: one log row per write, stale writers refused, seat writes checked inside
the transaction, an append-only log, abandoned tables removed, and two writers at once."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from tablekit import STORE_SEATS as SEATS
from tablekit import STORE_SETUP as SETUP
from tablekit import append

from app.rows import GameResult
from app.schema import count_lobbies, remove_abandoned
from app.store import SeatGone, StaleVersion, Store, UnknownTable


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


def test_a_write_that_changes_no_seat_hands_back_the_known_table_and_seats(store: Store
                                                                           ) -> None:
    """With ``known`` (the caller's table and seats at that version), a write that changes
    neither reads back its log row only; one that changes a seat reads the seats again, and
    what it hands back is what a fresh read sees."""
    table = store.create_table(SETUP, SEATS[:2], "en")
    before = store.read(table.id)
    assert before is not None
    known = (before.table, before.seats)
    with store.write(table.id, 0, known=known) as writing:
        after = writing.append({"by": "Natasha", "do": "income"})
    assert after.table is before.table and after.seats is before.seats
    assert [row.seq for row in after.rows] == [1]
    with store.write(table.id, 1, known=known) as writing:
        writing.update_seat(1, hand=["duke", "duke"])
        after = writing.undo(1)
    fresh = store.read(table.id, after=1)
    assert fresh is not None and after == fresh and after.seats[1].hand == ("duke", "duke")
    with store.write(table.id, 2, known=(fresh.table, fresh.seats)) as writing:
        writing.update_table(setup={**SETUP, "first": "Yuri"})
        after = writing.append({"control": "rematch"})
    assert after.table.setup["first"] == "Yuri" and after == store.read(table.id, after=2)


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


def test_a_rename_decides_under_the_write_lock_and_a_refusal_writes_nothing(
    store: Store, db_path: Path
) -> None:
    """The players' page checks a rename or merge against the names as they are under the
    write lock, so a rename by another device between its read and its write can't slip in."""
    seen: list[bool] = []

    def decide(results: list[GameResult], names: dict[str, str]) -> tuple[list[str], str]:
        seen.append(store.db.conn.in_transaction)
        other = sqlite3.connect(db_path, timeout=0)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("INSERT INTO night_names (name, person) VALUES ('x', 'y')")
        other.close()
        return ["ann"], "Anna"

    store.name_people(decide)
    assert seen == [True] and store.aliases() == {"ann": "Anna"}

    def refuse(results: list[GameResult], names: dict[str, str]) -> tuple[list[str], str]:
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        store.name_people(refuse)
    assert store.aliases() == {"ann": "Anna"} and not store.db.conn.in_transaction
