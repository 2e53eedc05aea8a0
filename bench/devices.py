"""The benchmarks' two small HTTP clients: blocking, for setting tables up; asyncio, for many
live devices. Standard library only; everything talks to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass

from bench.common import CSRF, HANDS, HOST, NAMES, SEAT_LINK, TABLE_URL, VERSION

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
