"""Server CPU and Python calls per tap, in-process: the figure that does not depend on the load.

    .venv-test/bin/python bench/tap.py               (about 20 s)
    .venv-test/bin/python bench/tap.py --profile 30  (cProfile: the 30 costliest functions)

One table (a tablet and 6 phones, hands entered, the game started) in Flask's test client, each
device holding its event stream as a browser does. A tap is what `bench/load.py` makes of it:
the referee's POST (htmx, `Accept-Encoding: gzip`) and the `changed` event each of the 7
streams sends, carrying that device's screen (the tablet's, whose tap it was, may carry only
the version: its POST's answer has the screen). No fetch follows: app.js fetches after a tap's
answer only when a push newer than the answer was dropped while the tap was on its way, and
here none is (each tap is answered before the next). The referee steals for the player to move and
nobody challenges (`bench.common.StealPlan`). After 20 taps to warm up, 5 rounds of 40 taps are
timed with `time.process_time()` (the best and the median round are printed, and the mean
split into the POST's share and the 7 events'), and one more
round is run under cProfile to count the Python function calls per tap, a figure no other load
on the machine can change. Needs the test venv (it uses tests/tablekit.py).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tablekit import HTMX, csrf_of, make_app, started_table, version_of  # noqa: E402

from bench.common import HANDS, NAMES, StealPlan  # noqa: E402
from bench.machine import describe  # noqa: E402

WARM, ROUNDS, TAPS = 20, 5, 40
EVENT_VERSION = re.compile(r'data-version="(\d+)"')


class TapBench:
    """A started table whose 7 devices each hold an open event stream."""

    def __init__(self, instance: str) -> None:
        self.app = make_app(Path(instance))
        self.table = started_table(self.app, {n: list(HANDS[n]) for n in NAMES})
        page = self.table.page()
        self.csrf, self.version = csrf_of(page), version_of(page)
        self.plan = StealPlan()
        self.post_cpu = 0.0  # of all taps so far: the POST's share (the rest: the events)
        self.streams: list[Iterator[bytes]] = []
        devices = [(self.table.tablet, self.table.url)] + [
            (self.table.phone(n), self.table.link(n)) for n in NAMES]
        for client, url in devices:
            response = client.get(f"{url}/events", buffered=False)
            chunks = iter(response.response)
            next(chunks)  # the opening comment
            self.streams.append(chunks)

    def tap(self) -> None:
        form = {"csrf": self.csrf, "version": self.version, **self.plan.next()}
        start = time.process_time()
        answer = self.table.tablet.post(self.table.url + "/step", data=form,
                                        headers={**HTMX, "Accept-Encoding": "gzip"})
        self.post_cpu += time.process_time() - start
        assert answer.status_code == 200, answer.status_code
        self.version = str(int(self.version) + 1)
        for stream in self.streams:
            event = next(stream)
            text = event.decode() if isinstance(event, bytes) else str(event)
            found = EVENT_VERSION.search(text)
            assert (found and found.group(1) == self.version) or \
                text == f"event: changed\ndata: {self.version}\n\n", text[:200]

    def cpu_per_tap(self, taps: int) -> float:
        start = time.process_time()
        for _ in range(taps):
            self.tap()
        return (time.process_time() - start) / taps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print the N costliest functions (cumulative) of the profiled round")
    args = parser.parse_args(argv)
    print(describe(), flush=True)
    with tempfile.TemporaryDirectory(prefix="coup-tap-") as instance:
        bench = TapBench(instance)
        for _ in range(WARM):
            bench.tap()
        bench.post_cpu = 0.0
        rounds = [bench.cpu_per_tap(TAPS) for _ in range(ROUNDS)]
        post = bench.post_cpu / (ROUNDS * TAPS)
        events = statistics.mean(rounds) - post
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(TAPS):
            bench.tap()
        profile.disable()
        stats = pstats.Stats(profile)
        calls = stats.total_calls / TAPS  # type: ignore[attr-defined]
        print(f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.2f}: "
              f"CPU per tap best {min(rounds) * 1e3:.2f} ms, median "
              f"{statistics.median(rounds) * 1e3:.2f} ms ({ROUNDS} rounds of {TAPS} taps); "
              f"{calls:,.0f} Python calls per tap; of the mean, the POST {post * 1e3:.2f} ms and "
              f"the 7 events {events * 1e3:.2f} ms")
        if args.profile:
            stats.sort_stats("cumulative").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
