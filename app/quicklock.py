"""The lock of a memo or a pool: a short section (a dict's or a list's lookups and stores)
that never waits.

Under ``coup-referee serve`` gevent has monkey-patched ``threading``, and its ``Lock`` is a
semaphore that knows greenlets: each acquire looks up the hub in Python-level code, a few
hundred lock uses a tap (measured with py-spy's native frames on ``bench/load.py 300``: ~5% of
the server's CPU). A section that never waits (no I/O, no sleep, no other lock, no greenlet
started) can't be entered by another greenlet while one holds it, so the operating system's
own lock is all it needs; it is correct with real threads too (Flask's development server,
the tests). The collector may run a finalizer inside such a section: none in this code waits
(the one lock a finalizer can take, the broker's when a stream ends, is never held across a
wait), so no greenlet is switched away from a held quick lock.
"""

from __future__ import annotations

import _thread
import sys


def quick_lock() -> _thread.LockType:
    """The operating system's lock, even once gevent has patched ``threading``."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None:
        return _thread.allocate_lock()
    lock: _thread.LockType = monkey.get_original("_thread", "allocate_lock")()
    return lock
