"""Simultaneous taps on the real server: several devices post conflicting steps from the same
version at the same moment. Exactly one is taken, every other one gets 409 with the fresh
table, and the record holds exactly the steps taken, in order, none twice."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from burstkit import legal, run_threads
from serverkit import VERSION, Device, LiveTable, Server, form_of
from tablekit import finished_game, make_app, new_table, snapshot

from app.web.refusals import Refusal

ROUNDS = 20
AT_ONCE = 5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    live = Server(tmp_path / "instance").start()
    try:
        yield live
    finally:
        live.stop()
    assert not live.errors(), live.errors()


def tap(device: Device, path: str, form: dict[str, Any], barrier: threading.Barrier):
    """One tap: connected first, then sent at the same moment as the others."""

    def go() -> tuple[int, str]:
        conn = device.connect()
        barrier.wait(timeout=60)
        status, _, body = device.send(conn, "POST", path, form)
        return status, body

    return go


def test_simultaneous_taps_are_taken_once(server: Server):
    rng = random.Random(4)
    # Ann has a phone; the others play without one (the tablet takes their steps).
    table = LiveTable(server, {"Ann": ["duke", "captain"], "Bob": None, "Cy": None, "Dee": None})
    taken: list[dict[str, Any]] = []  # the steps in force, as the record should hold them
    html = table.page()
    first_version = int(form_of(html)["version"])
    for round_ in range(ROUNDS):
        game = table.game(taken)
        version = form_of(table.page())["version"]
        candidates: list[tuple[str, dict[str, Any] | None]] = [
            ("step", s) for s in legal(game, rng)]
        if taken:
            candidates.append(("undo", None))
        assert candidates, f"round {round_}: nothing to do"
        chosen = [rng.choice(candidates) for _ in range(AT_ONCE)]
        barrier = threading.Barrier(AT_ONCE)
        taps = []
        for kind, step in chosen:
            if kind == "undo":
                device, base, fields = table.tablet, table.url, {}
            else:
                assert step is not None
                device, base, fields = table.route(step)
            # Each tap is a separate device holding the same screen (same cookies).
            clone = Device(server, device.cookies)
            form = {**form_of(table.page_of(device)), "version": version, **fields}
            taps.append(tap(clone, f"{base}/{kind}", form, barrier))
        results = run_threads(taps)
        statuses = [status for status, _ in results]
        assert statuses.count(200) == 1, (round_, chosen, statuses)
        assert statuses.count(409) == AT_ONCE - 1, (round_, chosen, statuses)
        for (status, body) in results:
            shown = VERSION.search(body)
            assert shown and int(shown.group(1)) == int(version) + 1, (status, body[:300])
            if status == 409:
                assert re.search(r"acted first|moved on", body), body[:300]
        kind, step = chosen[statuses.index(200)]
        if kind == "undo":
            taken.pop()
        else:
            assert step is not None
            taken.append(step)
    record = table.record()
    assert record["steps"] == taken
    # One log row per round: no tap was applied twice, even one that was later undone.
    assert int(form_of(table.page())["version"]) == first_version + ROUNDS



# -- the same races, replayed step by step at the service ----------------------------------
# A burst over sockets cannot choose which request reads the table first. These tests do:
# `stale` is what a request read before another one was taken.


def test_a_refused_second_rematch_tap_changes_nothing(tmp_path: Path):
    app = make_app(tmp_path / "instance")
    tables = app.extensions["tables"]
    table = finished_game(app)
    stale = table.live()  # the second tap read the table here
    assert table.post("/rematch", {}).status_code == 200  # the first tap
    assert table.enter_hand("Ann", ["duke", "contessa"]).status_code == 200
    before = snapshot(app)
    with pytest.raises(Refusal) as refused:
        tables.rematch(stale, stale.version)
    assert refused.value.status == 409
    assert snapshot(app) == before, "Ann's hand was erased by a refused request"


def test_a_stale_no_phone_tap_after_the_start_is_refused(tmp_path: Path):
    app = make_app(tmp_path / "instance")
    tables = app.extensions["tables"]
    table = new_table(app, ["Ann", "Bob"])
    for name, hand in (("Ann", ["duke", "captain"]), ("Bob", ["contessa", "assassin"])):
        table.open_phone(name)
        table.enter_hand(name, hand)
    stale = table.live()  # the tap read the lobby here
    assert table.post("/start", {}).status_code == 200
    before = snapshot(app)
    with pytest.raises(Refusal):
        tables.set_tracked(stale, stale.version, 0, False)
    assert snapshot(app) == before
