"""Live-update load: N tables, each a tablet and 6 phones on SSE, the referee tapping steadily.

    .venv/bin/python bench/load.py              (1, 10, 100 and 300 tables; about 4 minutes)
    .venv/bin/python bench/load.py 100 --seconds 30 --interval 2

Each scenario starts its own `coup-referee serve` on 127.0.0.1 (one process), sets the tables
up the way the pages do (csrf tokens scraped, cookies kept), then for --seconds:

- every device (the tablet and 6 phones per table) holds an SSE stream (`/t/<id>/events`,
  `/s/<token>/events`); a `changed` event carries the device's fresh screen (htmx swaps it in:
  `sse-swap`), and an event carrying only a newer version makes it GET its fragment
  (`view?since=<the version it has>`), as htmx does; a request already in flight makes one more
  follow it (htmx queues the last trigger). Each device also fetches when its stream has said
  nothing for 10 s and once when its stream opens (app.js). While the tablet's own tap is on
  its way, its events are dropped, and after the answer it fetches only if a dropped one was
  newer than the answer (app.js). Requests send `Accept-Encoding: gzip` like a browser;
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
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (  # noqa: E402
    Sampler,
    Server,
    percentile,
    rss_mb,
    summary_ms,
)
from bench.devices import (  # noqa: E402
    TableSetup,
    create_table,
    referee_address,
)
from bench.livetables import MISSED_AFTER_S, drive  # noqa: E402
from bench.machine import describe  # noqa: E402


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
    print(describe(), flush=True)
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
