"""The live broker wakes streams when a table's version moves, and keeps them alive."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from app.live import KEEPALIVE, KEEPALIVE_S, OPENED, Broker, changed_event

ROOT = Path(__file__).resolve().parents[1]


def publish_later(broker: Broker, table_id: str, version: int, delay: float = 0.05) -> None:
    timer = threading.Timer(delay, broker.publish, args=(table_id, version))
    timer.daemon = True
    timer.start()


def test_keepalive_default_is_at_most_15_seconds() -> None:
    assert KEEPALIVE_S <= 15


def test_event_format() -> None:
    assert changed_event(7) == "event: changed\ndata: 7\n\n"
    assert KEEPALIVE == ": keepalive\n\n"


def test_stream_opens_at_once_then_reports_a_publish() -> None:
    broker = Broker(keepalive=5)
    events = broker.stream("t1", last_version=3)
    assert next(events) == OPENED
    publish_later(broker, "t1", 4)
    started = time.monotonic()
    assert next(events) == changed_event(4)
    assert time.monotonic() - started < 1
    events.close()


def test_keepalive_when_nothing_happens() -> None:
    broker = Broker(keepalive=0.1)
    events = broker.stream("t1", last_version=0)
    next(events)
    assert next(events) == KEEPALIVE
    assert next(events) == KEEPALIVE
    events.close()


def test_old_or_repeated_versions_do_not_wake_a_stream() -> None:
    broker = Broker(keepalive=0.2)
    events = broker.stream("t1", last_version=5)
    next(events)
    publish_later(broker, "t1", 5)  # the version the page already shows
    assert next(events) == KEEPALIVE
    publish_later(broker, "t1", 6)
    assert next(events) == changed_event(6)
    events.close()


def test_a_step_before_the_stream_opened_is_caught_up_from_the_store() -> None:
    broker = Broker(keepalive=5)
    events = broker.stream("t1", last_version=2, current_version=lambda: 3)
    assert next(events) == OPENED
    assert next(events) == changed_event(3)
    events.close()


def test_other_tables_do_not_wake_a_stream() -> None:
    broker = Broker(keepalive=0.2)
    events = broker.stream("t1", last_version=0)
    next(events)
    publish_later(broker, "t2", 9)
    assert next(events) == KEEPALIVE
    events.close()


def test_many_listeners_all_hear_one_publish() -> None:
    broker = Broker(keepalive=5)
    received: list[str] = []
    lock = threading.Lock()
    ready = threading.Barrier(6)

    def listen() -> None:
        events = broker.stream("t1", last_version=0)
        next(events)
        ready.wait(timeout=5)
        event = next(events)
        with lock:
            received.append(event)
        events.close()

    threads = [threading.Thread(target=listen, daemon=True) for _ in range(5)]
    for thread in threads:
        thread.start()
    ready.wait(timeout=5)
    broker.publish("t1", 1)
    for thread in threads:
        thread.join(timeout=5)
    assert received == [changed_event(1)] * 5


def test_closed_streams_leave_no_trace() -> None:
    broker = Broker(keepalive=5)
    first = broker.stream("t1", 0)
    second = broker.stream("t1", 0)
    next(first)
    next(second)
    assert broker.watched() == {"t1": 2}
    first.close()
    assert broker.watched() == {"t1": 1}
    second.close()
    assert broker.watched() == {}
    broker.publish("t1", 1)  # nobody listens: nothing is kept
    assert broker.watched() == {}


GEVENT_SCRIPT = """
from gevent import monkey
monkey.patch_all()
import gevent
from app.live import Broker, changed_event

broker = Broker(keepalive=0.2)
got = []

def listen(n):
    events = broker.stream("t1", 0)
    next(events)
    got.append(next(events))
    events.close()

listeners = [gevent.spawn(listen, n) for n in range(50)]
gevent.sleep(0.05)
broker.publish("t1", 1)
gevent.joinall(listeners, timeout=5)
assert got == [changed_event(1)] * 50, got
assert broker.watched() == {}
print("ok")
"""


def test_works_under_gevent_monkey_patching() -> None:
    """50 greenlets wait on the broker in one thread; one publish wakes them all."""
    done = subprocess.run(
        [sys.executable, "-c", GEVENT_SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
