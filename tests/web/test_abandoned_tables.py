"""Issue 11.7: anyone on the network can reach the start page, so making tables is bounded per
device, the unstarted tables the laptop keeps are bounded, and abandoned tables are removed:
a table where no game started goes a day after its last change, any table a month after."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from babel.dates import format_time
from flask import Flask
from tablekit import csrf_of, finished_game, new_table, snapshot, started_table

from app.web import admission


def create(app: Flask, address: str = "192.168.1.20"):
    client = app.test_client()
    home = client.get("/", environ_base={"REMOTE_ADDR": address})
    return client.post("/tables", data={"csrf": csrf_of(home.text), "players": "Ann\nBob"},
                       environ_base={"REMOTE_ADDR": address})


class Clock:
    """The service's clocks, moved by the test: nothing here waits for real time."""

    def __init__(self) -> None:
        self.seconds = 1000.0
        self.today = datetime.now(UTC)

    def monotonic(self) -> float:
        return self.seconds

    def now(self) -> datetime:
        return self.today


@pytest.fixture
def clock(app: Flask) -> Clock:
    clock = Clock()
    admission = app.extensions["tables"].admission
    admission.clock, admission.now = clock.monotonic, clock.now
    return clock


def test_one_device_makes_a_bounded_number_of_tables(app: Flask, clock: Clock):
    for _ in range(admission.NEW_TABLES_PER_DEVICE):
        assert create(app).status_code == 303
    before = snapshot(app)
    refused = create(app)
    assert refused.status_code == 429 and "as many new tables in the last hour" in refused.text
    assert snapshot(app) == before
    assert create(app, "192.168.1.21").status_code == 303  # another device is not held up
    clock.seconds += admission.NEW_TABLES_WINDOW_S + 1
    assert create(app).status_code == 303


def test_the_limit_says_where_the_tables_are_and_when_a_new_one_can_be_made(app: Flask,
                                                                           clock: Clock):
    """The refusal names the start page's list of this device's tables and the laptop's time
    of day when the oldest of them leaves the hour (rounded up to the minute)."""
    clock.today = datetime(2026, 11, 27, 17, 30, 20, tzinfo=UTC)
    for _ in range(admission.NEW_TABLES_PER_DEVICE):
        assert create(app).status_code == 303
    clock.seconds += 600  # ten minutes later, the hour of the first table ends at 18:30:20
    clock.today += timedelta(minutes=10)
    refused = create(app)
    assert refused.status_code == 429
    at = format_time(datetime(2026, 11, 27, 18, 31, tzinfo=UTC).astimezone(), "short",
                     locale="en")
    assert f"or make a new one after {at}." in refused.text
    assert "Tables on this tablet" in refused.text


def test_the_unstarted_tables_kept_are_bounded(app: Flask, clock: Clock,
                                               monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(admission, "MAX_LOBBIES", 3)
    for i in range(3):
        assert create(app, f"10.0.0.{i}").status_code == 303
    before = snapshot(app)
    refused = create(app, "10.0.0.9")
    assert refused.status_code == 429 and "waiting to start" in refused.text
    assert snapshot(app) == before
    clock.today += admission.LOBBY_AGE + timedelta(minutes=1)  # a day on, they were abandoned
    assert create(app, "10.0.0.9").status_code == 303


def test_a_full_laptop_makes_room_with_lobbies_idle_for_an_hour(app: Flask, clock: Clock,
                                                                 monkeypatch: pytest.MonkeyPatch):
    """One device filling the laptop with lobbies holds it an hour, not a day (issue 11)."""
    monkeypatch.setattr(admission, "MAX_LOBBIES", 3)
    filler = [new_table(app, ["Ann", "Bob"]) for _ in range(3)]
    assert create(app, "10.0.0.9").status_code == 429
    clock.today += admission.LOBBY_IDLE - timedelta(minutes=1)
    assert create(app, "10.0.0.9").status_code == 429  # still fresh
    clock.today += timedelta(minutes=2)
    assert create(app, "10.0.0.9").status_code == 303
    assert all(t.tablet.get(t.url).status_code == 404 for t in filler)


def test_abandoned_lobbies_go_and_games_stay_a_month(app: Flask, clock: Clock):
    lobby = new_table(app, ["Ann", "Bob"])
    playing = started_table(app, {"Ann": ["duke", "captain"], "Bob": None})
    finished = finished_game(app)
    clock.today += admission.LOBBY_AGE - timedelta(minutes=1)
    assert create(app).status_code == 303
    assert lobby.tablet.get(lobby.url).status_code == 200  # not a day yet
    clock.today += timedelta(minutes=2)
    assert create(app).status_code == 303
    assert lobby.tablet.get(lobby.url).status_code == 404
    assert app.test_client().get(lobby.link("Ann")).status_code == 404
    for kept in (playing, finished):
        assert kept.tablet.get(kept.url).status_code == 200
    clock.today += admission.TABLE_AGE
    assert create(app).status_code == 303
    for gone in (playing, finished):
        assert gone.tablet.get(gone.url).status_code == 404
