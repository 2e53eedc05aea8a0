"""Fixtures for every test folder: an app on a fresh instance, a table of three with their
phones, the same table with the game started (the helpers are in tests/tablekit.py).

Every test starts in English, whatever the shell running pytest speaks. The command line picks
its language from LANGUAGE, LC_ALL, LC_MESSAGES and LANG (app/cli_i18n.py), and many tests read
its English words. LANGUAGE=en comes first unless the locale is exactly C or POSIX, which are
English anyway; it leaves the locale, and so the encoding, as it was. It is set in os.environ, so
servers and commands started by a test inherit it. Tests of other languages set these variables
themselves (tests/i18n/test_cli_language.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from tablekit import Table, make_app, seated_table

from app.store import Store, init_db

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"]}


@pytest.fixture(autouse=True)
def _english_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")


# -- the app, and tables in it (helpers: tests/tablekit.py) ---------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """An app on a fresh instance folder, with a fixed public URL for its links."""
    return make_app(tmp_path / "instance")


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def table(app: Flask) -> Table:
    """Ann, Bob and Cy at a new table, each seat's link opened by its own phone."""
    return seated_table(app, ["Ann", "Bob", "Cy"])


@pytest.fixture
def started(table: Table) -> Table:
    """The same table with every hand entered and the game started: Ann's turn."""
    for name, cards in HANDS.items():
        assert table.enter_hand(name, cards).status_code == 200
    response = table.post("/start", {})
    assert response.status_code == 200, response.text
    return table


# -- the store by itself (tests/test_store*.py) ---------------------------------------------


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "instance" / "coup.sqlite"
    init_db(path)
    return path


@pytest.fixture
def store(db_path: Path):
    with Store.open(db_path) as opened:
        yield opened

