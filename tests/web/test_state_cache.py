"""The state cache keeps each table's newest states (issue 12): however many other tables tap
between two taps of one table, that table's tap finds its state and never folds its whole
log again. A single list of the newest 512 versions let 300 tables push each other's states
out: each tap then folded its log from the start, and that refold put one more state in,
so the misses fed themselves."""

from __future__ import annotations

from dataclasses import replace

import pytest
from flask import Flask
from tablekit import started_table

from app.rows import Table as TableRow
from app.web import service as service_module
from app.web.state import StateCache, TableState

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"], "Cy": ["duke", "ambassador"]}


def state(table_id: str, version: int) -> TableState:
    return TableState(TableRow(table_id, "2026-11-26", "ref", {}, "en"), (), version=version)


def test_a_tables_newest_state_stays_however_many_other_tables_tap() -> None:
    cache = StateCache(tables=4, versions=2)
    cache.put(state("t", 7))
    for version in range(1, 200):  # three other tables tap a great deal in between
        for other in ("a", "b", "c"):
            cache.put(state(other, version))
    held = cache.get("t", 7)
    assert held is not None and held.version == 7
    assert cache.get("a", 199) is not None and cache.get("a", 197) is None  # two of each kept


def test_the_least_recently_used_table_goes_beyond_the_bound() -> None:
    cache = StateCache(tables=2, versions=2)
    cache.put(state("a", 1))
    cache.put(state("b", 1))
    assert cache.get("a", 1) is not None  # "a" used: "b" is now the oldest
    cache.put(state("c", 1))
    assert cache.get("b", 1) is None
    assert cache.get("a", 1) is not None and cache.get("c", 1) is not None
    assert len(cache) == 2


def test_a_late_older_state_never_pushes_out_a_newer_one() -> None:
    cache = StateCache(tables=4, versions=2)
    cache.put(state("t", 5))
    cache.put(state("t", 6))
    cache.put(state("t", 2))  # a slow fold of an old version comes back last
    assert cache.get("t", 5) is not None and cache.get("t", 6) is not None
    assert cache.get("t", 2) is None
    cache.put(replace(state("t", 6), games=1))  # the same version again replaces it
    assert len(cache) == 2


def test_tables_tapping_in_turn_never_fold_their_logs_again(app: Flask,
                                                             monkeypatch: pytest.MonkeyPatch):
    service = app.extensions["tables"]
    service.states = StateCache(tables=8, versions=2)
    tables = [started_table(app, {name: list(cards) for name, cards in HANDS.items()})
              for _ in range(6)]
    for table in tables:  # each table's newest state is in the cache once it was shown
        table.page()
    folds: list[str] = []
    real_fold = service_module.fold
    monkeypatch.setattr(service_module, "fold",
                        lambda snapshot: folds.append(snapshot.table.id) or real_fold(snapshot))
    for _round in range(2):
        for name in HANDS:  # each player's income at every table in turn
            for table in tables:
                assert table.step(by=name, do="income").status_code == 200
    assert folds == []
    assert all(table.live().game.players[0].coins == 4 for table in tables)
