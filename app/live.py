"""Live updates: an in-process broker that tells SSE streams "table X is now at version N".

Why it looks like this:

- The push carries only the version; each page then fetches its own fresh view. A lost push costs
  nothing, so the broker needs no queue, only the newest version per table.
- One ``threading.Event`` per watched table and version: a publish sets the table's event and
  puts a fresh one in its place, so a parked stream waits on nothing but that event (no lock of
  its own, no condition's waiter). Under the dev server each stream holds a thread; after
  ``gevent.monkey.patch_all()`` the same primitives are cooperative and a stream costs a
  greenlet. The code is the same in both worlds.
- A table appears in the broker when its first stream opens and leaves with its last one, so
  memory follows the open streams, not the number of tables ever played.
- A keepalive comment at least every 15 s makes the write to a vanished phone fail, which ends
  its stream (TOOLING.md: otherwise it is held until the next real event).
- This works within **one server process** only (the gevent server in :mod:`app.server`). Each
  app holds its own broker (``app.extensions``), beside its service.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Final, Protocol

KEEPALIVE_S: Final = 15.0

SSE_HEADERS: Final = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",  # tell a reverse proxy, if any, not to buffer the stream
}
"""Headers for the streaming response that wraps :func:`stream`."""

HELD: Final = ""
"""What a stream's ``draw`` gives for a listener that holds its screen at that version already
(the answer to its own tap): the event then carries only the version (see ``static/app.js``)."""

OPENED: Final = b": open\n\n"
KEEPALIVE: Final = b": keepalive\n\n"


def changed_event(version: int, screen: str | None = None) -> bytes:
    """The SSE event for "the table is now at ``version``", as sent (UTF-8): its data is the
    listener's fresh ``screen`` (an HTML fragment, swapped in by htmx's ``sse-swap``) when
    there is one, else the version (the listener then fetches its screen)."""
    if screen is None:
        return b"event: changed\ndata: %d\n\n" % version
    data = screen.strip().encode()
    if b"\r" in data:  # SSE ends a line at CR, LF or CRLF: each becomes a line of data
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    # Each line of the screen is a "data:" line (a browser joins them with LF again): one
    # replace over the bytes, not a string per line (a phone's screen has a few hundred lines),
    # and the encoding done first (on bytes the replace is a third of the work on text).
    return b"".join((b"event: changed\ndata: ", data.replace(b"\n", b"\ndata: "), b"\n\n"))


def _event(version: int, draw: Callable[[int], str | None] | None) -> bytes | None:
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
               draw: Callable[[int], str | None] | None = None) -> Iterator[bytes]:
        """One screen's SSE stream, as :meth:`Broker.stream` describes."""
        raise NotImplementedError


class _Channel:
    """A watched table: its newest version, and the event its next publish sets.

    The order is what makes it safe without a lock for the waiters: a publish writes the version
    first, then swaps the event, then sets the old one; a stream reads the event first, then the
    version. A stream that read the old event is woken by its ``set``; one that read the new
    event reads the new version too, and so does not wait."""

    __slots__ = ("changed", "version", "listeners")

    def __init__(self) -> None:
        self.changed = threading.Event()
        self.version = -1  # unknown until a publish; streams also read the store on open
        self.listeners = 0

    def advance(self, version: int) -> None:
        """Move to ``version`` and wake the streams waiting (the caller holds the broker's
        lock, so two publishes never interleave)."""
        if version > self.version:
            self.version = version
            woken, self.changed = self.changed, threading.Event()
            woken.set()

    def newer_than(self, seen: int, timeout: float) -> int:
        """The version, once it is newer than ``seen`` or ``timeout`` seconds have passed."""
        changed = self.changed
        version = self.version
        if version <= seen:
            changed.wait(timeout)
            version = self.version
        return version


class Broker:
    """Fan-out of table versions to the streams of this process."""

    def __init__(self, keepalive: float = KEEPALIVE_S) -> None:
        self.keepalive = keepalive
        self._lock = threading.Lock()
        self._channels: dict[str, _Channel] = {}

    def publish(self, table_id: str, version: int) -> None:
        """Wake the streams of ``table_id``. A table nobody watches costs nothing."""
        with self._lock:
            channel = self._channels.get(table_id)
            if channel is not None:
                channel.advance(version)

    def _join(self, table_id: str) -> _Channel:
        with self._lock:
            channel = self._channels.get(table_id)
            if channel is None:
                channel = self._channels[table_id] = _Channel()
            channel.listeners += 1
            return channel

    def _leave(self, table_id: str, channel: _Channel) -> None:
        with self._lock:
            channel.listeners -= 1
            if channel.listeners == 0 and self._channels.get(table_id) is channel:
                del self._channels[table_id]

    def stream(
        self,
        table_id: str,
        last_version: int,
        current_version: Callable[[], int] | None = None,
        still_allowed: Callable[[int], bool] | None = None,
        draw: Callable[[int], str | None] | None = None,
    ) -> Iterator[bytes]:
        """SSE for one client, as UTF-8: an opening comment, then ``changed`` events and
        keepalives. It is the server's response iterable as it is (no generator of Flask's or
        ours between them: each would add a level to what a parked stream's greenlet saves of
        its stack), and it holds no event while it waits for the next one.

        ``last_version`` is the version the client's page shows. ``current_version`` (say, a
        store read) is called once the stream is registered, so a step appended between the
        page render and the stream opening is not missed. ``still_allowed(version)`` (say, "this
        phone still holds its seat at that version") is asked on every wake-up, before anything
        is sent: once it says no, the stream ends at once (a seat's link re-issued is published
        like any change, so the old phone's stream ends with that publish). Closing the
        generator (the server does it when the client goes away) unregisters the stream.
        ``draw(version)`` is the listener's screen at that version, sent inside the event so
        the device needs no second request; when it gives :data:`HELD` the event carries only
        the version (the listener has that screen already); when it gives None the stream
        ends (the screen is no longer this listener's).
        """
        channel = self._join(table_id)
        try:
            seen = last_version
            # The first chunk sends the headers now, so the browser sees the stream open.
            yield OPENED
            if current_version is not None:
                now = current_version()
                if now > seen:
                    if still_allowed is not None and not still_allowed(now):
                        return
                    seen = now
                    event = _event(now, draw)
                    if event is None:
                        return
                    yield event
                    del event  # a parked stream holds no screen (2,100 of them would)
            while True:
                version = channel.newer_than(seen, self.keepalive)
                if still_allowed is not None and not still_allowed(version):
                    return
                if version > seen:
                    seen = version
                    event = _event(version, draw)
                    if event is None:
                        return
                    yield event
                    del event
                else:
                    yield KEEPALIVE
        finally:
            self._leave(table_id, channel)

