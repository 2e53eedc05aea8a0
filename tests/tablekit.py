"""A table in the Flask test client, shared by every test folder (pyproject puts tests/ on the
path): the referee's tablet and each phone are separate clients. Also: a snapshot of the whole
database (the checks that hold for every page are in pagekit.py).

Named ``tablekit`` (not ``conftest``/``helpers``): test folders have no ``__init__.py``, so a
module name must be unique across ``tests/``.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from app.store import NewSeat, Store
from app.web.evening import settings as night_settings
from app.web.factory import create_app
from app.web.state import TableState

PUBLIC = "http://coup.test"
CSRF_FIELD = re.compile(r'name="csrf" value="([^"]*)"')
VERSION = re.compile(r'data-version="(\d+)"')
SEAT_LINK = re.compile(r"/s/([A-Za-z0-9_-]{20,})")
HTMX = {"HX-Request": "true"}

# Ann and Bob on phones, Cy without one (untracked): the seat-link tests' table.
HANDS_CY_WITHOUT_PHONE: dict[str, list[str] | None] = {
    "Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"], "Cy": None}

# A small valid game record (one seat without a phone) that tests of record files start from.
SMALL_RECORD = {
    "format": "coup-record/1",
    "players": ["Ann", "Bob", "Cy"],
    "hands": {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"], "Cy": None},
    "steps": [{"by": "Ann", "do": "tax"}, {"do": "pass"}],
    "expect": {"players": {"Ann": {"coins": 5}}, "next": "Bob"},
}


def make_app(instance: Path) -> Flask:
    # A fixed public URL: the QR codes and links are then the same whatever the test host is.
    return create_app(str(instance), {"TESTING": True, "PUBLIC_URL": PUBLIC + "/"})


def csrf_of(html: str) -> str:
    match = CSRF_FIELD.search(html)
    assert match, "no form on the page"
    return match.group(1)


def version_of(html: str) -> str:
    match = VERSION.search(html)
    assert match, "no data-version on the page"
    return match.group(1)


@dataclass
class Table:
    """One table: the referee's tablet client and a phone client per seat that has one."""

    app: Flask
    tablet: FlaskClient
    table_id: str
    names: list[str]
    tokens: dict[str, str]  # seat name -> token, in seat order
    phones: dict[str, FlaskClient] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"/t/{self.table_id}"

    def link(self, name: str) -> str:
        return f"/s/{self.tokens[name]}"

    @property
    def links(self) -> dict[str, str]:
        return {name: self.link(name) for name in self.tokens}

    def phone(self, name: str) -> FlaskClient:
        return self.phones[name]

    def version(self) -> str:
        return version_of(self.page())

    def step(self, **data: Any) -> TestResponse:
        """A step tapped on the tablet."""
        return self.post("/step", data)

    def phone_step(self, name: str, version: str | None = None, **data: Any) -> TestResponse:
        """A step taken on a seat's phone."""
        if version is not None:
            data["version"] = version
        return self.phone_post(name, "/step", data)

    def steps(self) -> list[dict[str, Any]]:
        """The current game's live steps, as the server's log holds them."""
        return [dict(step) for _seq, step in self.live().steps]

    def page(self) -> str:
        response = self.tablet.get(self.url)
        assert response.status_code == 200, response.status_code
        return response.text

    def post(self, path: str, data: dict[str, Any], version: str | None = None,
             htmx: bool = True) -> TestResponse:
        html = self.page()
        form = {"csrf": csrf_of(html), "version": version or version_of(html), **data}
        return self.tablet.post(self.url + path, data=form, headers=HTMX if htmx else {})

    def download(self, version: str | None = None) -> TestResponse:
        """The referee's Download button (a plain form post; the answer is the record)."""
        return self.post("/record.json", {}, version=version, htmx=False)

    def open_phone(self, name: str) -> TestResponse:
        client = self.phones.setdefault(name, self.app.test_client())
        return client.get(self.link(name))

    def phone_page(self, name: str) -> str:
        response = self.phones[name].get(self.link(name))
        assert response.status_code == 200, response.status_code
        return response.text

    def phone_post(self, name: str, path: str, data: dict[str, Any]) -> TestResponse:
        html = self.phone_page(name)
        form = {"csrf": csrf_of(html), "version": version_of(html) if "data-version" in html
                else "", **data}  # data may bring its own (stale) version
        return self.phones[name].post(self.link(name) + path, data=form, headers=HTMX)

    def enter_hand(self, name: str, cards: list[str]) -> TestResponse:
        return self.phone_post(name, "/hand", {"card1": cards[0], "card2": cards[1]})

    def live(self) -> TableState:
        """The table as the server holds it now."""
        state = self.app.extensions["tables"].load(self.table_id)
        assert state is not None
        return state


def new_table(app: Flask, names: list[str], **settings: str) -> Table:
    """A table created from the home page's form; no phone has opened its link yet."""
    tablet = app.test_client()
    home = tablet.get("/").text
    response = tablet.post("/tables", data={"csrf": csrf_of(home), "players": "\n".join(names),
                                            **settings})
    assert response.status_code == 303, response.text
    table_id = response.headers["Location"].rstrip("/").split("/t/")[1]
    state = app.extensions["tables"].load(table_id)
    tokens = {s.name: s.token for s in state.seats}
    return Table(app, tablet, table_id, names, tokens)


def seated_table(app: Flask, names: list[str], **settings: str) -> Table:
    """A new table whose every seat link was opened by its own phone."""
    table = new_table(app, names, **settings)
    for name in names:
        assert table.open_phone(name).status_code == 200
    return table


def started_table(app: Flask, hands: dict[str, list[str] | None], **settings: str) -> Table:
    """A started game: seats with a hand have a phone that entered it; None is no phone."""
    names = list(hands)
    table = new_table(app, names, **settings)
    for i, (name, hand) in enumerate(hands.items()):
        if hand is None:
            assert table.post(f"/seat/{i}/tracked", {"tracked": "0"}).status_code == 200
        else:
            assert table.open_phone(name).status_code == 200
            assert table.enter_hand(name, hand).status_code == 200
    response = table.post("/start", {})
    assert response.status_code == 200, response.text
    return table


def finished_game(app: Flask, ann: tuple[str, str] = ("duke", "captain"),
                  window: Callable[[Table], None] | None = None, **settings: str) -> Table:
    """Ann beats Bob; both had phones. Ann never loses a card, so her hand stays hidden to
    the end; ``window`` closes each window her Taxes open (the tablet's pass if not given)."""
    t = started_table(app, {"Ann": list(ann), "Bob": ["contessa", "assassin"]}, **settings)
    close = window or tablet_pass
    for bob_loses in ("assassin", None):
        for _round in range(3 if bob_loses else 2):
            assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
            close(t)
            assert t.post("/step", {"do": "income", "by": "Bob"}).status_code == 200
        assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
        if bob_loses:
            lost = t.phone_post("Bob", "/step", {"do": "lose", "card": bob_loses})
            assert lost.status_code == 200
            assert t.post("/step", {"do": "income", "by": "Bob"}).status_code == 200
    game = t.live().game
    assert game is not None and game.winner == "Ann"
    assert "Ann wins!" in t.page() or settings.get("language", "en") != "en"
    return t


def tablet_pass(t: Table) -> None:
    """Nobody challenges or blocks: the tablet's tap."""
    assert t.post("/step", {"do": "pass"}).status_code == 200


WATCH = re.compile(r'href="(http://coup\.test)?(/w/[^"]+)"')


def watch_link(t: Table) -> str:
    """The spectators' link (game night's TV view) the referee's screen offers."""
    match = WATCH.search(t.page())
    assert match, "no spectators' link on the tablet"
    return match.group(2)


# -- the decision timer, on a fixed clock ----------------------------------------------------


OPENED = "2026-01-01T20:00:00+00:00"
"""When every log row is written while :func:`stop_the_clock` holds (so every decision opens)."""


def stop_the_clock(app: Flask, monkeypatch: Any, later: float) -> None:
    """Every log row written at :data:`OPENED`, and the service's one clock (``Tables.now``,
    which the countdowns and the time-out tap read) ``later`` seconds after it."""
    import app.store as store_module

    monkeypatch.setattr(store_module, "now", lambda: OPENED)
    at = datetime.fromisoformat(OPENED) + timedelta(seconds=later)
    monkeypatch.setattr(app.extensions["tables"], "now", lambda: at)


def timing_out(t: Table) -> None:
    """A window closed by the decision timer with "on time-out, let it stand" (the timer
    switched on first, if it is off): with the clock stopped 31 s or more after it opened."""
    if not night_settings(t.live()).stand:
        assert t.post("/night", {"timer": "30", "stand": "1"}).status_code == 200
    assert t.post("/timeout", {}).status_code == 200


# -- the database, as a whole -------------------------------------------------------------


def snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the database: "nothing changed" means this is equal."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return {
            name: conn.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
            for name in ("tables", "seats", "steps", "night_games", "night_names")
        }
    finally:
        conn.close()


# -- a screen as htmx fetches it ------------------------------------------------------------

HAND = re.compile(r'<p id="hand"[^>]*>(.*?)</p>', re.S)


def view(client: FlaskClient, path: str) -> str:
    """The screen at ``path`` as htmx refreshes it, its form token's slot filled in."""
    response = client.get(path + "/view", headers=HTMX)
    assert response.status_code == 200, response.status_code
    assert "\x1e" not in response.text  # the form token's slot is always filled in
    return response.text


def hand_of(html: str) -> str:
    match = HAND.search(html)
    assert match, "no hand on this screen"
    return match.group(1)


# -- the store by itself (tests/test_store*.py) ---------------------------------------------

STORE_SETUP = {"first": "Natasha", "rules": {"exchanger": "ambassador"}}
STORE_SEATS = [NewSeat("Natasha"), NewSeat("Sasha"), NewSeat("Kolya", tracked=False)]


def append(store: Store, table_id: str, version: int, entry: dict) -> int:
    with store.write(table_id, version) as writing:
        return writing.append(entry).rows[-1].seq

