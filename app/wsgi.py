"""gevent's WSGI server and connection handler with the limits of :class:`app.server.Limits`:
slow heads and bodies time out, a body is read whole before the app runs, an idle connection
closes, and one address holds a bounded number of connections. An event stream's connection
goes to the broker once its opening is out (:mod:`app.outlet`), still counted until it ends.
A head is read by :mod:`app.heads`. Import this module only once gevent has monkey-patched
(`coup-referee serve` does it first, then calls :func:`serve`); what needs no gevent (the
limits, the banner, the addresses) is in :mod:`app.server`, which anything may import."""

from __future__ import annotations

import io
import os
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import gevent
from gevent.pywsgi import Input, WSGIHandler, WSGIServer

from app.heads import read_head
from app.live import Stream
from app.outlet import LAST_CHUNK, Connections, SocketOutlet
from app.server import (
    CannotListen,
    Limits,
    SlowClient,
    connection_cap,
    loopback,
    no_delay,
    plain,
    raise_file_limit,
    turn_away,
)

if TYPE_CHECKING:
    from wsgiref.types import WSGIApplication

ONE_SEND: Final = 64 * 1024
"""The largest first piece of a body sent in one write with its head (a page is a few KB)."""


class LimitedHandler(WSGIHandler):  # type: ignore[misc]
    """One connection: its request head, body and idle time bounded by the server's limits."""

    _head_timer: gevent.Timeout | None = None
    handed_over = False  # its connection went to the broker with its event stream
    socket: Any  # gevent's socket; None once handed over or closed
    status: Any  # gevent's: the status line (bytes), or the words of a failed send (str)
    code: int
    MessageClass = staticmethod(read_head)  # gevent's own, without email's parser mostly

    def __init__(self, sock: Any, address: Any, server: Any) -> None:
        buffered = sock.makefile("rb", server.limits.read_buffer)  # Limits says why
        super().__init__(sock, address, server, rfile=buffered)

    def process_result(self) -> None:
        """gevent's, letting go of each chunk once written (an iterated stream then holds no
        screen while it waits); a stream of the broker's is handed over instead; a HEAD's
        answer is its head alone (gevent's sent a last chunk, read as the next answer's)."""
        if self.command == "HEAD":
            self.write(b"")
            return
        if isinstance(self.result, Stream):
            self._hand_over(self.result)
            return
        for data in self.result:
            if data:
                self.write(data)
            del data
        if self.status and not self.headers_sent:
            self.write(b"")  # an empty body: its headers still go out
        if self.response_use_chunked:
            self._sendall(LAST_CHUNK)

    def _hand_over(self, stream: Stream) -> None:
        """Send the stream's head and opening, then give its connection to the broker, which
        writes its events from then on: this greenlet ends, the connection stays open (a
        parked greenlet and this request's objects were ~21 KiB a stream, all evening)."""
        sent, goes_on = stream.opening()
        for data in sent:
            self.write(data)
        del sent
        if goes_on:
            stream.take_over(self.server.adopt(self.socket, self.response_use_chunked,
                                               self.client_address))
            self.handed_over = self.close_connection = True
            self.socket = None  # gevent's handler then leaves the connection open
        elif self.response_use_chunked:
            self._sendall(LAST_CHUNK)

    def _sendall(self, data: bytes | bytearray) -> None:
        """gevent's, with one plain send tried first: an event or an answer of a few KB nearly
        always goes in one, and gevent's ``sendall`` asks the socket for its buffer's size (a
        syscall) before every send. The rest goes by ``sendall`` (``Limits.stall_s``)."""
        try:
            sent = self.socket.send(data)
            if sent < len(data):
                self.socket.sendall(memoryview(data)[sent:])
        except OSError as error:
            self.status = f"socket error: {error}"
            if self.code > 0:
                self.code = -self.code
            raise
        self.response_length += len(data)

    def _write_with_headers(self, data: bytes) -> None:
        """gevent's, with the head and the body's first piece in one send (two before: a
        second syscall and packet for every answer) unless that piece is large, and the head
        forgotten once sent (a parked event stream held its encoded headers all evening)."""
        self.headers_sent = True
        self.finalize_headers()
        head = bytearray(b"HTTP/1.1 ")
        head += self.status
        head += b"\r\n"
        for name, value in self.response_headers:
            head += b"%s: %s\r\n" % (name, value)
        head += b"\r\n"
        self.response_headers: list[tuple[bytes, bytes]] = []
        if data and len(data) <= ONE_SEND:
            if self.response_use_chunked:
                head += b"%x\r\n" % len(data)
            head += data
            if self.response_use_chunked:
                head += b"\r\n"
            data = b""
        self._sendall(head)
        self._write(data)

    def read_requestline(self) -> str:
        # An idle connection waits for its next request, then the clock runs for its head.
        if not self._readable_within(self.server.limits.idle_s):
            return ""  # closed quietly
        self._head_timer = gevent.Timeout.start_new(self.server.limits.headers_s,
                                                    SlowClient("headers"))
        return super().read_requestline()  # type: ignore[no-any-return]

    def _readable_within(self, seconds: float) -> bool:
        try:
            with gevent.Timeout(seconds, False):
                return bool(self.rfile.peek(1))
        except OSError:
            return False
        return False

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.close()
            self._head_timer = None

    def read_request(self, raw_requestline: str) -> bool:
        try:
            return bool(super().read_request(raw_requestline))
        finally:
            self._stop_head_timer()

    def handle_one_request(self):  # type: ignore[no-untyped-def]
        try:
            return super().handle_one_request()
        finally:
            self._stop_head_timer()

    def _handle_client_error(self, ex):  # type: ignore[no-untyped-def]
        if isinstance(ex, SlowClient):  # headers too slow: no log line per slow client
            return ("408", b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
                           b"Content-Length: 0\r\n\r\n")
        return super()._handle_client_error(ex)

    def handle_one_response(self) -> None:
        refusal = self._receive_body()
        if refusal is not None:
            self.close_connection = True
            self.wsgi_input = Input(io.BytesIO(), 0)  # nothing left to read or discard
            self.environ["wsgi.input"] = self.wsgi_input
            self.application = refusal
        super().handle_one_response()

    def _receive_body(self) -> WSGIApplication | None:
        """Read the whole body now, within ``body_s``; a refusal app if that fails."""
        environ = self.environ
        chunked = environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked"
        if (not chunked and not self.content_length) or self._connection_upgrade_requested():
            return None
        if (self.content_length or 0) > self.server.limits.max_body:
            return plain("413 Content Too Large", "Content Too Large")
        try:
            with gevent.Timeout(self.server.limits.body_s, SlowClient("body")):
                body = self.wsgi_input.read(self.server.limits.max_body + 1 if chunked else None)
        except SlowClient:
            return plain("408 Request Timeout", "Request Timeout")
        except OSError:  # the client went away, or broke the chunked encoding
            return plain("400 Bad Request", "Bad Request")
        if len(body) > self.server.limits.max_body:
            return plain("413 Content Too Large", "Content Too Large")
        self.wsgi_input = Input(io.BytesIO(body), len(body))
        environ["wsgi.input"] = self.wsgi_input
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return None

    def log_request(self) -> None:
        """None: no access log (:func:`serve`); gevent's formats each line, the date in it,
        before its no-op log drops it (1% of the server's CPU at 300 tables)."""

    def handle_error(self, t, v, tb):  # type: ignore[no-untyped-def]
        if isinstance(v, TimeoutError | ConnectionError):  # a stalled or vanished client
            self.close_connection = True
            return
        super().handle_error(t, v, tb)


class LimitedServer(WSGIServer):  # type: ignore[misc]
    """gevent's WSGI server with :class:`~app.server.Limits`: connections per address."""

    handler_class = LimitedHandler

    def __init__(self, *args: object, limits: Limits, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits
        self.open_by_address: dict[str, int] = {}
        self.handed_over: dict[Any, SocketOutlet] = {}  # connections given to the broker

    def _counted(self, address: Any) -> str | None:
        """The address whose connections are bounded (``per_address``), if this one's are."""
        host = str(address[0]) if isinstance(address, tuple) else ""
        return host if host and (self.limits.count_loopback or not loopback(host)) else None

    def handle(self, sock, address):  # type: ignore[no-untyped-def]
        host = self._counted(address)
        if host is not None:
            if self.open_by_address.get(host, 0) >= self.limits.per_address:
                turn_away(sock)
                return
            self.open_by_address[host] = self.open_by_address.get(host, 0) + 1
        handler: Any = None
        try:
            no_delay(sock)
            sock.settimeout(self.limits.stall_s)
            handler = self.handler_class(sock, address, self)
            handler.handle()
        finally:
            if host is not None and not (handler is not None and handler.handed_over):
                self._uncount(host)  # else its outlet does, when the stream ends

    def _uncount(self, host: str) -> None:
        left = self.open_by_address.pop(host) - 1
        if left:
            self.open_by_address[host] = left

    def adopt(self, sock: Any, chunked: bool, address: Any) -> SocketOutlet:
        """An outlet for ``sock``'s event stream, counted until it closes."""
        outlet = SocketOutlet(sock, chunked, self._counted(address), self._release)
        self.handed_over[sock] = outlet
        self.pool.pass_on(outlet)
        return outlet

    def _release(self, outlet: SocketOutlet) -> None:
        self.handed_over.pop(outlet.sock, None)
        if outlet.host is not None:
            self._uncount(outlet.host)
        self.pool.give_back(outlet)

    def do_close(self, sock, *args):  # type: ignore[no-untyped-def]
        if sock not in self.handed_over:  # a handed-over stream's outlet closes it
            super().do_close(sock, *args)

    def stop(self, timeout: float | None = None) -> None:  # the handed-over streams end first
        for outlet in list(self.handed_over.values()):
            outlet.close()
        super().stop(timeout)


def serve(
    app: WSGIApplication, host: str, port: int, ready: Callable[[int], None] | None = None,
    limits: Limits | None = None,
) -> None:
    """Serve ``app`` with gevent until interrupted (the caller has monkey-patched already).
    ``ready(port)`` runs once the socket is bound (port 0 picks a free one), so the banner never
    announces a server that failed to start. Raises :class:`CannotListen` if binding fails.
    No access log: phones poll and stream all night and it would bury real errors; errors still
    go to stderr. ``limits`` (default :class:`Limits`) bound slow and greedy clients."""
    limits = limits or Limits()
    total = limits.total or connection_cap(raise_file_limit())
    server = LimitedServer((host, port), app, limits=limits, log=None, spawn=Connections(total))
    try:
        server.start()
    except OSError as error:
        raise CannotListen(f"{host}:{port}", str(error.strerror or error)) from None
    if os.name != "nt":
        # Ctrl+C and `kill` make serve_forever return (open streams get 1 s) instead of raising
        # KeyboardInterrupt through gevent's hub, which prints it as an error. On Windows,
        # Ctrl+C arrives as KeyboardInterrupt and the caller handles it.
        for signum in (signal.SIGINT, signal.SIGTERM):
            gevent.signal_handler(signum, lambda: gevent.spawn(server.stop, 1))
    try:
        if ready is not None:
            ready(server.server_port)
        server.serve_forever()
    finally:
        server.stop(timeout=1)
