"""An event stream's connection, handed over by its handler: written to without a greenlet.

Once a stream's head and opening are out, :class:`app.wsgi.LimitedHandler` gives its
connection to the broker (:meth:`app.live.Stream.take_over`) and its greenlet ends: the
broker's deliverer writes each event through a :class:`SocketOutlet`, which never waits for the
reader. An event (a few KB) nearly always goes in one send; what a slow reader does not take
at once is written by a greenlet of its own, bounded like every write by the socket's timeout
(``Limits.stall_s``), and an event sent meanwhile replaces any other still waiting (a screen
makes the one before it worthless). Import this module only under gevent (:mod:`app.wsgi`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import gevent

LAST_CHUNK: Final = b"0\r\n\r\n"


class SocketOutlet:
    """The connection of one handed-over stream (:class:`app.live.Outlet`); ``release`` is
    called once, when it closes."""

    __slots__ = ("sock", "_chunked", "_release", "_waiting", "host", "busy", "closed")

    def __init__(self, sock: Any, chunked: bool, host: str | None,
                 release: Callable[[SocketOutlet], None]) -> None:
        self.sock, self._chunked, self.host, self._release = sock, chunked, host, release
        self._waiting: bytes | None = None
        self.busy = False  # writing an earlier piece to a slow reader
        self.closed = False  # no more writes: gone, stalled or ended

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
            self.closed = True
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
            self.closed = True
        finally:
            self.busy = False

    def close(self) -> None:
        """End the response (its last chunk, if the reader takes it at once) and the
        connection; the server forgets it. Closing twice does nothing."""
        if self.sock is None:
            return
        self.closed = True
        if self._chunked and not self.busy:
            try:
                self.sock.send(LAST_CHUNK, 0, 0.0)
            except OSError:
                pass
        self.sock.close()
        self._release(self)
        self.sock = None
