"""The laptop dies mid-game: the server is killed with SIGKILL while steps are being posted,
then started again on the same instance folder. Every step that was answered 200 is still
there, the phones still hold their seats, and the game goes on."""

from __future__ import annotations

import http.client
import random
import threading
from pathlib import Path
from typing import Any

from serverkit import Device, LiveTable, Server, form_of, legal

BEFORE_THE_CRASH = 12


def test_a_killed_server_keeps_every_accepted_step(tmp_path: Path):
    instance = tmp_path / "instance"
    server = Server(instance).start()
    rng = random.Random(7)
    accepted: list[dict[str, Any]] = []
    in_flight: list[dict[str, Any]] = []
    enough = threading.Event()
    stopped = threading.Event()
    failures: list[BaseException] = []
    try:
        table = LiveTable(server, {"Ann": ["duke", "assassin"], "Bob": ["captain", "contessa"],
                                   "Cy": None})

        def play() -> None:
            """Post legal steps one after another, as fast as the server answers."""
            try:
                while True:
                    options = legal(table.game(accepted), rng)
                    if not options:
                        return
                    step = rng.choice(options)
                    device, base, fields = table.route(step)
                    form = {**form_of(table.page_of(device)), **fields}
                    in_flight[:] = [step]
                    status, _, _ = device.post(base + "/step", form)
                    assert status == 200, (step, status)
                    accepted.append(step)
                    in_flight.clear()
                    if len(accepted) >= BEFORE_THE_CRASH:
                        enough.set()
            except (OSError, http.client.HTTPException):
                return  # the server is gone
            except BaseException as error:  # noqa: BLE001 - reported by the main thread
                failures.append(error)
            finally:
                stopped.set()
                enough.set()

        player = threading.Thread(target=play)
        player.start()
        assert enough.wait(timeout=120)
        server.kill()  # SIGKILL, possibly in the middle of a request
        player.join(timeout=120)
        assert stopped.is_set()
        assert not failures, failures
    finally:
        server.kill()
    assert len(accepted) >= BEFORE_THE_CRASH
    assert not server.errors(), server.errors()

    again = Server(instance).start()
    try:
        record = table_on(again, table).record()
        steps = record["steps"]
        # Every answered step is there, in order; at most the one in flight was also kept.
        assert steps[: len(accepted)] == accepted
        assert steps[len(accepted):] in ([], in_flight), steps[len(accepted):]
        moved = table_on(again, table)
        # The phones still hold their seats; another device is still refused.
        for name in ("Ann", "Bob"):
            assert moved.phones[name].get(moved.links[name])[0] == 200
            assert Device(again).get(moved.links[name])[0] == 403
        # And the game goes on.
        game = moved.game(steps)
        step = legal(game, rng)[0]
        device, base, fields = moved.route(step)
        status, _, _ = device.post(base + "/step", {**form_of(moved.page_of(device)), **fields})
        assert status == 200
        assert moved.record()["steps"] == [*steps, step]
    finally:
        again.stop()
    assert not again.errors(), again.errors()


def table_on(server: Server, table: LiveTable) -> LiveTable:
    """The same table and devices (same cookies), now talking to another server process."""
    for device in (table.tablet, *table.phones.values()):
        device.server = server
    table.server = server
    return table
