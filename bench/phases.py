"""Where a tap's CPU goes on the real server, back to back and after a quiet spell.

    .venv/bin/python bench/phases.py                  (about 1 minute)
    .venv/bin/python bench/phases.py 200 --pause 0.5

Starts `coup-referee serve` with a timer around its parts (the server's own code unchanged:
this file starts it, wraps the functions below, then runs the usual `serve`), sets one table up
(a tablet and 6 phones, each holding its stream), and makes N taps back to back, then N taps
each after S seconds of quiet, as `bench/cost.py --pause` does. Each part's CPU is read with
the thread's clock (the server is one thread: the deliverer is a greenlet) and the median of
each part printed for both, with what quiet added.

A tap here runs from the end of the previous tap's last event to the end of its own: the
server waking, gevent reading the POST, Flask around the view, the view's parts (the table
loaded, the CSRF check, the form read, the step checked and applied, the write, the tablet's
screen), gzip, then the 7 events (drawn, sent). Timing a part costs ~1 µs of each reading; the
parts are for comparing with each other and with themselves after quiet, not for the tap's
total (`bench/cost.py` reads that without a timer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import Server  # noqa: E402
from bench.cost import WARM, Referee, close, open_table  # noqa: E402
from bench.devices import create_table  # noqa: E402
from bench.machine import describe  # noqa: E402

POST_PARTS = (  # (label, module, owner or "", function): timed inside the tap's POST
    ("Flask around the view", "flask", "Flask", "wsgi_app"),
    ("the view", "flask", "Flask", "dispatch_request"),
    ("the table loaded", "app.web.tablet", "", "referee_state"),
    ("the CSRF check", "app.web.tablet", "", "csrf_ok"),
    ("the form read", "werkzeug.wrappers.request", "Request", "_load_form_data"),
    ("the step checked and applied", "app.web.service", "", "apply"),
    ("the write (SQLite, the new state, the publish)", "app.web.service", "Tables", "commit"),
    ("the tablet's screen", "app.web.tablet", "", "fragment_answer"),
    ("gzip", "gzip", "", "compress"),
    ("gevent reading the head", "gevent.pywsgi", "WSGIHandler", "read_request"),
)
EVENT_PARTS = (  # timed after the POST, while the deliverer writes the events
    ("the 7 events drawn", "app.live", "Stream", "after"),
    ("the 7 events sent", "app.outlet", "SocketOutlet", "send"),
)
INSIDE = {  # a part that holds others: printed less what it holds
    "Flask around the view": ("the view", "gzip"),
    "the view": ("the table loaded", "the CSRF check", "the form read",
                 "the step checked and applied", "the write (SQLite, the new state, the publish)",
                 "the tablet's screen"),
}


class Timer:
    """Each tap's parts, in thread CPU nanoseconds, written to ``out`` one JSON line a tap."""

    def __init__(self, out: Path) -> None:
        self.out = out.open("a", encoding="utf-8")
        self.tap: dict[str, int] | None = None  # the tap under way
        self.in_post = False
        self.last_end = time.thread_time_ns()  # the end of the last event written

    def wrap(self, owner: Any, name: str, label: str, during_post: bool) -> None:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time_ns()
            try:
                return original(*args, **kwargs)
            finally:
                if self.tap is not None and self.in_post == during_post:
                    self.tap[label] = self.tap.get(label, 0) + time.thread_time_ns() - start

        setattr(owner, name, timed)

    def around_requests(self, handler: Any) -> None:
        """A tap begins where gevent reads a step's head: the one before it is written."""
        read_request, handle = handler.read_request, handler.handle_one_request

        def read(this: Any, line: str) -> Any:
            if " /t/" in line and line.split()[1].endswith("/step"):
                now = time.thread_time_ns()
                self.finish(now)
                self.tap = {"waking and the request line": now - self.last_end, "_start": now}
                self.in_post = True
            return read_request(this, line)

        def one(this: Any) -> Any:
            try:
                return handle(this)
            finally:
                if self.in_post:
                    self.in_post = False
                    assert self.tap is not None
                    self.tap["the POST"] = time.thread_time_ns() - self.tap["_start"]

        handler.read_request, handler.handle_one_request = read, one

    def after_events(self, deliverer: Any) -> None:
        deliver = deliverer._deliver

        def delivered(this: Any, *args: Any) -> Any:
            try:
                return deliver(this, *args)
            finally:
                self.last_end = time.thread_time_ns()

        deliverer._deliver = delivered

    def finish(self, now: int) -> None:
        if self.tap is not None:
            self.tap["the whole tap"] = self.last_end - self.tap.pop("_start") + \
                self.tap["waking and the request line"]
            self.out.write(json.dumps(self.tap) + "\n")
            self.out.flush()
        self.tap = None

    def close(self) -> None:
        self.out.close()


def serve_timed(out: str, argv: list[str]) -> int:
    """The server side: gevent's patching first (as `serve` does), the timer, then `serve`."""
    from gevent import monkey

    monkey.patch_all()
    import importlib

    timer = Timer(Path(out))
    for parts, during_post in ((POST_PARTS, True), (EVENT_PARTS, False)):
        for label, module, owner, name in parts:
            found = importlib.import_module(module)
            timer.wrap(getattr(found, owner) if owner else found, name, label, during_post)
    from gevent import pywsgi

    from app.deliverer import Deliverer

    timer.around_requests(pywsgi.WSGIHandler)
    timer.after_events(Deliverer)
    from app.cli import main

    return main(argv)


def summary(taps: list[dict[str, int]]) -> dict[str, float]:
    """The median of each part in µs, each holder less what it holds."""
    def own(tap: dict[str, int], label: str) -> int:
        return tap.get(label, 0) - sum(tap.get(inner, 0) for inner in INSIDE.get(label, ()))

    labels = ["waking and the request line", "gevent reading the head",
              *[label for label, *_ in POST_PARTS if label != "gevent reading the head"],
              "the POST", *[label for label, *_ in EVENT_PARTS], "the whole tap"]
    return {label: statistics.median([own(tap, label) for tap in taps]) / 1e3
            for label in labels}


async def measure(server: Server, out: Path, count: int, pause: float
                  ) -> list[dict[str, float]]:
    setup = create_table(server.port)
    referee = Referee(server.port, setup)
    tap, listeners = await open_table(server.port, setup, referee)
    for _ in range(WARM):
        await tap()
    results = []
    for quiet in (0.0, pause):
        out.write_text("")
        for _ in range(count + 1):  # a tap is written when the next one begins
            await asyncio.sleep(quiet)
            await tap()
        lines = out.read_text().splitlines()[1:]  # the first: the tap before these
        results.append(summary([json.loads(line) for line in lines]))
    await close(listeners, referee)
    return results


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--serve"]:  # the server side, started by the measuring side below
        return serve_timed(args_in[1], args_in[2:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", nargs="?", type=int, default=100, help="taps of each kind")
    parser.add_argument("--pause", type=float, default=0.2, metavar="S",
                        help="the quiet before each tap of the second kind (default 0.2 s)")
    args = parser.parse_args(args_in)
    print(describe(), flush=True)
    server = Server()
    out = Path(server.instance) / "phases.jsonl"
    server.command = [sys.executable, str(Path(__file__).resolve()), "--serve", str(out),
                      *server.command[1:]]
    with server:
        warm, cold = asyncio.run(measure(server, out, args.count, args.pause))
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"a tap's parts, server CPU, median of {args.count} taps (load average {load}):")
    print(f"{'part':50} {'back to back':>13} {f'after {args.pause:g} s':>13} {'added':>8}")
    for label in warm:
        print(f"{label:50} {warm[label]:10.0f} µs {cold[label]:10.0f} µs "
              f"{cold[label] - warm[label]:+6.0f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
