"""One table under live-update load (bench/load.py): a tablet and 6 phones each holding an SSE
stream and fetching as htmx does, the referee tapping; what each tap took and every request's
latency and errors.
"""

from __future__ import annotations

import asyncio
import random
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field

from bench.common import VERSION, StealPlan, cpu_reading
from bench.devices import AsyncDevice, HTTPError, TableSetup, request_bytes, sse_events

MISSED_AFTER_S = 5.0
POLL_S = 10.0
ENCODING = "gzip"


@dataclass
class Stats:
    post: list[float] = field(default_factory=list)
    get: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    gets_200: int = 0
    gets_204: int = 0
    events: int = 0

    def error(self, what: str) -> None:
        self.errors[what] += 1


class LiveDevice:
    """A tablet or a phone page: its SSE stream, its fetches of the fragment, its polling."""

    def __init__(self, port: int, cookies: dict[str, str], events: str, view: str,
                 version: int, stats: Stats) -> None:
        self.http = AsyncDevice(port, cookies, ENCODING)
        self.port, self.cookies = port, cookies
        self.events_path, self.view_path = events, view
        self.have = version
        self.history: list[tuple[float, int]] = [(0.0, version)]  # (time, version now held)
        self.stats = stats
        self.opened = asyncio.Event()
        self._fetching = False
        self._again = False
        self.closing = False
        self.heard = time.perf_counter()  # the stream's last event (app.js polls after 10 s)
        self.tapping = False  # this device's own tap is on its way: pushes are dropped
        self.dropped = -1  # the newest version pushed (and dropped) while it was
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn_fetch(self) -> None:
        task = asyncio.ensure_future(self.fetch())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def reached(self, version: int) -> None:
        if version > self.have:
            self.have = version
            self.history.append((time.perf_counter(), version))

    def when(self, version: int) -> float | None:
        for t, v in self.history:
            if v >= version:
                return t
        return None

    async def fetch(self) -> None:
        if self._fetching:
            self._again = True
            return
        self._fetching = True
        try:
            while True:
                self._again = False
                t0 = time.perf_counter()
                try:
                    status, _h, body = await self.http.request(
                        "GET", f"{self.view_path}?since={self.have}")
                except (OSError, asyncio.IncompleteReadError, HTTPError) as e:
                    self.stats.error(f"GET view: {type(e).__name__}")
                    status, body = 0, b""
                self.stats.get.append(time.perf_counter() - t0)
                if status == 200:
                    self.stats.gets_200 += 1
                    match = VERSION.search(body)
                    if match:
                        self.reached(int(match.group(1)))
                    else:
                        self.stats.error("GET view: no data-version")
                elif status == 204:
                    self.stats.gets_204 += 1
                elif status:
                    self.stats.error(f"GET view: HTTP {status}")
                if not self._again:
                    return
        finally:
            self._fetching = False

    async def listen(self) -> None:
        """The SSE stream; on `changed`, fetch. Runs until cancelled."""
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError as e:
            self.stats.error(f"SSE connect: {type(e).__name__}")
            self.opened.set()
            return
        try:
            writer.write(request_bytes("GET", self.events_path, self.port, self.cookies,
                                       {"Accept": "text/event-stream", **self.http.base_headers}))
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            if status != 200 or b"text/event-stream" not in head:
                self.stats.error(f"SSE open: HTTP {status}")
                self.opened.set()
                return
            if b"content-encoding" in head.lower():
                self.stats.error("SSE stream is compressed")
            self.opened.set()
            self.spawn_fetch()  # htmx:sseOpen -> refresh
            async for event, data in sse_events(reader):
                if event == "changed":
                    self.heard = time.perf_counter()
                    self.stats.events += 1
                    self.pushed(data)
            if not self.closing:
                self.stats.error("SSE stream ended")
        except (OSError, asyncio.IncompleteReadError) as e:
            if not self.closing:
                self.stats.error(f"SSE: {type(e).__name__}")
        except asyncio.CancelledError:
            pass
        finally:
            writer.close()

    def pushed(self, data: str) -> None:
        """A `changed` event, as app.js takes it: dropped while this device's tap is on its
        way (its highest version remembered), else the screen it carries swapped in, or, when
        it carries only a newer version, the screen fetched."""
        screen = VERSION.search(data.encode())
        version = int(screen.group(1)) if screen else int(data)
        if self.tapping:
            self.dropped = max(self.dropped, version)
        elif screen:  # the fresh screen came inside the event (sse-swap)
            self.reached(version)
        elif version > self.have:
            self.spawn_fetch()

    def answered(self, version: int) -> None:
        """This device's tap's answer, at ``version``, is in: app.js fetches once more only
        when a push dropped while the tap was on its way was newer."""
        self.tapping = False
        self.reached(version)
        if self.dropped > self.have:
            self.spawn_fetch()
        self.dropped = -1

    async def poll(self, until: float) -> None:
        """app.js's fallback: a fetch once the stream has said nothing for POLL_S."""
        self.heard = time.perf_counter() - random.uniform(0, POLL_S)
        while time.perf_counter() < until:
            quiet = time.perf_counter() - self.heard
            if quiet >= POLL_S:
                self.heard = time.perf_counter()
                await self.fetch()
            else:
                await asyncio.sleep(POLL_S - quiet)


@dataclass
class Tap:
    t0: float
    version: int


class LiveTable:
    def __init__(self, port: int, setup: TableSetup, stats: Stats) -> None:
        self.setup = setup
        self.stats = stats
        self.tablet = LiveDevice(port, dict(setup.tablet_cookies), f"/t/{setup.id}/events",
                                 f"/t/{setup.id}/view", setup.version, stats)
        self.phones = [LiveDevice(port, dict(cookies), f"/s/{token}/events",
                                  f"/s/{token}/view", setup.version, stats)
                       for _name, token, cookies in setup.seats]
        self.devices = [self.tablet, *self.phones]
        self.plan = StealPlan([name for name, _t, _c in setup.seats])
        self.taps: list[Tap] = []

    async def referee(self, delay: float, interval: float, until: float) -> None:
        await asyncio.sleep(delay)
        due = time.perf_counter()
        while time.perf_counter() < until:
            step = self.plan.next()
            form = urllib.parse.urlencode({"csrf": self.setup.csrf,
                                           "version": str(self.tablet.have), **step}).encode()
            t0 = time.perf_counter()
            self.tablet.tapping = True
            try:
                status, _h, body = await self.tablet.http.request(
                    "POST", f"/t/{self.setup.id}/step",
                    {"HX-Request": "true",
                     "Content-Type": "application/x-www-form-urlencoded"}, form)
            except (OSError, asyncio.IncompleteReadError, HTTPError) as e:
                self.stats.error(f"POST step: {type(e).__name__}")
                return
            self.stats.post.append(time.perf_counter() - t0)
            if status != 200:
                self.stats.error(f"POST step: HTTP {status}")
                return  # the plan is off; stop this table rather than guess
            version = int(VERSION.search(body).group(1))  # type: ignore[union-attr]
            self.taps.append(Tap(t0, version))
            self.tablet.answered(version)
            due += interval
            await asyncio.sleep(max(0.0, due - time.perf_counter()))

    def results(self) -> tuple[list[float], int, int]:
        """(tap-to-every-screen latencies, missed (device, tap) pairs, taps)."""
        latencies, missed = [], 0
        for tap in self.taps:
            latency, late = tap_latency(tap.t0, [d.when(tap.version) for d in self.devices])
            latencies.append(latency)
            missed += late
        return latencies, missed, len(self.taps)


def tap_latency(t0: float, reached: list[float | None]) -> tuple[float, int]:
    """(the time from ``t0`` until every device held the tap's version, the devices that
    missed it). A device that never got there, or only after MISSED_AFTER_S, makes the tap's
    time infinite: a tap is on every screen only once it is on the last one."""
    late = sum(1 for t in reached if t is None or t - t0 > MISSED_AFTER_S)
    if late:
        return float("inf"), late
    return max((t - t0 for t in reached if t is not None), default=0.0), 0


async def loop_lag(until: float, lags: list[float], every: float = 0.05) -> None:
    """How late the client's event loop wakes up: a busy client would show here."""
    while time.perf_counter() < until:
        t = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - t - every)


async def drive(port: int, setups: list[TableSetup], seconds: float, interval: float,
                server_pid: int | None = None,
                ) -> tuple[Stats, list[LiveTable], list[float], float, float, float]:
    """Open every stream, then tap for ``seconds`` (and wait out the last taps' 5 s). The last
    figure is the server's CPU seconds over the tapping alone (from /proc, given its pid): the
    streams' opening (a fetch each) is a cost of the evening's start, not of its taps; it is
    printed apart (about 20 ms for one table's 7 streams: 2 ms on each of its 10 taps)."""
    stats = Stats()
    tables = [LiveTable(port, s, stats) for s in setups]
    devices = [d for t in tables for d in t.devices]
    listeners = []
    for i in range(0, len(devices), 50):  # open the streams in batches (listen backlog)
        batch = devices[i:i + 50]
        listeners += [asyncio.ensure_future(d.listen()) for d in batch]
        await asyncio.gather(*(d.opened.wait() for d in batch))
    await asyncio.sleep(1.0)  # the opening fetches settle
    cpu0, wall0 = time.process_time(), time.perf_counter()
    server0 = cpu_reading(server_pid) if server_pid else None
    until = wall0 + seconds
    lags: list[float] = []
    work = [asyncio.ensure_future(loop_lag(until + MISSED_AFTER_S, lags))]
    work += [asyncio.ensure_future(d.poll(until)) for d in devices]
    work += [asyncio.ensure_future(t.referee(i * interval / len(tables), interval, until))
             for i, t in enumerate(tables)]
    await asyncio.sleep(seconds + MISSED_AFTER_S)  # the last taps get their 5 s too
    client_cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    server_cpu = cpu_reading(server_pid).since(server0) if server_pid and server0 else float("nan")
    for d in devices:
        d.closing = True
    fetches = [task for d in devices for task in d.tasks]
    for task in work + listeners + fetches:
        task.cancel()
    await asyncio.gather(*work, *listeners, *fetches, return_exceptions=True)
    for d in devices:
        d.http.close()
    return stats, tables, lags, client_cpu, wall, server_cpu
