"""Live updates: an in-process broker that tells SSE streams "table X is now at version N".

Why it looks like this:

- A push carries the listener's fresh screen, or only the version when it has it already; a
  lost push costs nothing (the page fetches when its stream says nothing for a while), so the
  broker needs no queue, only the newest version per table.
- One ``threading.Event`` per watched table and version: a publish sets the table's event and
  puts a fresh one in its place, so an iterated stream waits on nothing but that event (no
  lock of its own, no condition's waiter). Under the dev server such a stream holds a thread;
  after ``gevent.monkey.patch_all()`` the same primitives are cooperative.
- A table appears in the broker when its first stream opens and leaves with its last one, so
  memory follows the open streams, not the number of tables ever played.
- A keepalive comment at least every 15 s makes the write to a vanished phone fail, which ends
  its stream (TOOLING.md: otherwise it is held until the next real event).
- A stream served by our gevent server does not keep a greenlet for the evening: once its
  head and opening are out, the server hands its connection over (:meth:`Stream.take_over`)
  and one deliverer writes every handed-over stream's events and keepalives (a parked
  greenlet, its saved stack and its request's objects were ~21 KiB a stream, 2,100 streams at
  300 tables: docs/PERFORMANCE-HISTORY.md). Any other server (Flask's, the tests' client) iterates
  the same :class:`Stream`; both ways send the same bytes, made by the same methods.
- One server process only (the gevent server in :mod:`app.server`); each app holds its own
  broker (``app.extensions``), beside its service.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Final, Protocol

from app.deliverer import Deliverer

KEEPALIVE_S: Final = 15.0

SSE_HEADERS: Final = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",  # tell a reverse proxy, if any, not to buffer the stream
}
"""Headers for the streaming response that wraps :func:`stream`."""

Draw = Callable[[int], str | bytes | None]
"""A stream's screen at a version: text, or the UTF-8 bytes kept of it; :data:`HELD`; None."""

HELD: Final = ""
"""What a stream's ``draw`` gives for a listener that holds its screen at that version already
(the answer to its own tap): the event then carries only the version (see ``static/app.js``)."""

OPENED: Final = b": open\n\n"
KEEPALIVE: Final = b": keepalive\n\n"


def changed_event(version: int, screen: str | bytes | None = None) -> bytes:
    """The SSE event for "the table is now at ``version``", as sent (UTF-8): its data is the
    listener's fresh ``screen`` (an HTML fragment, swapped in by htmx's ``sse-swap``; as text,
    or as the UTF-8 bytes kept of it) when there is one, else the version (the listener then
    fetches its screen)."""
    if screen is None:
        return b"event: changed\ndata: %d\n\n" % version
    data = screen.strip() if isinstance(screen, bytes) else screen.strip().encode()
    if b"\r" in data:  # SSE ends a line at CR, LF or CRLF: each becomes a line of data
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    # Each line is a "data:" line (a browser joins them with LF again): one replace over the
    # bytes, not a string per line, encoded first (on bytes it is a third of the work on text).
    return b"".join((b"event: changed\ndata: ", data.replace(b"\n", b"\ndata: "), b"\n\n"))


def _event(version: int, draw: Draw | None) -> bytes | None:
    """The event for ``version``, or None to end the stream."""
    if draw is None:
        return changed_event(version)
    screen = draw(version)
    if screen is None:
        return None
    return changed_event(version, screen) if screen != HELD else changed_event(version)


class LiveUpdates(Protocol):
    """What the service and the routes need of live updates, and all of it: the seam where
    another broker (Valkey/Redis pub/sub, for tables served by several processes:
    docs/SCALING.md) plugs in. :class:`Broker` is the one-process implementation."""

    def publish(self, table_id: str, version: int) -> None:
        """Tell every stream of ``table_id``, in every process, that it is at ``version``."""

    def stream(self, table_id: str, last_version: int,
               current_version: Callable[[], int] | None = None,
               still_allowed: Callable[[int], bool] | None = None,
               draw: Draw | None = None) -> Stream:
        """One screen's SSE stream, as :meth:`Broker.stream` describes."""
        raise NotImplementedError


class Outlet(Protocol):
    """A connection a server handed over with its stream (:meth:`Stream.take_over`), its
    response's head and opening sent: the events go out through it as the server would have
    written them (chunked, if the response is)."""

    busy: bool
    """Still writing an earlier event to a slow reader (a keepalive would tell it nothing)."""
    closed: bool
    """Gone: the reader went away or stalled, or the stream was ended."""
    on_gone: Callable[[], None] | None
    """Called when the reader goes away or stalls (the deliverer ends the stream at once)."""

    def send(self, data: bytes) -> None:
        """Write ``data`` without waiting for the reader (what it does not take at once is
        written later; an event sent before that replaces any other still waiting)."""

    def close(self) -> None:
        """End the response and the connection."""


class _Channel:
    """A watched table: its newest version, the event its next publish sets, and its streams
    handed over by the server.

    The order is what makes it safe without a lock for the waiters: a publish writes the version
    first, then swaps the event, then sets the old one; a stream reads the event first, then the
    version. A stream that read the old event is woken by its ``set``; one that read the new
    event reads the new version too, and so does not wait."""

    __slots__ = ("changed", "version", "listeners", "handed_over")

    def __init__(self) -> None:
        self.changed = threading.Event()
        self.version = -1  # unknown until a publish; streams also read the store on open
        self.listeners = 0
        self.handed_over: set[Stream] = set()

    def advance(self, version: int) -> bool:
        """Move to ``version`` and wake the streams waiting (the caller holds the broker's
        lock, so two publishes never interleave); whether it moved."""
        if version <= self.version:
            return False
        self.version = version
        woken, self.changed = self.changed, threading.Event()
        woken.set()
        return True

    def newer_than(self, seen: int, timeout: float) -> int:
        """The version, once it is newer than ``seen`` or ``timeout`` seconds have passed."""
        changed = self.changed
        version = self.version
        if version <= seen:
            changed.wait(timeout)
            version = self.version
        return version


class Stream:
    """One screen's SSE stream, as UTF-8: an opening comment, then ``changed`` events and
    keepalives. Served two ways, with the same bytes: iterated (any WSGI server: a thread or
    greenlet waits in it between events), or handed over by our server once its opening is
    out (:meth:`take_over`), after which the broker's deliverer writes its events. It is the
    server's response iterable itself (no generator between them to save with a parked
    greenlet's stack), and it holds no event while it waits for the next one.

    ``last_version`` is the version the client's page shows. ``current_version`` (say, a
    store read) is called once the stream is registered, so a step appended between the
    page render and the stream opening is not missed. ``still_allowed(version)`` (say, "this
    phone still holds its seat at that version") is asked on every wake-up, before anything
    is sent: once it says no, the stream ends at once (a seat's link re-issued is published
    like any change, so the old phone's stream ends with that publish). Closing it (the
    server does it when the client goes away) unregisters the stream. ``draw(version)`` is
    the listener's screen at that version, sent inside the event so the device needs no
    second request; when it gives :data:`HELD` the event carries only the version (the
    listener has that screen already); when it gives None the stream ends (the screen is no
    longer this listener's).
    """

    __slots__ = ("_broker", "table_id", "seen", "_current", "_allowed", "_draw", "_channel",
                 "_iterating", "outlet", "last_sent")

    def __init__(self, broker: Broker, table_id: str, last_version: int,
                 current_version: Callable[[], int] | None,
                 still_allowed: Callable[[int], bool] | None,
                 draw: Draw | None) -> None:
        self._broker, self.table_id, self.seen = broker, table_id, last_version
        self._current, self._allowed, self._draw = current_version, still_allowed, draw
        self._channel: _Channel | None = None
        self._iterating: Iterator[bytes] | None = None
        self.outlet: Outlet | None = None
        self.last_sent = 0.0

    def opening(self) -> tuple[list[bytes], bool]:
        """Join the table's channel; what goes first (the opening comment, which sends the
        headers now so the browser sees the stream open, and the event of a step appended
        since the page was drawn), and whether the stream goes on after it."""
        self._channel = self._broker._join(self.table_id)
        sent = [OPENED]
        if self._current is not None:
            now = self._current()
            if now > self.seen:
                event = self.after(now)
                if event is None:
                    return sent, False
                sent.append(event)
        return sent, True

    def after(self, version: int) -> bytes | None:
        """What the stream sends on waking at ``version``: its event if that is newer than
        what it sent, else a keepalive; None to end it."""
        if self._allowed is not None and not self._allowed(version):
            return None
        if version <= self.seen:
            return KEEPALIVE
        self.seen = version
        return _event(version, self._draw)

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        if self._iterating is None:
            self._iterating = self._events()
        return next(self._iterating)

    def _events(self) -> Iterator[bytes]:
        try:
            sent, more = self.opening()
            yield from sent
            del sent
            while more:
                assert self._channel is not None
                chunk = self.after(self._channel.newer_than(self.seen, self._broker.keepalive))
                if chunk is None:
                    return
                yield chunk
                del chunk  # a parked stream holds no screen (2,100 of them would)
        finally:
            self._leave()

    def close(self) -> None:
        """The server is done with the response: unregister, unless it handed the stream
        over (the deliverer ends it with its connection)."""
        if self.outlet is None:
            if self._iterating is not None:
                self._iterating.close()  # type: ignore[attr-defined]
            self._leave()

    def take_over(self, outlet: Outlet) -> None:
        """From now on the broker writes this stream's events to ``outlet`` (its opening was
        sent, :meth:`opening` said it goes on), and ends it there."""
        self.outlet, self.last_sent = outlet, time.monotonic()
        self._broker._hand_over(self)

    def _leave(self) -> None:
        channel, self._channel = self._channel, None
        if channel is not None:
            self._broker._leave(self.table_id, channel, self)


class Broker:
    """Fan-out of table versions to the streams of this process."""

    def __init__(self, keepalive: float = KEEPALIVE_S) -> None:
        self.keepalive = keepalive
        self._lock = threading.Lock()
        self._channels: dict[str, _Channel] = {}
        self._deliverer = Deliverer(self)

    def publish(self, table_id: str, version: int) -> None:
        """Wake the streams of ``table_id``. A table nobody watches costs nothing."""
        with self._lock:
            channel = self._channels.get(table_id)
            if channel is not None and channel.advance(version) and channel.handed_over:
                self._deliverer.due(channel)

    def stream(self, table_id: str, last_version: int,
               current_version: Callable[[], int] | None = None,
               still_allowed: Callable[[int], bool] | None = None,
               draw: Draw | None = None) -> Stream:
        """One client's SSE stream (:class:`Stream` says what it sends, and when)."""
        return Stream(self, table_id, last_version, current_version, still_allowed, draw)

    def _join(self, table_id: str) -> _Channel:
        with self._lock:
            channel = self._channels.get(table_id)
            if channel is None:
                channel = self._channels[table_id] = _Channel()
            channel.listeners += 1
            return channel

    def _leave(self, table_id: str, channel: _Channel, stream: Stream) -> None:
        with self._lock:
            channel.listeners -= 1
            channel.handed_over.discard(stream)
            if channel.listeners == 0 and self._channels.get(table_id) is channel:
                del self._channels[table_id]

    def _hand_over(self, stream: Stream) -> None:
        with self._lock:
            channel = stream._channel
            if channel is None:
                return
            channel.handed_over.add(stream)
            self._deliverer.add(stream, channel)
