"""Memory per open event stream: idle SSE streams and nothing else.

    .venv/bin/python bench/streams.py                 (2,100 streams over 300 tables' worth)
    .venv/bin/python bench/streams.py 500 --trace 25  (and the 25 biggest allocation sites)
    .venv/bin/python bench/streams.py --taps 2        (then 2 taps: each stream sends 2 events)

Starts `coup-referee serve`, sets one table up, then opens N streams (a tablet's and six phones'
in turn, each a connection of its own, as N devices would) and holds them. Prints the server's
RSS before any stream, with them all open, and the difference per 1,000 streams. With
``--taps N`` the referee then takes N steps (each stream sends an event with its device's
screen and parks again) and the RSS is printed once more: what a stream holds between events.

With ``--trace K`` the server runs with tracemalloc on, and on SIGUSR1 (sent before and after the
streams open) writes a snapshot; the K allocation sites that grew most are printed. Tracing costs
memory of its own, so the RSS figures of a traced run are not the ones to quote.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import BIN, Server, rss_mb  # noqa: E402
from bench.cost import Referee  # noqa: E402
from bench.devices import TableSetup, create_table, request_bytes  # noqa: E402
from bench.machine import describe  # noqa: E402

# The server, with a snapshot on SIGUSR1 (written to $COUP_TRACE_DIR/<n>.snap). Tracing starts
# once the app is imported: the imports traced took the server past the bench's 20 s to start.
TRACED = """
import itertools, os, signal, sys, tracemalloc
from app.cli import main
tracemalloc.start(12)
_count = itertools.count()
def _snap(*_):
    tracemalloc.take_snapshot().dump(os.path.join(os.environ["COUP_TRACE_DIR"],
                                                  f"{next(_count)}.snap"))
signal.signal(signal.SIGUSR1, _snap)
sys.argv[0] = "coup-referee"
sys.exit(main())
"""


async def open_stream(port: int, path: str, cookies: dict[str, str],
                      held: list[asyncio.StreamWriter]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request_bytes("GET", path, port, cookies, {"Accept": "text/event-stream"}))
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"{path}: {head[:80]!r}")
    await reader.readuntil(b"\n\n")  # the opening comment: the stream is parked now
    held.append(writer)


async def hold(port: int, paths: list[tuple[str, dict[str, str]]], n: int,
               held: list[asyncio.StreamWriter]) -> None:
    for start in range(0, n, 100):
        await asyncio.gather(*(open_stream(port, *paths[i % len(paths)], held)
                               for i in range(start, min(n, start + 100))))


def snapshot(server: Server, folder: Path, number: int) -> tracemalloc.Snapshot:
    os.kill(server.pid, signal.SIGUSR1)
    path = folder / f"{number}.snap"
    for _ in range(600):
        time.sleep(0.1)
        if path.exists() and path.stat().st_size:
            time.sleep(0.5)
            return tracemalloc.Snapshot.load(str(path))
    raise RuntimeError("the server wrote no snapshot")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("streams", nargs="?", type=int, default=2100)
    parser.add_argument("--trace", type=int, default=0, metavar="K")
    parser.add_argument("--taps", type=int, default=0, metavar="N")
    args = parser.parse_args()
    print(describe(), flush=True)
    server = Server()
    folder = Path(server.instance)
    if args.trace:
        os.environ["COUP_TRACE_DIR"] = server.instance
        server.command = [str(BIN / "python"), "-c", TRACED, *server.command[1:]]
    with server:
        setup = create_table(server.port)
        paths = [(f"/t/{setup.id}/events", setup.tablet_cookies)]
        paths += [(f"/s/{token}/events", cookies) for _name, token, cookies in setup.seats]
        time.sleep(1.0)
        before = rss_mb(server.pid)[0]
        first = snapshot(server, folder, 0) if args.trace else None
        held: list[asyncio.StreamWriter] = []

        async def run() -> None:
            await hold(server.port, paths, args.streams, held)
            await asyncio.sleep(2.0)
            now, peak = rss_mb(server.pid)
            print(f"{len(held)} streams open: RSS {before:.1f} MiB before, {now:.1f} MiB now "
                  f"(peak {peak:.1f}): {(now - before) / len(held) * 1000:.1f} MiB "
                  "per 1,000 streams")
            if args.taps:
                await after_taps(server, setup, args.taps, len(held))
            if first is not None:
                second = await asyncio.to_thread(snapshot, server, folder, 1)
                stats = second.compare_to(first, "traceback")
                grown = sum(s.size_diff for s in stats)
                print(f"traced: {grown / 1024 / 1024:.1f} MiB grown, "
                      f"{grown / len(held):.0f} B per stream; the biggest sites:")
                for stat in stats[:args.trace]:
                    print(f"{stat.size_diff / len(held):8.0f} B/stream "
                          f"{stat.count_diff / len(held):5.1f} blocks/stream")
                    for line in stat.traceback.format(limit=6, most_recent_first=True):
                        print("        " + line.strip())
            for writer in held:
                writer.close()

        asyncio.run(run())


async def after_taps(server: Server, setup: TableSetup, taps: int, streams: int) -> None:
    """The referee's ``taps`` steps, then the RSS once every stream has sent and parked."""
    referee = Referee(server.port, setup)
    for _ in range(taps):
        await referee.step()
    referee.http.close()
    await asyncio.sleep(3.0)
    now, peak = rss_mb(server.pid)
    print(f"after {taps} taps (an event on each of the {streams} streams per tap): RSS "
          f"{now:.1f} MiB (peak {peak:.1f})")


if __name__ == "__main__":
    main()
