"""Fixtures: an app on a fresh instance, a table of three, the same table with hands in."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from webtable import Table, new_table

from app.web import create_app


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app(str(tmp_path / "instance"), {"TESTING": True})


@pytest.fixture
def table(app: Flask) -> Table:
    return new_table(app, ["Ann", "Bob", "Cy"])


@pytest.fixture
def started(table: Table) -> Table:
    hands = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
             "Cy": ["ambassador", "captain"]}
    for name, cards in hands.items():
        assert table.enter_hand(name, cards).status_code == 200
    response = table.post("/start", {})
    assert response.status_code == 200, response.text
    return table
