"""Live-update load: N tables, each a tablet and 6 phones on SSE, the referee tapping steadily.

    .venv/bin/python bench/load.py              (1, 10, 100 and 300 tables; about 4 minutes)
    .venv/bin/python bench/load.py 100 --seconds 30 --interval 2

Each scenario starts its own `coup-referee serve` on 127.0.0.1 (one process), sets the tables
up the way the pages do (csrf tokens scraped, cookies kept), then for --seconds:

- every device (the tablet and 6 phones per table) holds an SSE stream (`/t/<id>/events`,
  `/s/<token>/events`); a `changed` event carries the device's fresh screen (htmx swaps it in:
  `sse-swap`), and an event carrying only a version makes it GET its fragment
  (`view?since=<the version it has>`), as htmx does; a request already in flight makes one more
  follow it (htmx queues the last trigger). Each device also fetches when its stream has said
  nothing for 10 s and once when its stream opens (app.js). Requests send
  `Accept-Encoding: gzip` like a browser;
- the referee of each table posts one step every --interval seconds (tables staggered): the
  player to move steals from the richest other player, nobody challenges, nobody blocks. Coins
  stay in 0..4, so the game never needs a phone's input and never ends (checked against the
  engine by tests/bench/test_bench_helpers.py).

A tap's time is from sending the POST to the moment the last of the table's 7 devices holds the
new version (the tablet from its POST answer or its fetch, a phone from its fetch). A device
that has not got there within 5 s is a missed update. Figures: tap-to-every-screen and request
latencies (p50/p95/p99/max), errors, missed updates, the server's RSS and CPU (from /proc; its
CPU per tap counts the tapping and its last 5 s, not the streams' opening), and the client's own
CPU and event-loop lag (a busy client would inflate every figure).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (  # noqa: E402
    VERSION,
    Sampler,
    Server,
    StealPlan,
    cpu_seconds,
    percentile,
    rss_mb,
    summary_ms,
)
from bench.devices import (  # noqa: E402
    AsyncDevice,
    HTTPError,
    TableSetup,
    create_table,
    referee_address,
    request_bytes,
    sse_events,
)

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
                    screen = VERSION.search(data.encode())
                    if screen:  # the fresh screen came inside the event (sse-swap)
                        self.reached(int(screen.group(1)))
                    elif int(data) > self.have:
                        self.spawn_fetch()
            if not self.closing:
                self.stats.error("SSE stream ended")
        except (OSError, asyncio.IncompleteReadError) as e:
            if not self.closing:
                self.stats.error(f"SSE: {type(e).__name__}")
        except asyncio.CancelledError:
            pass
        finally:
            writer.close()

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
            self.tablet.reached(version)
            self.tablet.spawn_fetch()  # app.js asks once more when a tap's answer is in
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
    server0 = cpu_seconds(server_pid) if server_pid else 0.0
    until = wall0 + seconds
    lags: list[float] = []
    work = [asyncio.ensure_future(loop_lag(until + MISSED_AFTER_S, lags))]
    work += [asyncio.ensure_future(d.poll(until)) for d in devices]
    work += [asyncio.ensure_future(t.referee(i * interval / len(tables), interval, until))
             for i, t in enumerate(tables)]
    await asyncio.sleep(seconds + MISSED_AFTER_S)  # the last taps get their 5 s too
    client_cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    server_cpu = cpu_seconds(server_pid) - server0 if server_pid else float("nan")
    for d in devices:
        d.closing = True
    fetches = [task for d in devices for task in d.tasks]
    for task in work + listeners + fetches:
        task.cancel()
    await asyncio.gather(*work, *listeners, *fetches, return_exceptions=True)
    for d in devices:
        d.http.close()
    return stats, tables, lags, client_cpu, wall, server_cpu


def set_up(port: int, count: int) -> list[TableSetup]:
    with ThreadPoolExecutor(max_workers=min(8, count)) as pool:
        return list(pool.map(lambda i: create_table(port, source=referee_address(i)),
                             range(count)))


def profiler(pid: int, seconds: float, path: str | None) -> subprocess.Popen[bytes] | None:
    """py-spy (if installed, for investigation only) recording the server for `seconds`."""
    if not path:
        return None
    spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen([str(spy), "record", "--pid", str(pid), "--duration",
                             str(int(seconds)), "--rate", "250", "--idle", "--format", "raw",
                             "--output", path, "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def scenario(count: int, seconds: float, interval: float,
             profile: str | None = None) -> dict[str, object]:
    print(f"\n== {count} table(s): {count * 7} live devices, one step per table every "
          f"{interval:g} s, {seconds:g} s ==", flush=True)
    with Server() as server:
        t = time.perf_counter()
        setups = set_up(server.port, count)
        print(f"set-up: {count} tables started in {time.perf_counter() - t:.1f} s; "
              f"server RSS {rss_mb(server.pid)[0]:.1f} MiB", flush=True)
        spy = profiler(server.pid, seconds, profile)
        with Sampler(server.pid) as sampler:
            stats, tables, lags, client_cpu, wall, tapping_cpu = asyncio.run(
                drive(server.port, setups, seconds, interval, server.pid))
        if spy is not None:
            spy.wait(30)
        errors_in_log = server.output().count("Traceback")
    latencies: list[float] = []
    missed = taps = 0
    for table in tables:
        lat, miss, n = table.results()
        latencies += lat
        missed += miss
        taps += n
    errors = sum(stats.errors.values()) + errors_in_log
    print(f"taps: {taps} ({taps / seconds:.1f}/s); tap to every screen: {summary_ms(latencies)}")
    print(f"POST step: {summary_ms(stats.post)}")
    print(f"GET view: {summary_ms(stats.get)} ({stats.gets_200} x 200, {stats.gets_204} x 204)")
    print(f"SSE changed events received: {stats.events}")
    print(f"errors: {errors} {dict(stats.errors) if stats.errors else ''}"
          f"{f' + {errors_in_log} tracebacks in the server log' if errors_in_log else ''}")
    print(f"missed updates (device not at the new version within {MISSED_AFTER_S:g} s): {missed}")
    print(f"server: RSS {sampler.rss[-1]:.1f} MiB at the end, peak {sampler.peak:.1f} MiB; "
          f"CPU {sampler.cpu_share * 100:.0f}% of one core, "
          f"{tapping_cpu / max(1, taps) * 1e3:.1f} ms per tap while tapping (all requests "
          f"included; {(sampler.cpu - tapping_cpu) * 1e3:.0f} ms to open the streams)")
    client = client_cpu / wall
    print(f"client: CPU {client * 100:.0f}% of one core; event-loop lag "
          f"p99 {percentile(lags, 99) * 1e3:.1f} ms, max {max(lags) * 1e3:.1f} ms")
    others = max(0.0, sampler.machine_share - sampler.cpu_share - client)
    print(f"machine: {sampler.machine_share:.2f} of {os.cpu_count()} cores busy, of which "
          f"{others:.2f} by other programs" + (" (the figures above are disturbed)"
                                              if others > 0.2 else ""))
    return {"tables": count, "taps": taps, "p50": percentile(latencies, 50),
            "p95": percentile(latencies, 95), "p99": percentile(latencies, 99),
            "errors": errors, "missed": missed, "peak_mb": sampler.peak,
            "server_cpu": sampler.cpu_share, "others": others,
            "cpu_per_tap": tapping_cpu / max(1, taps)}


LOAD_BEFORE = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tables", nargs="*", type=int, default=[1, 10, 100, 300])
    parser.add_argument("--seconds", type=float, default=30.0, help="tapping time per scenario")
    parser.add_argument("--interval", type=float, default=2.0,
                        help="seconds between two steps of one table")
    parser.add_argument("--profile", metavar="PATH",
                        help="record the server with py-spy (pip install py-spy) into PATH "
                             "(collapsed stacks)")
    args = parser.parse_args(argv)
    results = [scenario(n, args.seconds, args.interval, args.profile) for n in args.tables]
    print("\ntables  taps   p50 ms  p95 ms  p99 ms  errors  missed  peak RSS MiB"
          "  server CPU  CPU per tap  other load")
    for r in results:
        print(f"{r['tables']:>6} {r['taps']:>5} {r['p50'] * 1e3:>8.1f}"  # type: ignore[operator]
              f"{r['p95'] * 1e3:>8.1f}{r['p99'] * 1e3:>8.1f}{r['errors']:>8}"  # type: ignore[operator]
              f"{r['missed']:>8}{r['peak_mb']:>14.1f}{r['server_cpu'] * 100:>11.0f}%"  # type: ignore[operator]
              f"{r['cpu_per_tap'] * 1e3:>10.1f} ms{r['others']:>12.2f}")  # type: ignore[operator]
    print(f"other load before the run (/proc/loadavg): {LOAD_BEFORE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
