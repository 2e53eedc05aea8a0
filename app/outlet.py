"""An event stream's connection, handed over by its handler: written to without a greenlet.

Once a stream's head and opening are out, :class:`app.wsgi.LimitedHandler` gives its
connection to the broker (:meth:`app.live.Stream.take_over`) and its greenlet ends: the
broker's deliverer writes each event through a :class:`SocketOutlet`, which never waits for the
reader. An event (a few KB) nearly always goes in one send; what a slow reader does not take
at once is written by a greenlet of its own, bounded like every write by the socket's timeout
(``Limits.stall_s``), and an event sent meanwhile replaces any other still waiting (a screen
makes the one before it worthless). The socket's send buffer is small and fixed
(:data:`SEND_BUFFER`), so a reader that stopped reading holds little in the kernel and is
ended ``stall_s`` after its buffer filled. A reader that goes away is noticed at once (its
end of the connection read), not at the next write. Import this module only under gevent
(:mod:`app.wsgi`).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any, Final

import gevent
from gevent.pool import Group, Pool

LAST_CHUNK: Final = b"0\r\n\r\n"

SEND_BUFFER: Final = 64 * 1024
"""A handed-over stream's send buffer (Linux doubles it): a few screens. Left to itself the
kernel grows a stalled reader's buffer to ~1.5 MiB before a write waits at all."""


class SocketOutlet:
    """The connection of one handed-over stream (:class:`app.live.Outlet`); ``release`` is
    called once, when it closes."""

    __slots__ = ("sock", "_chunked", "_release", "_waiting", "_watcher", "host", "placed",
                 "busy", "closed", "on_gone")

    def __init__(self, sock: Any, chunked: bool, host: str | None,
                 release: Callable[[SocketOutlet], None]) -> None:
        self.sock, self._chunked, self.host, self._release = sock, chunked, host, release
        self._waiting: bytes | None = None
        self.placed = False  # holds a place among the server's connections (Connections)
        self.busy = False  # writing an earlier piece to a slow reader
        self.closed = False  # no more writes: gone, stalled or ended
        self.on_gone: Callable[[], None] | None = None  # told when the reader goes or stalls
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        except OSError:
            pass
        self._watcher = gevent.get_hub().loop.io(sock.fileno(), 1)
        self._watcher.start(self._readable)

    def _readable(self) -> None:
        """The reader sent something or went away (the hub calls this): read it apart."""
        self._watcher.stop()
        gevent.spawn(self._read)

    def _read(self) -> None:
        """What the reader sent after its request is dropped (a stream reads nothing); an
        end of the connection closes the outlet, and the deliverer ends its stream."""
        if self.sock is None:
            return
        try:
            gone = not self.sock.recv(65536)
        except TimeoutError:  # nothing came after all
            gone = False
        except OSError:  # reset
            gone = True
        if gone:
            self._gone()
        elif self.sock is not None:
            self._watcher.start(self._readable)

    def send(self, data: bytes) -> None:
        """Write ``data`` (as a chunk, if the response is chunked) without waiting."""
        if self.closed:
            return
        piece = b"%x\r\n%s\r\n" % (len(data), data) if self._chunked else data
        if self.busy:
            self._waiting = piece
            return
        try:
            sent = self.sock.send(piece, 0, 0.0)  # gevent's timeout 0: never waits
        except BlockingIOError:
            sent = 0
        except OSError:
            self._gone()
            return
        if sent < len(piece):
            self.busy = True
            gevent.spawn(self._drain, memoryview(piece)[sent:])

    def _drain(self, rest: memoryview | bytes) -> None:
        """What a slow reader did not take, then whatever was sent meanwhile."""
        try:
            next_piece: memoryview | bytes | None = rest
            while next_piece is not None:
                self.sock.sendall(next_piece)
                next_piece, self._waiting = self._waiting, None
        except OSError:  # stalled past the socket's timeout, or gone
            self._gone()
        finally:
            self.busy = False

    def _gone(self) -> None:
        """The reader went away or stalled, or the server closed the outlet as it stops: no
        more writes, and whoever writes to the outlet is told (the deliverer ends the stream
        at once, not when its next keepalive is due)."""
        if not self.closed:
            self.closed = True
            if self.on_gone is not None:
                self.on_gone()

    def close(self) -> None:
        """End the response (its last chunk, if the reader takes it at once) and the
        connection; the server forgets it. Closing twice does nothing."""
        if self.sock is None:
            return
        self._gone()  # the deliverer, closing it, has stopped listening first
        self._watcher.close()
        if self._chunked and not self.busy:
            try:
                self.sock.send(LAST_CHUNK, 0, 0.0)
            except OSError:
                pass
        self.sock.close()
        self._release(self)
        self.sock = None


class Connections(Pool):  # type: ignore[misc]
    """gevent's pool of the connections' greenlets (at most ``size``), in which a greenlet
    that hands its connection over with an event stream passes its place on to the stream,
    given back when the stream ends: ``size`` bounds every open connection, and gevent's
    accept loop waits for a place as it always did (a place given back wakes it)."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.streams = 0  # places held by handed-over streams
        self._passing: dict[Any, SocketOutlet] = {}

    def pass_on(self, outlet: SocketOutlet) -> None:
        """The running greenlet (about to end) passes its place on to ``outlet``."""
        self._passing[gevent.getcurrent()] = outlet

    def _discard(self, greenlet: Any) -> None:
        outlet = self._passing.pop(greenlet, None)
        if outlet is None or outlet.sock is None:  # no stream, or it has ended already
            super()._discard(greenlet)
            return
        Group._discard(self, greenlet)  # its place stays taken, by the stream
        outlet.placed = True
        self.streams += 1

    def give_back(self, outlet: SocketOutlet) -> None:
        """``outlet``'s stream ended: its place is free."""
        if outlet.placed:
            outlet.placed = False
            self.streams -= 1
            self._semaphore.release()

    def free_count(self) -> int:
        return max(0, int(self.size) - len(self) - self.streams)
