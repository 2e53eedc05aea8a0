"""The real server's CPU per request, one kind at a time: what gevent, the sockets and Flask add
to the app's own work (which `bench/tap.py` counts in-process).

    .venv/bin/python bench/cost.py          (about 30 s)
    .venv/bin/python bench/cost.py 500      (more requests of each kind)
    .venv/bin/python bench/cost.py --callgrind 30  (instructions per tap, under valgrind)
    .venv/bin/python bench/cost.py --callgrind 30 --keep cg.out
                                    (and callgrind's file, for `callgrind_annotate cg.out`)
    .venv/bin/python bench/cost.py 100 --pause 0.2
                                    (also: a tap after 0.2 s of quiet, as in bench/load.py)

Starts `coup-referee serve`, sets one table up (a tablet and 6 phones, the game started), then
makes N requests of each kind in sequence, one at a time, and reads the server's user and
system CPU time from /proc before and after each kind:

- `GET /healthz`;
- a tablet's fetch that finds nothing new (a 204);
- the referee's step alone (a POST, htmx, gzip; no stream open);
- a whole tap as `bench/load.py` makes it: the POST and the `changed` event of each of the 7
  open streams (six carrying a phone's screen, the tablet's only the version). No fetch
  follows: app.js fetches after a tap only when a push newer than its answer was dropped
  while the tap was on its way, and with one tap at a time none is.

Sequential requests on one client: CPU time is what the figures are, and no other load on the
machine changes how much work a request is (it changes how long it waits). System time is the
kernel's share (the sends, the receives, the wake-ups), printed apart.

With ``--pause S``, one more kind: the same tap after S seconds in which the server does
nothing, as each table's taps come 2 s apart in `bench/load.py`. The same work then finds the
processor's caches cold and costs more; each tap's CPU is read exactly around it
(`bench.common.cpu_reading`), so the quiet between taps is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import subprocess
import sys
import urllib.parse
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (  # noqa: E402
    VERSION,
    Server,
    StealPlan,
    cpu_reading,
    user_and_system,
)
from bench.devices import (  # noqa: E402
    AsyncDevice,
    TableSetup,
    create_table,
    request_bytes,
    sse_events,
)
from bench.machine import describe  # noqa: E402

WARM = 10
HTMX = {"HX-Request": "true"}


class Referee:
    """The table's tablet: its steps (the steal plan of `bench/load.py`) and its fetches."""

    def __init__(self, port: int, setup: TableSetup) -> None:
        self.setup = setup
        self.http = AsyncDevice(port, setup.tablet_cookies, "gzip")
        self.plan = StealPlan([name for name, _t, _c in setup.seats])
        self.version = setup.version

    async def step(self) -> None:
        form = urllib.parse.urlencode({"csrf": self.setup.csrf, "version": str(self.version),
                                       **self.plan.next()}).encode()
        status, _h, body = await self.http.request(
            "POST", f"/t/{self.setup.id}/step",
            {**HTMX, "Content-Type": "application/x-www-form-urlencoded"}, form)
        found = VERSION.search(body)
        if status != 200 or found is None:
            raise RuntimeError(f"step: HTTP {status}")
        self.version = int(found.group(1))

    async def fetch(self) -> None:
        status, _h, _b = await self.http.request(
            "GET", f"/t/{self.setup.id}/view?since={self.version}", HTMX)
        if status != 204:
            raise RuntimeError(f"fetch: HTTP {status}, expected 204")

    async def healthz(self) -> None:
        status, _h, _b = await self.http.request("GET", "/healthz")
        if status != 200:
            raise RuntimeError(f"healthz: HTTP {status}")


async def listen(port: int, path: str, cookies: dict[str, str],
                 events: asyncio.Queue[str]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request_bytes("GET", path, port, cookies, {"Accept": "text/event-stream"}))
    await reader.readuntil(b"\r\n\r\n")
    events.put_nowait("open")
    try:
        async for event, data in sse_events(reader):
            if event == "changed":
                events.put_nowait(data)
    finally:
        writer.close()


async def measure(server: Server, count: int, pause: float = 0.0
                  ) -> dict[str, tuple[float, float]]:
    setup = create_table(server.port)
    referee = Referee(server.port, setup)
    costs: dict[str, tuple[float, float]] = {}

    async def per_request(name: str, one: object) -> None:
        before = user_and_system(server.pid)
        for _ in range(count):
            await one()  # type: ignore[operator]
        after = user_and_system(server.pid)
        costs[name] = ((after[0] - before[0]) / count, (after[1] - before[1]) / count)

    for _ in range(WARM):
        await referee.step()
    await per_request("GET /healthz", referee.healthz)
    await per_request("a fetch with nothing new (204)", referee.fetch)
    await per_request("the referee's step alone (POST, no stream open)", referee.step)

    tap, listeners = await open_table(server.port, setup, referee)
    for _ in range(WARM):
        await tap()
    await per_request("a tap: the POST and 7 stream events", tap)
    if pause:
        costs[f"a tap after {pause:g} s of quiet"] = await after_quiet(server.pid, tap, count,
                                                                      pause)
    await close(listeners, referee)
    return costs


async def after_quiet(pid: int, tap: Callable[[], Awaitable[None]], count: int, pause: float
                      ) -> tuple[float, float]:
    """(CPU, nan) of a tap made after ``pause`` s of quiet, the mean of ``count``: read
    exactly around each tap, with no user/system split (the ticks are too coarse for one)."""
    spent = 0.0
    for _ in range(count):
        await asyncio.sleep(pause)
        before = cpu_reading(pid)
        await tap()
        spent += cpu_reading(pid).since(before)
    return spent / count, float("nan")


async def open_table(port: int, setup: TableSetup, referee: Referee
                     ) -> tuple[Callable[[], Awaitable[None]], list[asyncio.Future[None]]]:
    """The table's 7 streams, open; and a tap: the referee's step, then each stream's event."""
    paths = [(f"/t/{setup.id}/events", setup.tablet_cookies)] + [
        (f"/s/{token}/events", cookies) for _name, token, cookies in setup.seats]
    queues: list[asyncio.Queue[str]] = []
    listeners = []
    for path, cookies in paths:
        queue: asyncio.Queue[str] = asyncio.Queue()
        queues.append(queue)
        listeners.append(asyncio.ensure_future(listen(port, path, cookies, queue)))
        await queue.get()  # open

    async def tap() -> None:
        await referee.step()
        for queue in queues:
            await queue.get()

    return tap, listeners


async def close(listeners: list[asyncio.Future[None]], referee: Referee) -> None:
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    referee.http.close()


def instructions_per_tap(count: int, keep: str | None = None) -> float:
    """The server's instructions per tap under valgrind's callgrind (user space; no load on the
    machine changes them): counted over ``count`` taps after a warm-up, the counters zeroed
    and dumped with ``callgrind_control``. About a minute for 30 taps. ``keep``: where to copy
    callgrind's file (which C functions the instructions went to: ``callgrind_annotate``)."""
    server = Server()
    out = Path(server.instance) / "callgrind"
    server.command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p",
                      *server.command]
    server.start()
    try:
        server.wait_ready(300)  # start-up under valgrind: some 30 s
        asyncio.run(count_taps(server, count))
        dump = Path(f"{out}.{server.pid}.1").read_text(errors="replace")
        if keep:
            Path(keep).write_text(dump)
    finally:
        server.stop()
    summary = next(line for line in dump.splitlines() if line.startswith("summary:"))
    return int(summary.split()[1]) / count


async def count_taps(server: Server, count: int) -> None:
    setup = create_table(server.port)
    referee = Referee(server.port, setup)
    tap, listeners = await open_table(server.port, setup, referee)
    for _ in range(WARM):
        await tap()
    subprocess.run(["callgrind_control", "--zero", str(server.pid)], check=True,
                   capture_output=True)
    for _ in range(count):
        await tap()
    subprocess.run(["callgrind_control", "--dump", str(server.pid)], check=True,
                   capture_output=True)
    await close(listeners, referee)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", nargs="?", type=int, default=300,
                        help="requests of each kind (default 300)")
    parser.add_argument("--callgrind", type=int, metavar="N",
                        help="instead, count the server's instructions per tap over N taps "
                             "under valgrind (30 is enough: the count does not vary)")
    parser.add_argument("--keep", metavar="PATH",
                        help="with --callgrind: keep callgrind's file at PATH")
    parser.add_argument("--pause", type=float, default=0.0, metavar="S",
                        help="also measure a tap made after S seconds of quiet")
    args = parser.parse_args(argv)
    print(describe(), flush=True)
    if args.callgrind:
        per_tap = instructions_per_tap(args.callgrind, args.keep)
        print(f"server instructions per tap (callgrind, {args.callgrind} taps): "
              f"{per_tap / 1e6:.2f} M")
        return 0
    with Server() as server:
        costs = asyncio.run(measure(server, args.count, args.pause))
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"server CPU per request, {args.count} of each in sequence (load average {load}):")
    for name, (user, system) in costs.items():
        if math.isnan(system):  # one figure, no split
            print(f"  {name}: {user * 1e3:.2f} ms")
        else:
            print(f"  {name}: {(user + system) * 1e3:.2f} ms "
                  f"(user {user * 1e3:.2f}, system {system * 1e3:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
