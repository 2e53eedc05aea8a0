"""The deliverer: writes the events of the streams a server handed over (:mod:`app.live`).

One thread (a greenlet under gevent) for the whole broker, while it has a stream handed
over: a publish names the table's channel, and the deliverer writes each of its
handed-over streams' events (drawn here, in the stream's own request context); every second
it sends a keepalive to each stream quiet for the broker's ``keepalive`` and ends the streams
whose connection is gone. It never waits for a reader: an :class:`~app.live.Outlet` writes
what a slow reader does not take at once later, on its own.
"""

from __future__ import annotations

import _thread
import threading
import time
import traceback
from collections import deque
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from app.live import Broker, Stream, _Channel

SWEEP_S: Final = 1.0
"""How often the deliverer looks for streams quiet for a keepalive's time (so a keepalive goes
out between 15 and 16 s after the last write) and for connections gone."""


class Deliverer:
    """The writer of every handed-over stream of one broker."""

    def __init__(self, broker: Broker) -> None:
        self._broker = broker
        self._due: deque[_Channel] = deque()  # channels that moved, in the order they did
        self._streams: set[Stream] = set()
        self._wake = threading.Event()
        self._thread: int | None = None  # the running thread's identifier

    def add(self, stream: Stream, channel: _Channel) -> None:
        """Write ``stream``'s events from now on (the broker's lock held)."""
        self._streams.add(stream)
        if channel.version > stream.seen:  # published while its opening was on its way
            self.due(channel)
        if self._thread is None:
            # Not Thread.start, which waits for the thread to begin (under gevent, a switch to
            # another greenlet with the broker's lock held): that lock never waits, so neither
            # does a finalizer that takes it (a stream's end; app/quicklock.py says why).
            self._thread = _thread.start_new_thread(self._run, ())

    def due(self, channel: _Channel) -> None:
        """``channel`` moved: its handed-over streams get their events."""
        self._due.append(channel)
        self._wake.set()

    def _run(self) -> None:
        swept = time.monotonic()
        while not self._idle():
            every = min(SWEEP_S, self._broker.keepalive / 2)
            self._wake.wait(every)
            self._wake.clear()
            while self._due:
                channel = self._due.popleft()
                for stream in list(channel.handed_over):
                    if stream.seen < channel.version:
                        self._deliver(stream, channel.version)
            now = time.monotonic()
            if now - swept >= every:
                swept = now
                self._sweep(now)

    def _idle(self) -> bool:
        """No stream left to write to: the thread ends (the next hand-over starts another)."""
        with self._broker._lock:
            if self._streams or self._due:
                return False
            self._thread = None
            return True

    def _sweep(self, now: float) -> None:
        """A keepalive to each stream quiet for ``keepalive`` (a write to a vanished phone
        fails, which ends it), and the end of each whose connection is gone."""
        keepalive = self._broker.keepalive
        for stream in list(self._streams):
            outlet = stream.outlet
            assert outlet is not None
            if outlet.closed or (not outlet.busy and now - stream.last_sent >= keepalive):
                self._deliver(stream, stream.seen)

    def _deliver(self, stream: Stream, version: int) -> None:
        """``stream``'s event at ``version`` (a keepalive if it sent that one), written; the
        stream ended if it says so, if its connection is gone, or if drawing it failed (a bug,
        said in the server's log: the device reconnects)."""
        outlet = stream.outlet
        assert outlet is not None
        chunk: bytes | None = None
        if not outlet.closed:
            try:
                chunk = stream.after(version)
            except Exception:
                traceback.print_exc()
        if chunk is not None:
            outlet.send(chunk)
            stream.last_sent = time.monotonic()
        if chunk is None or outlet.closed:
            outlet.close()
            self._streams.discard(stream)
            stream._leave()
