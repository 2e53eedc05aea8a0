"""Where the memory of N open tables goes, in-process: the caches of drawn screens and states.

    .venv-test/bin/python bench/memory.py 300            (about a minute)
    .venv-test/bin/python bench/memory.py 300 --trace 15 (and the 15 biggest allocation sites)

One app in Flask's test client; N started tables (a tablet and 6 phones each, as in
`bench/tap.py`), every device holding its event stream; then each table's referee taps
--taps times, each tap's 7 events read, tables in turn. Prints what the fragment cache and the
state cache hold (entries, and the fragments' bytes), the process's RSS, and with ``--trace K``
the K allocation sites that hold most once the tapping is done (tracemalloc: the RSS of a traced
run is not the one to quote). No gevent here: a stream is a generator, not a greenlet, so the
per-stream cost of the real server is `bench/streams.py`'s figure.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tablekit import HTMX, Table, csrf_of, make_app, started_table, version_of  # noqa: E402

import app.web.admission  # noqa: E402
from bench.common import HANDS, NAMES, StealPlan, rss_mb  # noqa: E402


class OpenTable:
    """A started table whose 7 devices each hold their event stream, its referee tapping."""

    def __init__(self, table: Table) -> None:
        self.table = table
        page = table.page()
        self.csrf, self.version = csrf_of(page), version_of(page)
        self.plan = StealPlan()
        devices = [(table.tablet, table.url)] + [(table.phone(n), table.link(n)) for n in NAMES]
        self.streams: list[Iterator[bytes]] = []
        for client, url in devices:
            chunks = iter(client.get(f"{url}/events", buffered=False).response)
            next(chunks)  # the opening comment
            self.streams.append(chunks)

    def tap(self) -> None:
        form = {"csrf": self.csrf, "version": self.version, **self.plan.next()}
        answer = self.table.tablet.post(self.table.url + "/step", data=form, headers=HTMX)
        assert answer.status_code == 200, answer.status_code
        self.version = str(int(self.version) + 1)
        for stream in self.streams:
            next(stream)


def held(flask_app: object) -> str:
    """What the app's caches hold now."""
    extensions = flask_app.extensions  # type: ignore[attr-defined]
    fragments = extensions["fragments"]
    states = extensions["tables"].states
    kept = fragments.size_in_bytes
    return (f"fragments {len(fragments):,} ({kept / 2**20:.1f} MiB of UTF-8), "
            f"states {len(states._states):,}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tables", nargs="?", type=int, default=300)
    parser.add_argument("--taps", type=int, default=4, help="taps per table (default 4)")
    parser.add_argument("--trace", type=int, default=0, metavar="K")
    args = parser.parse_args(argv)
    app.web.admission.NEW_TABLES_PER_DEVICE = 10**6  # type: ignore[misc]  # one client, N tables
    if args.trace:
        tracemalloc.start(8)
    with tempfile.TemporaryDirectory(prefix="coup-memory-") as instance:
        flask_app = make_app(Path(instance))
        tables = [OpenTable(started_table(flask_app, {n: list(HANDS[n]) for n in NAMES}))
                  for _ in range(args.tables)]
        opened = rss_mb(os.getpid())[0]
        for _ in range(args.taps):
            for table in tables:
                table.tap()
        gc.collect()
        now, peak = rss_mb(os.getpid())
        print(f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.2f}: "
              f"{args.tables} tables, {args.taps} taps each: RSS {opened:.1f} MiB with the "
              f"streams open, {now:.1f} MiB after the taps (peak {peak:.1f}); {held(flask_app)}")
        if args.trace:
            top = tracemalloc.take_snapshot().statistics("lineno")[:args.trace]
            for stat in top:
                print(f"  {stat.size / 2**20:7.2f} MiB {stat.count:8,} {stat.traceback[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
