"""The live broker wakes streams when a table's version moves, and keeps them alive.

No test here waits for one timer to beat another: a publish that must wake a stream comes
before or during a wait of a minute, and either order gives the same answer."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.live import KEEPALIVE, OPENED, Broker, changed_event

ROOT = Path(__file__).resolve().parents[1]
LONG = 60.0  # a keepalive no test lives to see


def sse_events(sent: bytes | str) -> list[dict[str, str]]:
    """Parse server-sent events as a browser does (UTF-8): fields until a blank line; comments
    (lines starting with ':') are not events."""
    text = sent.decode() if isinstance(sent, bytes) else sent
    events, fields = [], {}
    for line in text.split("\n"):
        if not line:
            if fields:
                events.append(fields)
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value
    return events


def test_a_publish_reaches_an_open_stream_as_a_changed_event() -> None:
    broker = Broker(keepalive=LONG)
    events = broker.stream("t1", last_version=3)
    assert next(events) == OPENED and sse_events(OPENED) == []  # a comment: sent at once
    threading.Thread(target=broker.publish, args=("t1", 7)).start()
    assert sse_events(next(events)) == [{"event": "changed", "data": "7"}]
    events.close()


def test_a_quiet_stream_sends_a_keepalive_at_least_every_15_seconds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A vanished phone is noticed when a write to it fails, so a quiet stream writes a
    comment at least every 15 s (TOOLING.md)."""
    waits: list[float | None] = []

    def no_wait(self: threading.Event, timeout: float | None = None) -> bool:
        waits.append(timeout)
        return False

    monkeypatch.setattr(threading.Event, "wait", no_wait)
    events = Broker().stream("t1", last_version=0)
    next(events)
    assert next(events) == KEEPALIVE and sse_events(KEEPALIVE) == []
    assert next(events) == KEEPALIVE
    assert len(waits) == 2 and all(w is not None and 0 < w <= 15 for w in waits)
    events.close()


def test_old_or_repeated_versions_do_not_wake_a_stream() -> None:
    broker = Broker(keepalive=0.05)
    events = broker.stream("t1", last_version=5)
    next(events)
    broker.publish("t1", 5)  # the version the page already shows
    broker.publish("t1", 4)
    assert next(events) == KEEPALIVE
    broker.publish("t1", 6)
    assert sse_events(next(events)) == [{"event": "changed", "data": "6"}]
    events.close()


def test_a_step_before_the_stream_opened_is_caught_up_from_the_store() -> None:
    broker = Broker(keepalive=LONG)
    events = broker.stream("t1", last_version=2, current_version=lambda: 3)
    assert next(events) == OPENED
    assert sse_events(next(events)) == [{"event": "changed", "data": "3"}]
    events.close()


def test_other_tables_do_not_wake_a_stream() -> None:
    broker = Broker(keepalive=0.05)
    events = broker.stream("t1", last_version=0)
    next(events)
    broker.publish("t2", 9)
    assert next(events) == KEEPALIVE
    events.close()


LISTENERS = 5


def five_listeners_then(broker: Broker, hear: Callable[[Iterator[bytes]], None],
                        publish: Callable[[], None]) -> None:
    """Five threads each open a stream of "t1" and, once all five are open, ``hear`` it; then
    ``publish``, and wait for the five to finish."""
    ready = threading.Barrier(LISTENERS + 1)

    def listen() -> None:
        events = broker.stream("t1", last_version=0)
        next(events)
        ready.wait(timeout=30)
        hear(events)
        events.close()

    threads = [threading.Thread(target=listen, daemon=True) for _ in range(LISTENERS)]
    for thread in threads:
        thread.start()
    ready.wait(timeout=30)
    publish()
    for thread in threads:
        thread.join(timeout=30)


def test_many_listeners_all_hear_one_publish() -> None:
    broker = Broker(keepalive=LONG)
    received: list[bytes] = []
    lock = threading.Lock()

    def hear(events: Iterator[bytes]) -> None:
        event = next(events)
        with lock:
            received.append(event)

    five_listeners_then(broker, hear, lambda: broker.publish("t1", 1))
    assert [sse_events(e) for e in received] == [[{"event": "changed", "data": "1"}]] * 5


def test_closed_streams_leave_no_trace() -> None:
    """A table is in the broker while a stream watches it, and only then (white-box: the
    memory the broker holds follows the open streams, not the tables ever played)."""
    broker = Broker(keepalive=LONG)
    first = broker.stream("t1", 0)
    second = broker.stream("t1", 0)
    next(first)
    next(second)
    assert set(broker._channels) == {"t1"}
    first.close()
    assert set(broker._channels) == {"t1"}
    second.close()
    assert broker._channels == {}
    broker.publish("t1", 1)  # nobody listens: nothing is kept
    assert broker._channels == {}


GEVENT_SCRIPT = """
from gevent import monkey
monkey.patch_all()
import gevent
from app.live import Broker

broker = Broker(keepalive=60)
got = []

def listen(n):
    events = broker.stream("t1", 0)
    next(events)
    got.append(next(events))
    events.close()

listeners = [gevent.spawn(listen, n) for n in range(50)]
gevent.sleep(0)  # each listener runs until it waits on the broker
broker.publish("t1", 1)
gevent.joinall(listeners, timeout=30)
assert got == [b"event: changed\\ndata: 1\\n\\n"] * 50, got
assert broker._channels == {}
print("ok")
"""


def test_works_under_gevent_monkey_patching() -> None:
    """50 greenlets wait on the broker in one thread; one publish wakes them all."""
    done = subprocess.run(
        [sys.executable, "-c", GEVENT_SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_a_stream_ends_at_the_first_version_its_listener_may_no_longer_see() -> None:
    broker = Broker(keepalive=LONG)
    allowed_until = 7
    asked: list[int] = []

    def still_allowed(version: int) -> bool:
        asked.append(version)
        return version <= allowed_until

    events = broker.stream("t1", last_version=5, still_allowed=still_allowed)
    assert next(events) == OPENED
    broker.publish("t1", 7)
    assert sse_events(next(events)) == [{"event": "changed", "data": "7"}]
    broker.publish("t1", 8)  # say, the seat's link was re-issued in this change
    assert list(events) == []  # ended, without telling the old listener about version 8
    assert asked == [7, 8]
    assert broker._channels == {}  # and it left the broker


def test_a_listener_that_holds_the_screen_already_gets_only_the_version() -> None:
    """``draw`` says HELD for the version a device got in its own tap's answer: the event then
    carries the version alone (the device fetches if its screen is older); any other version
    comes with its screen."""
    from app.live import HELD

    broker = Broker(keepalive=LONG)
    events = broker.stream("t1", last_version=5,
                           draw=lambda v: HELD if v == 6 else f'<p data-version="{v}">x</p>')
    assert next(events) == OPENED
    broker.publish("t1", 6)
    assert sse_events(next(events)) == [{"event": "changed", "data": "6"}]
    broker.publish("t1", 7)
    assert sse_events(next(events)) == [{"event": "changed", "data": '<p data-version="7">x</p>'}]
    events.close()


def test_answered_notes_the_newest_version_per_device_and_forgets_the_oldest() -> None:
    from app.web.answered import Answered

    given = Answered(size=2)
    given.note("t1", "phone", 4)
    given.note("t1", "phone", 3)  # a late note of an older answer changes nothing
    assert given.holds("t1", "phone", 4) and given.holds("t1", "phone", 2)
    assert not given.holds("t1", "phone", 5)
    assert not given.holds("t2", "phone", 4) and not given.holds("t1", "tablet", 4)
    given.note("t1", "tablet", 1)
    given.note("t2", "phone", 1)  # a third device: the least recent one goes
    assert len(given) == 2 and not given.holds("t1", "phone", 4)
    assert given.holds("t1", "tablet", 1) and given.holds("t2", "phone", 1)


@pytest.mark.parametrize("screen", [
    '<div data-version="4">\n  <p>one</p>\n\n  <p>two</p>\n</div>\n',
    '<p>crlf</p>\r\n<p>and cr</p>\r<p>end</p>',
    "<p>one line</p>",
    "\n\n<p>blank lines around</p>\n\n",
    "<p>Ann’s turn</p>\r\n<p>Бора — 3</p>\n",  # UTF-8 of more than one byte a character
])
def test_a_screen_in_an_event_is_one_data_line_per_line_and_reads_back_whole(screen: str) -> None:
    """Every line of the screen is a data line (a browser joins them with LF): CR and CRLF end
    a line too, so they can't cut a field short; nothing else of the screen changes."""
    text = changed_event(4, screen).decode()
    assert text.startswith("event: changed\n") and text.endswith("\n\n")
    assert "\r" not in text
    body = text[len("event: changed\n"):-2].split("\n")
    assert all(line.startswith("data: ") for line in body)
    expected = screen.strip().replace("\r\n", "\n").replace("\r", "\n")
    assert "\n".join(line[len("data: "):] for line in body) == expected
    # The UTF-8 bytes a fragment cache keeps of the screen make the same event.
    assert changed_event(4, screen.encode()) == changed_event(4, screen)


def test_no_publish_is_lost_between_a_stream_reading_the_version_and_waiting() -> None:
    """Publishes racing the listeners' wake-ups: each listener still reaches the last version
    (a lost wake-up would leave it waiting a minute for a keepalive, and the join would fail)."""
    broker = Broker(keepalive=LONG)
    last = 300
    reached: list[int] = []

    def hear(events: Iterator[bytes]) -> None:
        version = 0
        while version < last:
            version = int(sse_events(next(events))[0]["data"])
        reached.append(version)

    def publish_all() -> None:
        for version in range(1, last + 1):
            broker.publish("t1", version)

    five_listeners_then(broker, hear, publish_all)
    assert reached == [last] * 5
