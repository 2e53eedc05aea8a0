"""The deliverer: writes the events of the streams a server handed over (:mod:`app.live`).

One thread (a greenlet under gevent) for the whole broker, while it has a stream handed
over: a publish names the table's channel, and the deliverer writes each of its
handed-over streams' events (drawn here, in the stream's own request context); it sends a
keepalive to each stream quiet for the broker's ``keepalive``, and ends each stream whose
connection is gone as its outlet says so. Between those it sleeps: it wakes when the first
keepalive is due, not every second (an idle server's wake-ups were most of its work at one
table: docs/PERFORMANCE-HISTORY.md). It never waits for a reader: an :class:`~app.live.Outlet`
writes what a slow reader does not take at once later, on its own.
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

BUSY_S: Final = 1.0
"""How soon the deliverer looks again at a stream whose keepalive is due while its outlet is
still writing to a slow reader (a keepalive would tell that reader nothing)."""


class Deliverer:
    """The writer of every handed-over stream of one broker."""

    def __init__(self, broker: Broker) -> None:
        self._broker = broker
        self._due: deque[_Channel] = deque()  # channels that moved, in the order they did
        self._streams: set[Stream] = set()
        self._gone: deque[Stream] = deque()  # streams whose outlet said its reader went
        self._wake = threading.Event()
        self._thread: int | None = None  # the running thread's identifier

    def add(self, stream: Stream, channel: _Channel) -> None:
        """Write ``stream``'s events from now on (the broker's lock held). Its first
        keepalive is due no sooner than any other stream's (each is ``keepalive`` after the
        stream's last write), so the deliverer's sleep needs no change."""
        self._streams.add(stream)
        assert stream.outlet is not None
        stream.outlet.on_gone = lambda: self.gone(stream)
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

    def gone(self, stream: Stream) -> None:
        """``stream``'s reader went away or stalled (its outlet says so): it ends now."""
        self._gone.append(stream)
        self._wake.set()

    def _run(self) -> None:
        sweep_at = time.monotonic() + self._broker.keepalive  # no keepalive due before it
        while not self._idle():
            self._wake.wait(max(0.0, sweep_at - time.monotonic()))
            self._wake.clear()
            while self._due:
                channel = self._due.popleft()
                for stream in list(channel.handed_over):
                    if stream.seen < channel.version:
                        self._deliver(stream, channel.version)
            while self._gone:
                stream = self._gone.popleft()
                if stream in self._streams:
                    self._deliver(stream, stream.seen)
            now = time.monotonic()
            if now >= sweep_at:
                sweep_at = self._sweep(now)

    def _idle(self) -> bool:
        """No stream left to write to: the thread ends (the next hand-over starts another)."""
        with self._broker._lock:
            if self._streams or self._due:
                return False
            self._thread = None
            return True

    def _sweep(self, now: float) -> float:
        """A keepalive to each stream quiet for ``keepalive`` (a write to a vanished phone
        fails, which ends it), and the end of each whose connection is gone; when to look
        again: when the next keepalive is due."""
        keepalive = self._broker.keepalive
        sweep_at = now + keepalive
        for stream in list(self._streams):
            outlet = stream.outlet
            assert outlet is not None
            due = stream.last_sent + keepalive
            if outlet.closed or (not outlet.busy and due <= now):
                self._deliver(stream, stream.seen)
            else:
                sweep_at = min(sweep_at, now + BUSY_S if due <= now else due)
        return sweep_at

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
            outlet.on_gone = None  # it held the stream: a cycle the collector would walk
            outlet.close()
            self._streams.discard(stream)
            stream._leave()
