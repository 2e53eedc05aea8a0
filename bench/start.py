"""Start-up time: from the start command to the first page served, median of 5.

    .venv/bin/python bench/start.py            (about 15 s)

Two commands, each started 5 times on a free loopback port with a fresh instance folder:
`.venv/bin/coup-referee serve ...` and `python3 tasks.py serve ...` (the bootstrap, with the
venv already installed; one untimed run first lets it finish any pending install). The clock
runs from starting the process until `GET /` has answered 200: /healthz is polled every 5 ms
until it answers, then the home page is fetched (its first render compiles the templates).

Goal: <= 1 s (issue 12).
"""

from __future__ import annotations

import argparse
import http.client
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import HOST, Server, median  # noqa: E402
from bench.machine import describe  # noqa: E402

GOAL_S = 1.0


def first_page(via_tasks: bool, timeout: float = 20.0) -> tuple[float, float]:
    """(seconds to /healthz answering, seconds to the home page served) of one start."""
    server = Server(via_tasks=via_tasks)
    server.start()
    try:
        healthy = server.wait_ready(timeout)
        conn = http.client.HTTPConnection(HOST, server.port, timeout=10)
        conn.request("GET", "/")
        response = conn.getresponse()
        response.read()
        served = time.perf_counter() - server.started
        conn.close()
        if response.status != 200:
            raise RuntimeError(f"GET / answered {response.status}")
        return healthy, served
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    print(describe(), flush=True)
    first_page(via_tasks=True, timeout=300)  # untimed: tasks.py may (re)install first
    for label, via_tasks in ((".venv/bin/coup-referee serve", False),
                             ("python3 tasks.py serve", True)):
        runs = [first_page(via_tasks) for _ in range(args.runs)]
        healthy = median([h for h, _s in runs])
        served = median([s for _h, s in runs])
        print(f"{label}: first page after {', '.join(f'{s:.2f}' for _h, s in runs)} s; "
              f"median {served:.2f} s (/healthz answered at {healthy:.2f} s); goal <= "
              f"{GOAL_S} s -> {'met' if served <= GOAL_S else 'missed'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
