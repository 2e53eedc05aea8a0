"""The store keeps tables, seats and an append-only log that refuses stale writers."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from app.store import (
    LogRow,
    NothingToUndo,
    StaleVersion,
    Store,
    UnknownSeat,
    UnknownTable,
    fold_log,
    init_db,
)

SETUP = {"players": ["Natasha", "Sasha", "Kolya"], "rules": {"exchanger": "ambassador"}}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "instance" / "coup.sqlite"
    init_db(path)
    return path


@pytest.fixture
def store(db_path: Path):
    with Store.open(db_path) as opened:
        yield opened


def test_init_is_idempotent_and_enables_wal(db_path: Path) -> None:
    init_db(db_path)
    with Store.open(db_path) as store:
        assert store.db.journal_mode == "wal"
        assert set(store.db.table_names()) >= {"tables", "seats", "steps"}


def test_table_and_seats_round_trip(store: Store) -> None:
    table = store.create_table(SETUP, seats=["Natasha", "Sasha", "Kolya"], language="ru")

    assert store.get_table(table.id) == table
    assert store.get_table_by_referee_token(table.referee_token) == table
    assert table.setup == SETUP  # JSON comes back as data, not text
    seats = store.seats(table.id)
    assert [(s.seat, s.name, s.tracked) for s in seats] == [
        (0, "Natasha", True),
        (1, "Sasha", True),
        (2, "Kolya", True),
    ]
    assert store.get_seat_by_token(seats[1].token) == seats[1]
    assert store.get_table("nope") is None
    assert store.get_seat_by_token("nope") is None


def test_tokens_are_long_and_distinct(store: Store) -> None:
    table = store.create_table(SETUP, seats=["A", "B"])
    tokens = {table.id, table.referee_token, *(s.token for s in store.seats(table.id))}
    assert len(tokens) == 4
    assert all(len(token) >= 32 for token in tokens)  # 24 random bytes, base64url


def test_update_seat_and_reissue_token(store: Store) -> None:
    table = store.create_table(SETUP, seats=["Natasha"])
    seat = store.update_seat(
        table.id, 0, hand=["duke", "contessa"], device="phone-1", language="uk"
    )
    assert (seat.hand, seat.device, seat.language) == (["duke", "contessa"], "phone-1", "uk")

    seat = store.update_seat(table.id, 0, hand=None, tracked=False)
    assert (seat.hand, seat.tracked, seat.device) == (None, False, "phone-1")

    fresh = store.reissue_seat_token(table.id, 0)
    assert fresh.token != seat.token and fresh.device is None
    assert store.get_seat_by_token(seat.token) is None
    assert store.get_seat_by_token(fresh.token) == fresh

    with pytest.raises(UnknownSeat):
        store.update_seat(table.id, 7, name="Ghost")


def test_add_seat_goes_clockwise_after_the_last(store: Store) -> None:
    table = store.create_table(SETUP, seats=["A"])
    added = store.add_seat(table.id, "B", tracked=False)
    assert (added.seat, added.tracked) == (1, False)
    with pytest.raises(UnknownTable):
        store.add_seat("nope", "C")


def test_update_table(store: Store) -> None:
    table = store.create_table(SETUP)
    updated = store.update_table(table.id, status="playing", language="fr")
    assert (updated.status, updated.language, updated.setup) == ("playing", "fr", SETUP)


def test_append_returns_the_new_version(store: Store) -> None:
    table = store.create_table(SETUP)
    assert store.version(table.id) == 0
    assert store.append_step(table.id, 0, {"by": "Natasha", "do": "tax"}) == 1
    assert store.append_step(table.id, 1, {"do": "pass"}) == 2
    assert store.version(table.id) == 2
    assert store.live_steps(table.id) == [{"by": "Natasha", "do": "tax"}, {"do": "pass"}]


def test_stale_append_is_refused_and_changes_nothing(store: Store) -> None:
    table = store.create_table(SETUP)
    store.append_step(table.id, 0, {"by": "Natasha", "do": "income"})

    with pytest.raises(StaleVersion) as refused:
        store.append_step(table.id, 0, {"by": "Natasha", "do": "income"})

    assert (refused.value.expected, refused.value.actual) == (0, 1)
    assert store.version(table.id) == 1
    with pytest.raises(StaleVersion):
        store.append_step(table.id, 5, {"do": "pass"})


def test_append_to_unknown_table_is_refused(store: Store) -> None:
    with pytest.raises(UnknownTable):
        store.append_step("nope", 0, {"do": "pass"})


def test_undo_folds_out_the_newest_live_step(store: Store) -> None:
    table = store.create_table(SETUP)
    a, b, c = {"n": 1}, {"n": 2}, {"n": 3}
    store.append_step(table.id, 0, a)
    store.append_step(table.id, 1, b)
    assert store.append_undo(table.id, 2) == 3  # undo b
    store.append_step(table.id, 3, c)
    assert store.append_undo(table.id, 4) == 5  # undo c
    assert store.append_undo(table.id, 5) == 6  # undo a

    assert store.live_steps(table.id) == []
    assert store.version(table.id) == 6  # undos move the version too
    rows = store.log_rows(table.id)
    assert [(r.kind, r.undoes) for r in rows] == [
        ("step", None),
        ("step", None),
        ("undo", 2),
        ("step", None),
        ("undo", 4),
        ("undo", 1),
    ]
    with pytest.raises(NothingToUndo):
        store.append_undo(table.id, 6)
    with pytest.raises(StaleVersion):
        store.append_undo(table.id, 2)


def test_snapshot_pairs_version_and_live_steps(store: Store) -> None:
    table = store.create_table(SETUP)
    store.append_step(table.id, 0, {"n": 1})
    store.append_step(table.id, 1, {"n": 2})
    store.append_undo(table.id, 2)
    assert store.snapshot(table.id) == (3, [{"n": 1}])


def test_fold_log_ignores_an_undo_with_nothing_live() -> None:
    rows = [
        LogRow(1, "undo", None, None, ""),
        LogRow(2, "step", {"n": 1}, None, ""),
    ]
    assert fold_log(rows) == [{"n": 1}]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE steps SET step = '{}'",
        "DELETE FROM steps",
        "INSERT INTO steps (table_id, seq, kind, created) VALUES (?, 99, 'redo', '')",
    ],
)
def test_the_log_is_append_only(store: Store, statement: str) -> None:
    table = store.create_table(SETUP)
    store.append_step(table.id, 0, {"n": 1})
    params = [table.id] if "?" in statement else []

    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute(statement, params)

    assert store.live_steps(table.id) == [{"n": 1}]


def test_two_writers_at_the_same_version_exactly_one_wins(db_path: Path) -> None:
    """Both threads read version v and append at once; BEGIN IMMEDIATE lets one through and the
    other sees StaleVersion, never "database is locked" and never a double append."""
    with Store.open(db_path) as store:
        table_id = store.create_table(SETUP).id
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
                        mine.append_step(table_id, version, {"by": name, "round": version})
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
        steps = store.live_steps(table_id)
    assert [step["round"] for step in steps] == list(range(rounds))


def test_two_writers_retrying_lose_nothing(db_path: Path) -> None:
    """Writers that re-read and retry on StaleVersion all land, each exactly once."""
    with Store.open(db_path) as store:
        table_id = store.create_table(SETUP).id
    per_writer = 50
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        try:
            with Store.open(db_path) as mine:
                for i in range(per_writer):
                    while True:
                        try:
                            mine.append_step(table_id, mine.version(table_id), {"w": name, "i": i})
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
        steps = store.live_steps(table_id)
        assert store.version(table_id) == 2 * per_writer
    for name in ("a", "b"):
        assert [s["i"] for s in steps if s["w"] == name] == list(range(per_writer))
