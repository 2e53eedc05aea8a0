"""Fixtures: an app on a fresh instance, a table of three with their phones, the same table
with hands in and the game started. The helpers are in tests/tablekit.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from tablekit import Table, make_app, seated_table


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return make_app(tmp_path / "instance")


@pytest.fixture
def table(app: Flask) -> Table:
    return seated_table(app, ["Ann", "Bob", "Cy"])


@pytest.fixture
def started(table: Table) -> Table:
    hands = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
             "Cy": ["ambassador", "captain"]}
    for name, cards in hands.items():
        assert table.enter_hand(name, cards).status_code == 200
    response = table.post("/start", {})
    assert response.status_code == 200, response.text
    return table
