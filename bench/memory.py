"""Where the memory of N open tables goes, in-process: the caches of drawn screens and states.

    .venv-test/bin/python bench/memory.py 300            (about a minute)
    .venv-test/bin/python bench/memory.py 300 --trace 15 (and the 15 biggest allocation sites)
    .venv-test/bin/python bench/memory.py 40 --taps 20 --held (what each cache holds per table)

One app in Flask's test client; N started tables (a tablet and 6 phones each, as in
`bench/tap.py`), every device holding its event stream; then each table's referee taps
--taps times, each tap's 7 events read, tables in turn. Prints what the fragment cache and the
state cache hold (entries, and the fragments' bytes), the process's RSS, and with ``--trace K``
the K allocation sites that hold most once the tapping is done (tracemalloc: the RSS of a traced
run is not the one to quote). With ``--held``, the memory traced per table once the tapping is
done, then what each of the app's memos frees per table when it is emptied, one after the other
(the streams last): a memo with a global bound holds a fixed amount once 300 tables fill it;
what keeps growing with the tables is what matters. No gevent here: a stream is a generator,
not a greenlet, so the per-stream cost of the real server is `bench/streams.py`'s figure.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tablekit import HTMX, Table, csrf_of, make_app, started_table, version_of  # noqa: E402

import app.engine.prompts  # noqa: E402
import app.i18n  # noqa: E402
import app.web.admission  # noqa: E402
import app.web.commons  # noqa: E402
import app.web.links  # noqa: E402
import app.web.loglines  # noqa: E402
import app.web.phoneanswer  # noqa: E402
import app.web.phoneframe  # noqa: E402
import app.web.phoneparts  # noqa: E402
import app.web.views  # noqa: E402
import app.web.waitingwords  # noqa: E402
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
            f"states {len(states):,}")


def memos(flask_app: Any) -> dict[str, Callable[[], object]]:
    """How to empty each memo of the app, by name (their bounds: docs/PERFORMANCE-HISTORY.md)."""
    links = flask_app.jinja_env.globals["url_for"]
    return {
        "fragments": flask_app.extensions["fragments"]._drawn.clear,
        "states": flask_app.extensions["tables"].states._states.clear,
        "commons": app.web.commons.common._held.clear,
        "log lines": app.web.loglines._drawn.clear,
        "worded rulings": app.i18n._worded_memo.clear,
        "translations": app.i18n._translated.cache_clear,
        "links": links._built.clear,
        "pending": app.engine.prompts._pending._memo.clear,
        "QR codes": app.web.views.qr_svg.cache_clear,
        "public views": app.web.views.public_view._memo.clear,
        "phone rows": app.web.phoneparts._row.cache_clear,
        "phone feet": app.web.phoneparts._foot.cache_clear,
        "seat links": app.web.links._seat_links.cache_clear,
        "phone tops": app.web.phoneframe._top.cache_clear,
        "turn lines": app.web.phoneframe._turn.cache_clear,
        "waiting lines": app.web.waitingwords._worded.clear,
        "answer buttons": app.web.phoneanswer._slotted.cache_clear,
        "empty prompts": app.web.phoneframe._no_steps.cache_clear,
    }


def held_per_table(flask_app: Any, tables: list[OpenTable], base: int) -> None:
    """What is traced per table now, then what each memo frees, emptied in turn."""
    gc.collect()
    now = tracemalloc.get_traced_memory()[0]
    print(f"  traced: {(now - base) / len(tables) / 1024:.0f} KiB per table")
    emptied = memos(flask_app)
    emptied["streams"] = lambda: [table.streams.clear() for table in tables]
    for name, empty in emptied.items():
        empty()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        print(f"  {name:>15}: {(now - after) / len(tables) / 1024:6.1f} KiB per table")
        now = after


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tables", nargs="?", type=int, default=300)
    parser.add_argument("--taps", type=int, default=4, help="taps per table (default 4)")
    parser.add_argument("--trace", type=int, default=0, metavar="K")
    parser.add_argument("--held", action="store_true", help="what each memo holds per table")
    args = parser.parse_args(argv)
    app.web.admission.NEW_TABLES_PER_DEVICE = 10**6  # type: ignore[misc]  # one client, N tables
    if args.trace or args.held:
        tracemalloc.start(8 if args.trace else 1)
    with tempfile.TemporaryDirectory(prefix="coup-memory-") as instance:
        flask_app = make_app(Path(instance))
        OpenTable(started_table(flask_app, {n: list(HANDS[n]) for n in NAMES})).tap()  # warm
        gc.collect()
        base = tracemalloc.get_traced_memory()[0]
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
        if args.held:
            held_per_table(flask_app, tables, base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
