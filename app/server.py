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

import gc
import ipaddress
import os
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TextIO

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
                address = str(sock.getsockname()[0])
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
        return _url(host, port) if _usable(host) else None
    address = lan_address()
    return None if address is None else f"http://{address}:{port}/"


def local_url(host: str, port: int) -> str:
    """The address to open on the laptop itself: the bound address, or loopback when bound to all.

    An IPv6 address goes in brackets (``http://[::1]:5000/``); ``::`` is reached at ``[::1]``.
    """
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return _url(host, port)


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def print_banner(url: str | None, port: int, out: TextIO | None = None,
                 host: str = "0.0.0.0") -> None:
    """Print where to open the app, and a QR code of the LAN URL for the tablet and phones.

    With no LAN URL, say how to fix it instead of printing a code that phones can't use.
    The words are in the user's language (:mod:`app.cli_i18n`).
    """
    import qrcode

    out = out or sys.stdout
    # TRANSLATORS: command line. url: a web address.
    print(_("Coup referee is running. On this laptop: %(url)s",
            url=local_url(host, port)), file=out)
    if url is None:
        print(
            # TRANSLATORS: command line. example: an example address or file.
            _("Phones can’t reach this laptop yet: join the Wi-Fi and restart without --host, "
              "or pass --public-url %(example)s with the address phones can reach.",
              example="http://ADDRESS:PORT/"),
            file=out,
        )
        out.flush()
        return
    # TRANSLATORS: command line. url: a web address.
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

    gevent's pywsgi sent a response's headers and its body in two writes. With Nagle on, the
    body waited for the client to acknowledge the headers, and the client delays that ACK (40 ms
    on Linux, up to 200 ms on some phones): every page, fragment and form answer was 40 ms late
    (docs/PERFORMANCE-HISTORY.md). :class:`app.wsgi.LimitedHandler` now sends a head with its body's
    first 64 KiB, but a larger body and an event stream's events are still writes in a row.
    Not every socket supports the option; then nothing changes.
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
        # TRANSLATORS: command line. address: a network address; reason: the system's own
        # (English) words.
        return _("cannot listen on %(address)s: %(reason)s", address=self.address,
                 reason=self.reason)


@dataclass(frozen=True)
class Limits:
    """What one client may hold, so that slow or greedy ones can't starve the table.

    A request must arrive promptly: its headers within ``headers_s`` of its first byte and its
    body within ``body_s``; an open connection waits ``idle_s`` for its next request; a single
    send or receive that makes no progress for ``stall_s`` ends the connection (a phone that
    vanished mid-stream). The server reads a whole body (at most ``max_body`` bytes) before the
    app runs, so a slow body never holds a database write. One address may hold
    ``per_address`` connections (a browser opens six at most, plus its event stream); the
    laptop itself (loopback) is not counted unless ``count_loopback``. In all, ``total``
    connections (None: from the process's file limit) are served; past that, new ones wait in
    the listen queue instead of failing for want of file descriptors. docs/THREAT_MODEL.md
    says what one laptop withstands with these figures.

    Each connection buffers ``read_buffer`` bytes of what it reads (gevent's default is 8 KiB).
    The buffer lives as long as the connection, and every device holds two all evening (its
    event stream, and a kept-alive one for its fetches and taps): at 8 KiB it was a third of
    what a parked stream cost (docs/PERFORMANCE-HISTORY.md). A request's head is well under 1 KiB; a
    longer head or a body is read in more pieces, never cut short.

    ``idle_s`` is short (Apache's default keep-alive): a phone's second connection serves a
    fetch or a tap now and then, and parked between them it held a greenlet all evening, about
    17 KiB each (2,100 of them were ~35 MiB at 300 tables, docs/PERFORMANCE-HISTORY.md). The next
    request opens a new connection, one round trip on the Wi-Fi; a browser resends a request
    that meets a kept-alive connection just closed.
    """

    idle_s: float = 5.0
    headers_s: float = 10.0
    body_s: float = 20.0
    stall_s: float = 30.0
    max_body: int = 1_000_000
    per_address: int = 32
    total: int | None = None
    count_loopback: bool = False
    read_buffer: int = 1024


def raise_file_limit(wanted: int = 65536) -> int | None:
    """Raise this process's soft limit of open files towards ``wanted`` (never above the hard
    limit); returns the limit in force, or None where there is none to read (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    for value in (target, 10240):  # macOS refuses more than OPEN_MAX (10240) for "unlimited"
        if soft == resource.RLIM_INFINITY or value <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (value, hard))
            return value
        except (ValueError, OSError):
            continue
    return None if soft == resource.RLIM_INFINITY else int(soft)


def connection_cap(file_limit: int | None) -> int:
    """Connections served at once: the file limit less a reserve for the database, the
    catalogues and the listening socket."""
    if file_limit is None:
        return 1000
    return max(16, min(10_000, file_limit - 64))


class SlowClient(TimeoutError):
    """A client that did not send its request in time (an OSError: the server drops it)."""


def plain(status: str, text: str) -> WSGIApplication:
    """A tiny WSGI app that answers ``status`` and closes the connection."""
    body = text.encode("ascii")

    def answer(environ: dict[str, object], start_response: Callable[..., object]) -> list[bytes]:
        start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                                ("Content-Length", str(len(body))), ("Connection", "close")])
        return [body]

    return answer


BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Length: 0\r\n"
        b"Connection: close\r\n\r\n")


def loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def turn_away(sock: socket.socket) -> None:
    """Answer 503 to a connection over its address's limit, and close it."""
    try:
        sock.settimeout(1.0)
        sock.sendall(BUSY)
    except OSError:
        pass
    finally:
        sock.close()


COLLECT_EVERY: Final = (1000, 20, 1000)
"""The garbage collector's thresholds while serving (Python's own are 700, 10, 10). A full
collection walks every object the server holds, the parked streams' greenlets and the
remembered screens among them: 200-215 ms at 100 tables, ten times in 20 s with Python's
thresholds, and every tap in flight waits behind it (p99 204-208 ms against a p95 of 70). With
these, a full collection comes after a thousand middle ones: none in a 20 s run. Young objects
are collected a little less often than Python's 700: a young collection's cost grew faster
than its size (5,000 made each take 6-17 ms at 300 tables, middle ones 80-250 ms), so 1,000
spends less of the CPU on collecting and keeps each pause short (docs/PERFORMANCE-HISTORY.md,
"Garbage collection" and round ten)."""


def collect_less() -> None:
    """Set what start-up made (modules, compiled templates, catalogues) out of the collector's
    way for good, and collect less often (:data:`COLLECT_EVERY`). ``serve`` calls it once its
    warm-up is done."""
    gc.freeze()
    gc.set_threshold(*COLLECT_EVERY)
