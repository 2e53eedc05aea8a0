"""The production server and the start-up banner.

Why gevent's WSGI server: every phone keeps an SSE stream open for the whole game. A thread per
stream starves a thread pool (TOOLING.md: gunicorn gthread and waitress froze), while gevent spends
a greenlet per stream, has wheels for Linux, macOS and Windows, and delivered fastest in our
measurements. The SSE broker lives in this one process, so there is exactly one server process.

``gevent.monkey.patch_all()`` must run before Flask, werkzeug or threading-based code is imported;
:mod:`app.cli` does it first thing in the ``serve`` command. This module imports gevent lazily, so
importing it (to call :func:`lan_address` in a test, say) patches nothing.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from app.cli_i18n import _

if TYPE_CHECKING:
    from wsgiref.types import WSGIApplication

# Connecting a UDP socket sends no packet: the kernel only picks the route and so the source
# address it would use. Private targets, tried in turn, find the interface of a LAN even when it
# has no default route (a game-night router without internet). Nothing is ever sent to them.
_ROUTE_PROBES = ("10.255.255.254", "192.168.255.254", "172.31.255.254")


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast)


def lan_address() -> str | None:
    """This laptop's IPv4 address on the local network, or None. Sends no traffic."""
    for probe in _ROUTE_PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
            except OSError:
                continue
        if _usable(address):
            return address
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = str(info[4][0])
        if _usable(address):
            return address
    return None


def public_url(host: str, port: int) -> str | None:
    """The URL phones should open, or None when no LAN address is known.

    A server bound to one address is reached there; one bound to all (0.0.0.0) is reached at the
    LAN address. Loopback is not an answer: a phone cannot open the laptop's ``localhost``.
    """
    if host not in ("0.0.0.0", "", "::"):
        return f"http://{host}:{port}/" if _usable(host) else None
    address = lan_address()
    return None if address is None else f"http://{address}:{port}/"


def print_banner(url: str | None, port: int, out: TextIO | None = None) -> None:
    """Print where to open the app, and a QR code of the LAN URL for the tablet and phones.

    With no LAN URL, say how to fix it instead of printing a code that phones can't use.
    The words are in the user's language (:mod:`app.cli_i18n`).
    """
    import qrcode

    out = out or sys.stdout
    print(_("Coup referee is running. On this laptop: %(url)s",
            url=f"http://127.0.0.1:{port}/"), file=out)
    if url is None:
        print(
            _("Phones can't reach this laptop yet: join the Wi-Fi and restart without --host, "
              "or pass --public-url %(example)s with the address phones can reach.",
              example="http://ADDRESS:PORT/"),
            file=out,
        )
        out.flush()
        return
    print(_("On the tablet and the phones (same Wi-Fi): %(url)s", url=url), file=out)
    qr = qrcode.QRCode(border=2)
    qr.add_data(url)
    try:
        # On a terminal, fixed colours give dark-on-light whatever the theme; in a file or pipe,
        # inverted suits the common dark console. (Windows consoles may lack ANSI colours.)
        if out.isatty() and os.name != "nt":
            qr.print_ascii(out=out, tty=True)
        else:
            qr.print_ascii(out=out, invert=True)
    except UnicodeEncodeError:
        print(_("(This console cannot draw the QR code; type the address instead.)"), file=out)
    out.flush()


def no_delay(sock: socket.socket) -> None:
    """Send each write at once (turn Nagle's algorithm off) on an accepted connection.

    gevent's pywsgi sends a response's headers and its body in two writes. With Nagle on, the
    body waits for the client to acknowledge the headers, and the client delays that ACK (40 ms
    on Linux, up to 200 ms on some phones): every page, fragment and form answer was 40 ms late
    (docs/PERFORMANCE.md). Not every socket supports the option; then nothing changes.
    """
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        pass


class CannotListen(Exception):
    """The address or port can't be used (taken, or not this machine's): a user error.

    ``str(error)`` is English; :meth:`message` says it in the user's language."""

    def __init__(self, address: str, reason: str) -> None:
        self.address = address
        self.reason = reason  # the system's words
        super().__init__(f"cannot listen on {address}: {reason}")

    def message(self) -> str:
        return _("cannot listen on %(address)s: %(reason)s", address=self.address,
                 reason=self.reason)


def serve(
    app: WSGIApplication, host: str, port: int, ready: Callable[[int], None] | None = None
) -> None:
    """Serve ``app`` with gevent until interrupted. The caller has monkey-patched already.

    ``ready(port)`` runs once the socket is bound (port 0 picks a free one), so the banner never
    announces a server that failed to start. Raises :class:`CannotListen` if binding fails.
    No access log: phones poll and stream all night and it would bury real errors; errors still
    go to stderr.
    """
    from gevent.pywsgi import WSGIServer

    class Server(WSGIServer):
        def handle(self, sock, address):  # type: ignore[no-untyped-def]
            no_delay(sock)
            super().handle(sock, address)

    server = Server((host, port), app, log=None)
    try:
        server.start()
    except OSError as error:
        raise CannotListen(f"{host}:{port}", str(error.strerror or error)) from None
    if os.name != "nt":
        import gevent

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
