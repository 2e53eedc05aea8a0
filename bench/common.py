"""Shared helpers of the benchmarks: a server subprocess on loopback, /proc figures, and two
small HTTP clients (blocking, for setting tables up; asyncio, for many live devices).

Standard library only. Everything talks to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
VERSION = re.compile(rb'data-version="(\d+)"')
SEAT_LINK = re.compile(r"/s/([A-Za-z0-9_-]{20,})")
TABLE_URL = re.compile(r"/t/([A-Za-z0-9_-]+)$")

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
HANDS = {
    "Ann": ("duke", "captain"),
    "Bob": ("ambassador", "contessa"),
    "Cy": ("assassin", "duke"),
    "Dee": ("captain", "ambassador"),
    "Eve": ("contessa", "assassin"),
    "Fay": ("duke", "captain"),
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def serve_command(port: int, instance: str, via_tasks: bool = False) -> list[str]:
    options = ["--host", HOST, "--port", str(port), "--instance", instance,
               "--public-url", f"http://{HOST}:{port}/"]
    if via_tasks:
        return [sys.executable, str(ROOT / "tasks.py"), "serve", *options]
    return [str(BIN / "coup-referee"), "serve", *options]


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100), nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


def summary_ms(values: Sequence[float]) -> str:
    """'p50/p95/p99/max' in milliseconds of values in seconds."""
    if not values:
        return "no samples"
    return (f"p50 {percentile(values, 50) * 1e3:.1f} / p95 {percentile(values, 95) * 1e3:.1f}"
            f" / p99 {percentile(values, 99) * 1e3:.1f} / max {max(values) * 1e3:.1f} ms"
            f" (n={len(values)})")


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


# -- the server process -------------------------------------------------------------------------


class Server:
    """`coup-referee serve` on a free loopback port with a fresh instance folder.

    Use as a context manager; the server's output goes to a log file shown if it fails.
    """

    def __init__(self, via_tasks: bool = False, instance: str | None = None) -> None:
        self.port = free_port()
        self._tmp = None if instance else tempfile.TemporaryDirectory(prefix="coup-bench-")
        self.instance = instance or self._tmp.name  # type: ignore[union-attr]
        self.command = serve_command(self.port, self.instance, via_tasks)
        self.log_path = Path(self.instance) / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.started = 0.0

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> Server:
        self.log = self.log_path.open("wb")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(self.command, cwd=ROOT, stdout=self.log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        return self

    def wait_ready(self, timeout: float = 20.0) -> float:
        """Poll /healthz until it answers 200; seconds since start."""
        deadline = self.started + timeout
        while time.perf_counter() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.output()}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    conn.close()
                    return time.perf_counter() - self.started
                conn.close()
            except OSError:
                pass
            time.sleep(0.005)
        raise RuntimeError(f"the server did not answer in {timeout} s: {self.output()}")

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        if getattr(self, "log", None):
            self.log.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> Server:
        self.start()
        self.wait_ready()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- /proc figures --------------------------------------------------------------------------------


def rss_mb(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of a process in MiB, from /proc/<pid>/status."""
    now = peak = 0.0
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return now, peak


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used, from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU seconds all cores of the machine have spent busy (not idle or iowait), from
    /proc/stat: other programs running meanwhile show up here and not in the server's share."""
    with open("/proc/stat", encoding="ascii") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    busy = sum(fields[:8]) - fields[3] - fields[4]  # user..steal, less idle and iowait
    return busy / os.sysconf("SC_CLK_TCK")


@dataclass
class Sampler:
    """Samples a process's RSS every `every` seconds in a thread; CPU over the sampled span."""

    pid: int
    every: float = 0.5
    rss: list[float] = field(default_factory=list)
    peak: float = 0.0

    def __enter__(self) -> Sampler:
        self._stop = threading.Event()
        self.cpu0, self.t0 = cpu_seconds(self.pid), time.perf_counter()
        self.machine0 = machine_busy_seconds()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._sample()

    def _sample(self) -> None:
        now, peak = rss_mb(self.pid)
        self.rss.append(now)
        self.peak = max(self.peak, peak)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
        self.cpu = cpu_seconds(self.pid) - self.cpu0
        self.machine = machine_busy_seconds() - self.machine0
        self.wall = time.perf_counter() - self.t0

    @property
    def cpu_share(self) -> float:
        """Average share of one core over the span (1.0 = one core busy)."""
        return self.cpu / self.wall if self.wall else float("nan")

    @property
    def machine_share(self) -> float:
        """Average number of the machine's cores busy over the span (all processes)."""
        return self.machine / self.wall if self.wall else float("nan")


class StealPlan:
    """A never-ending legal sequence of referee steps for a table of tracked players:
    the player to move steals from the richest other player; nobody challenges or blocks.
    The total of coins never changes (12 for 6 players), so nobody reaches 10 and must coup."""

    def __init__(self, names: tuple[str, ...] | list[str] = NAMES, first: int = 0) -> None:
        self.names = list(names)
        self.coins = dict.fromkeys(self.names, 2)
        self.turn = first
        self._queue: list[dict[str, str]] = []

    def next(self) -> dict[str, str]:
        if not self._queue:
            actor = self.names[self.turn % len(self.names)]
            target = max((n for n in self.names if n != actor), key=lambda n: self.coins[n])
            taken = min(2, self.coins[target])
            self.coins[target] -= taken
            self.coins[actor] += taken
            self.turn += 1
            self._queue = [{"do": "steal", "by": actor, "target": target},
                           {"do": "pass"}, {"do": "pass"}]
        return self._queue.pop(0)


# -- a blocking client for setting tables up -------------------------------------------------------


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def cookie_pairs(set_cookies: Sequence[str]) -> dict[str, str]:
    pairs = {}
    for raw in set_cookies:
        name, _, value = raw.split(";", 1)[0].partition("=")
        pairs[name.strip()] = value.strip()
    return pairs


class Browser:
    """One device: a keep-alive connection and a cookie jar, like a browser tab."""

    def __init__(self, port: int, accept_encoding: str | None = None,
                 source: str | None = None) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.accept_encoding = accept_encoding
        self.source = source  # the loopback address this device connects from, if not the usual
        self._conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> Reply:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.accept_encoding:
            sent["Accept-Encoding"] = self.accept_encoding
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            if self._conn is None:
                self._conn = http.client.HTTPConnection(
                    HOST, self.port, timeout=30,
                    source_address=None if self.source is None else (self.source, 0))
            try:
                self._conn.request(method, path, body=body, headers=sent)
                response = self._conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self._conn.close()
                self._conn = None
                if attempt == 2:
                    raise
        self.cookies.update(cookie_pairs(response.headers.get_all("Set-Cookie") or []))
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, data)

    def get(self, path: str, **kw: object) -> Reply:
        return self.request("GET", path, **kw)  # type: ignore[arg-type]

    def post(self, path: str, form: dict[str, str], htmx: bool = True) -> Reply:
        return self.request("POST", path, form=form,
                            headers={"HX-Request": "true"} if htmx else None)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


def expect(reply: Reply, status: int, what: str) -> Reply:
    if reply.status != status:
        raise RuntimeError(f"{what}: HTTP {reply.status}, expected {status}: {reply.text[:300]}")
    return reply


@dataclass
class TableSetup:
    """A started 6-player table: the referee's cookies and each seat's token and cookies."""

    id: str
    tablet_cookies: dict[str, str]
    version: int
    csrf: str
    seats: list[tuple[str, str, dict[str, str]]]  # (name, token, cookies)


def version_of(body: bytes) -> int:
    match = VERSION.search(body)
    if match is None:
        raise RuntimeError(f"no data-version in {body[:200]!r}")
    return int(match.group(1))


def referee_address(table: int) -> str:
    """A loopback address of its own for the referee's tablet of table number ``table``: each
    table is made by its own device, as at a real game night (the server admits 10 new tables
    an hour per device; Linux answers on all of 127.0.0.0/8)."""
    return f"127.1.{table // 250}.{table % 250 + 1}"


def create_table(port: int, names: Sequence[str] = NAMES, start: bool = True,
                 source: str | None = None) -> TableSetup:
    """Create a table as the real pages do (scraping the csrf tokens), seat a phone per player,
    enter the hands and start the game. ``source``: the tablet's own address (see
    :func:`referee_address`)."""
    tablet = Browser(port, source=source)
    home = expect(tablet.get("/"), 200, "home page")
    created = tablet.post("/tables", {"csrf": CSRF.search(home.text).group(1),  # type: ignore[union-attr]
                                      "players": "\n".join(names)}, htmx=False)
    expect(created, 303, "create a table")
    url = urllib.parse.urlsplit(created.headers["location"]).path
    table_id = TABLE_URL.search(url).group(1)  # type: ignore[union-attr]
    page = expect(tablet.get(url), 200, "tablet page").text
    tokens = list(dict.fromkeys(SEAT_LINK.findall(page)))
    if len(tokens) != len(names):
        raise RuntimeError(f"expected {len(names)} seat links, found {len(tokens)}")
    seats = []
    for name, token in zip(names, tokens, strict=True):
        phone = Browser(port)
        html = expect(phone.get(f"/s/{token}"), 200, f"phone page of {name}").text
        card1, card2 = HANDS[name]
        expect(phone.post(f"/s/{token}/hand", {"csrf": CSRF.search(html).group(1),  # type: ignore[union-attr]
                                               "card1": card1, "card2": card2}),
               200, f"hand of {name}")
        seats.append((name, token, dict(phone.cookies)))
        phone.close()
    page_reply = expect(tablet.get(url), 200, "tablet page")
    csrf = CSRF.search(page_reply.text).group(1)  # type: ignore[union-attr]
    version = version_of(page_reply.body)
    if start:
        started = expect(tablet.post(f"{url}/start", {"csrf": csrf, "version": str(version)}),
                         200, "start the game")
        version = version_of(started.body)
    tablet.close()
    return TableSetup(table_id, dict(tablet.cookies), version, csrf, seats)


# -- an asyncio client for many live devices ---------------------------------------------------


class HTTPError(Exception):
    pass


async def read_response(reader: asyncio.StreamReader, method: str = "GET",
                        ) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP/1.1 response: Content-Length, chunked, or to the end."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
        body = b""
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(parts)
    else:
        body = await reader.read()
    if headers.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    elif headers.get("content-encoding"):
        raise HTTPError(f"unexpected Content-Encoding {headers['content-encoding']}")
    return status, headers, body


def request_bytes(method: str, path: str, port: int, cookies: dict[str, str],
                  headers: dict[str, str] | None = None, body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}"]
    if cookies:
        lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class AsyncDevice:
    """A browser's connections to the server: a small keep-alive pool, and its cookies."""

    def __init__(self, port: int, cookies: dict[str, str], accept_encoding: str | None) -> None:
        self.port = port
        self.cookies = cookies
        self.base_headers = {"Accept-Encoding": accept_encoding} if accept_encoding else {}
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.connections = 0

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        data = request_bytes(method, path, self.port, self.cookies,
                             {**self.base_headers, **(headers or {})}, body)
        for attempt in (1, 2):
            fresh = not self._idle
            if fresh:
                reader, writer = await asyncio.open_connection(HOST, self.port)
                self.connections += 1
            else:
                reader, writer = self._idle.pop()
            try:
                writer.write(data)
                status, got, payload = await read_response(reader, method)
            except (ConnectionError, asyncio.IncompleteReadError):
                writer.close()
                if fresh or attempt == 2:  # a kept-alive connection may have been closed
                    raise
                continue
            if got.get("connection", "").lower() == "close":
                writer.close()
            else:
                self._idle.append((reader, writer))
            return status, got, payload
        raise AssertionError("unreachable")

    def close(self) -> None:
        for _reader, writer in self._idle:
            writer.close()
        self._idle.clear()


async def sse_events(reader: asyncio.StreamReader):
    """Yield (event, data) of a chunked text/event-stream body as the chunks arrive."""
    buffer = b""
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            return
        buffer += await reader.readexactly(size)
        await reader.readexactly(2)
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            event, data = "message", []
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    continue
                key, _, value = line.partition(":")
                if key == "event":
                    event = value.strip()
                elif key == "data":
                    data.append(value.strip())
            if data:
                yield event, "\n".join(data)
            elif block.startswith(b":"):
                yield "comment", block[1:].decode().strip()
