"""The fresh screen inside each stream's event (htmx sse-swap): every device ends on the newest
version whoever taps and after a reconnect; a remembered prompt can't be changed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from tablekit import HTMX, Table, hand_of, version_of, view

# -- the fresh screen inside the stream's event (htmx sse-swap) -------------------------------

EVENT_DATA = re.compile(r"^data: ?(.*)$", re.M)


def screen_in(event: bytes | str) -> str:
    text = event.decode() if isinstance(event, bytes) else event
    assert text.startswith("event: changed\n") and text.endswith("\n\n")
    return "\n".join(EVENT_DATA.findall(text))


def test_a_change_comes_inside_each_devices_event_as_its_own_screen(started: Table):
    """Each device's event is its own fresh screen; the device whose tap it was has that screen
    in its tap's answer, so its event carries only the version."""
    started.app.extensions["tables"].broker.keepalive = 0.1
    version = version_of(started.page())
    streams = {name: started.phone(name).get(f"{started.link(name)}/events?since={version}",
                                             buffered=False) for name in ("Ann", "Bob")}
    streams["tablet"] = started.tablet.get(f"{started.url}/events?since={version}",
                                           buffered=False)
    chunks = {device: iter(stream.response) for device, stream in streams.items()}
    for device in chunks:
        assert next(chunks[device]).startswith(b":")  # open, and nothing new yet
    tap = started.phone_post("Ann", "/language", {"language": "ru"})
    assert tap.status_code == 200
    events = {device: next(chunks[device]).decode() for device in chunks}
    for stream in streams.values():
        stream.close()
    new = str(int(version) + 1)
    assert events["Ann"] == f"event: changed\ndata: {new}\n\n"  # her answer has the screen
    ann = tap.get_data(as_text=True).strip()
    screens = {device: screen_in(events[device]) for device in ("Bob", "tablet")}
    assert all(version_of(html) == new for html in [ann, *screens.values()])
    bob = screens["Bob"]
    assert ann == view(started.phone("Ann"), started.link("Ann")).strip()  # just as fetched
    assert bob == view(started.phone("Bob"), started.link("Bob")).strip()
    assert screens["tablet"] == view(started.tablet, started.url).strip()
    assert "Duke" in hand_of(ann) and "Contessa" in hand_of(bob)
    assert "Duke" not in hand_of(bob) and "Contessa" not in hand_of(ann)
    assert "Язык" in ann and "Язык" not in bob and "Язык" not in screens["tablet"]
    assert 'id="hand"' not in screens["tablet"]


class Device:
    """A page as app.js runs it: the version its screen shows, moved on by a tap's answer, by a
    screen inside an event, and by a fetch when an event says only a newer version."""

    def __init__(self, client: FlaskClient, base: str, version: str) -> None:
        self.client, self.base, self.held = client, base, int(version)
        self.chunks: Iterator[bytes] | None = None
        self.stream: object = None
        self.version_only = 0  # events that carried only the version

    def listen(self) -> None:
        self.stream = self.client.get(f"{self.base}/events?since={self.held}", buffered=False)
        self.chunks = iter(self.stream.response)  # type: ignore[attr-defined]
        assert next(self.chunks).startswith(b":")

    def hang_up(self) -> None:
        self.stream.close()  # type: ignore[attr-defined]
        self.chunks = None

    def answer(self, response: object) -> None:
        assert response.status_code == 200  # type: ignore[attr-defined]
        self.held = int(version_of(response.get_data(as_text=True)))  # type: ignore[attr-defined]

    def hear(self) -> None:
        """The next event, as app.js takes it (keepalives skipped)."""
        assert self.chunks is not None
        for _ in range(100):
            text = next(self.chunks).decode()
            if not text.startswith(":"):
                break
        data = "\n".join(EVENT_DATA.findall(text))
        assert data, repr(text)
        if 'data-version="' in data:
            self.held = max(self.held, int(version_of(data)))
        elif int(data) > self.held:  # not this screen: fetch it, as app.js does
            self.version_only += 1
            fetched = self.client.get(f"{self.base}/view?since={self.held}", headers=HTMX)
            assert fetched.status_code == 200
            self.held = int(version_of(fetched.get_data(as_text=True)))
        else:
            self.version_only += 1


def test_every_device_ends_on_the_newest_version_whoever_taps_and_after_a_reconnect(
        started: Table):
    started.app.extensions["tables"].broker.keepalive = 0.05
    version = started.version()
    second = started.app.test_client()  # a second referee device (say, the referee's phone)
    key = started.live().table.referee_token
    assert second.get(f"{started.url}?key={key}").status_code == 303
    devices = {"tablet": Device(started.tablet, started.url, version),
               "second": Device(second, started.url, version),
               **{name: Device(started.phone(name), started.link(name), version)
                  for name in ("Ann", "Bob")}}
    for device in devices.values():
        device.listen()

    def newest() -> int:
        return started.live().version

    def everyone_hears(*deaf: str) -> None:
        for name, device in devices.items():
            if name not in deaf:
                device.hear()

    devices["tablet"].answer(started.step(by="Ann", do="income"))  # the referee's tap
    everyone_hears()
    assert devices["tablet"].version_only == 1  # its answer had the screen
    devices["Bob"].answer(started.phone_post("Bob", "/language", {"language": "ru"}))
    everyone_hears()
    assert devices["Bob"].version_only == 1
    assert all(d.held == newest() for d in devices.values())

    started.step(by="Bob", do="income")  # the tablet's answer is lost on the way
    everyone_hears()
    assert devices["tablet"].held == newest()  # it fetched: the event was newer than its screen

    devices["Ann"].hang_up()
    devices["tablet"].hang_up()
    devices["Ann"].answer(started.phone_post("Ann", "/language", {"language": "uk"}))
    everyone_hears("Ann", "tablet")
    started.step(by="Cy", do="income")  # neither hears this one; the tablet's answer is lost
    everyone_hears("Ann", "tablet")
    for device in devices["Ann"], devices["tablet"]:  # back on the Wi-Fi
        device.listen()
        device.hear()
    assert devices["Ann"].version_only == 0  # the screen came in the event
    assert devices["tablet"].version_only == 3  # its own tap: the version, so it fetched
    assert {name: d.held for name, d in devices.items()} == dict.fromkeys(devices, newest())
    for device in devices.values():
        device.hang_up()


def test_a_stream_opened_behind_the_table_catches_up_with_the_screen_at_once(started: Table):
    version = int(version_of(started.page()))
    stream = started.phone("Cy").get(f"{started.link('Cy')}/events?since={version - 1}",
                                     buffered=False)
    chunks = iter(stream.response)
    next(chunks)
    assert version_of(screen_in(next(chunks))) == str(version)
    stream.close()


@pytest.mark.parametrize("since", ["", "abc", "-1", "99999999999999999999", "1e3"])
def test_an_odd_since_on_a_stream_is_taken_as_now(started: Table, since: str):
    started.app.extensions["tables"].broker.keepalive = 0.05
    stream = started.phone("Ann").get(f"{started.link('Ann')}/events?since={since}",
                                      buffered=False)
    assert stream.status_code == 200
    chunks = iter(stream.response)
    assert next(chunks).startswith(b":") and next(chunks).startswith(b":")  # only keepalives
    stream.close()


def test_a_remembered_prompt_cannot_be_changed_by_a_request(started: Table):
    """pending() is worked out once per state and shared by every screen: its options (which
    may hold a player's cards) are read-only."""
    from app.engine import pending

    game = started.live().game
    assert game is not None
    prompt = pending(game)[0]
    with pytest.raises(TypeError):
        prompt.options["hacked"] = 1  # type: ignore[index]
    assert "hacked" not in pending(game)[0].options
    actions = prompt.options["actions"]
    with pytest.raises(TypeError):
        actions.append({"action": "hacked"})  # the nested lists too, all the way down
    with pytest.raises(TypeError):
        actions[0]["targets"] = ["Ann"]
    assert pending(game)[0].options["actions"] == actions


def test_a_prompt_s_cards_are_read_only_and_still_read_as_a_list():
    """A prompt to lose an influence lists the player's own cards: no request may change them,
    and templates and JSON still read them as a list."""
    from app.engine.prompts import Prompt

    prompt = Prompt("Ann", "lose", {"cards": ["Duke", "Captain"], "why": {"n": [1]}})
    with pytest.raises(TypeError):
        prompt.options["cards"].append("Contessa")
    with pytest.raises(TypeError):
        prompt.options["why"]["n"].append(2)
    assert prompt.options["cards"] == ["Duke", "Captain"]
    assert json.dumps(prompt.options["cards"]) == '["Duke", "Captain"]'
