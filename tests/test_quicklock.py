"""The memos' and pools' locks are the operating system's, even once gevent has patched
``threading`` (app/quicklock.py): their sections never wait, and gevent's lock costs a hub
look-up at every acquire. The broker's lock stays gevent's, and never waits either: a finalizer
that takes it (a stream's end) can't switch away from a held quick lock."""

from __future__ import annotations

import _thread
import json
import subprocess
import sys
from pathlib import Path

from app.quicklock import quick_lock

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
from gevent import monkey
monkey.patch_all()
import json, threading
from app.engine.memo import ByIdentity
from app.live import Broker
from app.web.fragments import Fragments
from app.web.state import StateCache

native = monkey.get_original("_thread", "LockType")
print(json.dumps({
    "patched": type(threading.Lock()) is not native,
    "memo": type(ByIdentity(lambda thing: thing, 8)._lock) is native,
    "fragments": type(Fragments()._lock) is native,
    "states": type(StateCache()._lock) is native,
    "broker": type(Broker()._lock) is native,
}))
"""


def test_a_quick_lock_is_the_operating_systems_lock() -> None:
    lock = quick_lock()
    assert type(lock) is _thread.LockType
    with lock:
        assert not lock.acquire(blocking=False)
    assert lock.acquire(blocking=False)


def test_under_gevent_the_memos_locks_are_the_operating_systems_and_the_brokers_is_not() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"patched": True, "memo": True, "fragments": True,
                                       "states": True, "broker": False}


HAND_OVER = """
from gevent import monkey
monkey.patch_all()
import greenlet, json
from app.live import Broker

class Outlet:
    busy = closed = False
    def send(self, data): pass
    def close(self): self.closed = True

broker = Broker()
stream = broker.stream("t", 0)
stream.opening()
switches = []
greenlet.settrace(lambda event, args: switches.append(event))
stream.take_over(Outlet())  # the first hand-over starts the deliverer, under the broker's lock
greenlet.settrace(None)
print(json.dumps({"switches": switches, "started": broker._deliverer._thread is not None}))
"""


def test_starting_the_deliverer_under_the_brokers_lock_switches_to_no_other_greenlet() -> None:
    done = subprocess.run([sys.executable, "-c", HAND_OVER], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"switches": [], "started": True}
