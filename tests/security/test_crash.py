"""The laptop dies mid-game: the server is killed with SIGKILL while steps are being posted,
then started again on the same instance folder. Every step that was answered 200 is still
there, the phones still hold their seats, and the game goes on."""

from __future__ import annotations

import http.client
import random
import threading
from pathlib import Path
from typing import Any

from burstkit import legal
from serverkit import Device, LiveTable, Server, form_of

BEFORE_THE_CRASH = 12


def test_a_killed_server_keeps_every_accepted_step(tmp_path: Path):
    instance = tmp_path / "instance"
    server = Server(instance).start()
    rng = random.Random(7)
    try:
        table = LiveTable(server, {"Ann": ["duke", "assassin"], "Bob": ["captain", "contessa"],
                                   "Cy": None})
        play = Play(table, rng)
        player = threading.Thread(target=play.run)
        player.start()
        assert play.enough.wait(timeout=120)
        server.kill()  # SIGKILL, possibly in the middle of a request
        player.join(timeout=120)
        assert play.stopped.is_set()
        assert not play.failures, play.failures
    finally:
        server.kill()
    assert len(play.accepted) >= BEFORE_THE_CRASH
    assert not server.errors(), server.errors()

    again = Server(instance).start()
    try:
        assert_the_game_goes_on(table_on(again, table), play, rng)
    finally:
        again.stop()
    assert not again.errors(), again.errors()


class Play:
    """Posts legal steps one after another, as fast as the server answers, until it is gone."""

    def __init__(self, table: LiveTable, rng: random.Random) -> None:
        self.table, self.rng = table, rng
        self.accepted: list[dict[str, Any]] = []
        self.in_flight: list[dict[str, Any]] = []
        self.enough = threading.Event()
        self.stopped = threading.Event()
        self.failures: list[BaseException] = []

    def run(self) -> None:
        try:
            while self.post_one():
                if len(self.accepted) >= BEFORE_THE_CRASH:
                    self.enough.set()
        except (OSError, http.client.HTTPException):
            return  # the server is gone
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            self.failures.append(error)
        finally:
            self.stopped.set()
            self.enough.set()

    def post_one(self) -> bool:
        options = legal(self.table.game(self.accepted), self.rng)
        if not options:
            return False
        step = self.rng.choice(options)
        device, base, fields = self.table.route(step)
        form = {**form_of(self.table.page_of(device)), **fields}
        self.in_flight[:] = [step]
        status, _, _ = device.post(base + "/step", form)
        assert status == 200, (step, status)
        self.accepted.append(step)
        self.in_flight.clear()
        return True


def assert_the_game_goes_on(moved: LiveTable, play: Play, rng: random.Random) -> None:
    steps = moved.record()["steps"]
    # Every answered step is there, in order; at most the one in flight was also kept.
    assert steps[: len(play.accepted)] == play.accepted
    assert steps[len(play.accepted):] in ([], play.in_flight), steps[len(play.accepted):]
    # The phones still hold their seats; another device is still refused.
    for name in ("Ann", "Bob"):
        assert moved.phones[name].get(moved.links[name])[0] == 200
        assert Device(moved.server).get(moved.links[name])[0] == 403
    # And the game goes on.
    step = legal(moved.game(steps), rng)[0]
    device, base, fields = moved.route(step)
    status, _, _ = device.post(base + "/step", {**form_of(moved.page_of(device)), **fields})
    assert status == 200
    assert moved.record()["steps"] == [*steps, step]


def table_on(server: Server, table: LiveTable) -> LiveTable:
    """The same table and devices (same cookies), now talking to another server process."""
    for device in (table.tablet, *table.phones.values()):
        device.server = server
    table.server = server
    return table
