"""Shared helpers of the benchmarks: a server subprocess on loopback, /proc figures, the taps
a benchmark table plays. Its two small HTTP clients are in :mod:`bench.devices`.

Standard library only. Everything talks to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import http.client
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
VERSION = re.compile(rb'data-version="(\d+)"')
SEAT_LINK = re.compile(r"/s/([A-Za-z0-9_-]{20,})")
TABLE_URL = re.compile(r"/t/([A-Za-z0-9_-]+)$")

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
HANDS = {
    "Ann": ("duke", "captain"),
    "Bob": ("ambassador", "contessa"),
    "Cy": ("assassin", "duke"),
    "Dee": ("captain", "ambassador"),
    "Eve": ("contessa", "assassin"),
    "Fay": ("duke", "captain"),
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def serve_command(port: int, instance: str, via_tasks: bool = False) -> list[str]:
    options = ["--host", HOST, "--port", str(port), "--instance", instance,
               "--public-url", f"http://{HOST}:{port}/"]
    if via_tasks:
        return [sys.executable, str(ROOT / "tasks.py"), "serve", *options]
    return [str(BIN / "coup-referee"), "serve", *options]


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100), nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


def summary_ms(values: Sequence[float]) -> str:
    """'p50/p95/p99/max' in milliseconds of values in seconds."""
    if not values:
        return "no samples"
    return (f"p50 {percentile(values, 50) * 1e3:.1f} / p95 {percentile(values, 95) * 1e3:.1f}"
            f" / p99 {percentile(values, 99) * 1e3:.1f} / max {max(values) * 1e3:.1f} ms"
            f" (n={len(values)})")


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


# -- the server process -------------------------------------------------------------------------


class Server:
    """`coup-referee serve` on a free loopback port with a fresh instance folder.

    Use as a context manager; the server's output goes to a log file shown if it fails.
    """

    def __init__(self, via_tasks: bool = False, instance: str | None = None) -> None:
        self.port = free_port()
        self._tmp = None if instance else tempfile.TemporaryDirectory(prefix="coup-bench-")
        self.instance = instance or self._tmp.name  # type: ignore[union-attr]
        self.command = serve_command(self.port, self.instance, via_tasks)
        self.log_path = Path(self.instance) / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.started = 0.0

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> Server:
        self.log = self.log_path.open("wb")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(self.command, cwd=ROOT, stdout=self.log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        return self

    def wait_ready(self, timeout: float = 20.0) -> float:
        """Poll /healthz until it answers 200; seconds since start."""
        deadline = self.started + timeout
        while time.perf_counter() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.output()}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    conn.close()
                    return time.perf_counter() - self.started
                conn.close()
            except OSError:
                pass
            time.sleep(0.005)
        raise RuntimeError(f"the server did not answer in {timeout} s: {self.output()}")

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        if getattr(self, "log", None):
            self.log.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> Server:
        self.start()
        self.wait_ready()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- /proc figures --------------------------------------------------------------------------------


def rss_mb(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of a process in MiB, from /proc/<pid>/status."""
    now = peak = 0.0
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return now, peak


TICK_S: Final = 1 / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class CpuReading:
    """A process's CPU time so far: in 10 ms clock ticks (/proc/<pid>/stat), and each live
    thread's to the microsecond where Linux says it (/proc/<pid>/task/*/sched)."""

    ticks: float
    threads: dict[int, float] | None

    def since(self, earlier: CpuReading) -> float:
        """CPU seconds used between ``earlier`` and this reading: the threads' exact figures
        (a thread that ended meanwhile took its figure with it: an idle worker of gevent's
        thread pool ends so) unless the ticks say more went missing than their own error."""
        by_ticks = self.ticks - earlier.ticks
        if self.threads is None or earlier.threads is None:
            return by_ticks
        exact = sum([used - earlier.threads.get(thread, 0.0)
                     for thread, used in self.threads.items()])
        return exact if abs(exact - by_ticks) <= 2 * TICK_S else by_ticks


def user_and_system(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process, from /proc/<pid>/stat (in clock ticks)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) * TICK_S, int(fields[12]) * TICK_S


def cpu_reading(pid: int) -> CpuReading:
    """The CPU time ``pid`` has used so far (:class:`CpuReading`)."""
    ticks = sum(user_and_system(pid))
    try:
        threads = {int(task.name): _exec_runtime(task / "sched")
                   for task in Path(f"/proc/{pid}/task").iterdir()}
    except (OSError, ValueError, StopIteration):  # a kernel without the file, or a thread gone
        return CpuReading(ticks, None)
    return CpuReading(ticks, threads)


def _exec_runtime(sched: Path) -> float:
    """A thread's CPU seconds, from its sched file's ``se.sum_exec_runtime`` (milliseconds)."""
    line = next(line for line in sched.read_text().splitlines()
                if line.startswith("se.sum_exec_runtime"))
    return float(line.split(":")[1]) / 1e3


def machine_busy_seconds() -> float:
    """CPU seconds all cores of the machine have spent busy (not idle or iowait), from
    /proc/stat: other programs running meanwhile show up here and not in the server's share."""
    with open("/proc/stat", encoding="ascii") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    busy = sum(fields[:8]) - fields[3] - fields[4]  # user..steal, less idle and iowait
    return busy / os.sysconf("SC_CLK_TCK")


@dataclass
class Sampler:
    """Samples a process's RSS every `every` seconds in a thread; CPU over the sampled span."""

    pid: int
    every: float = 0.5
    rss: list[float] = field(default_factory=list)
    peak: float = 0.0

    def __enter__(self) -> Sampler:
        self._stop = threading.Event()
        self.cpu0, self.t0 = cpu_reading(self.pid), time.perf_counter()
        self.machine0 = machine_busy_seconds()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._sample()

    def _sample(self) -> None:
        now, peak = rss_mb(self.pid)
        self.rss.append(now)
        self.peak = max(self.peak, peak)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
        self.cpu = cpu_reading(self.pid).since(self.cpu0)
        self.machine = machine_busy_seconds() - self.machine0
        self.wall = time.perf_counter() - self.t0

    @property
    def cpu_share(self) -> float:
        """Average share of one core over the span (1.0 = one core busy)."""
        return self.cpu / self.wall if self.wall else float("nan")

    @property
    def machine_share(self) -> float:
        """Average number of the machine's cores busy over the span (all processes)."""
        return self.machine / self.wall if self.wall else float("nan")


class StealPlan:
    """A never-ending legal sequence of referee steps for a table of tracked players:
    the player to move steals from the richest other player; nobody challenges or blocks.
    The total of coins never changes (12 for 6 players), so nobody reaches 10 and must coup."""

    def __init__(self, names: tuple[str, ...] | list[str] = NAMES, first: int = 0) -> None:
        self.names = list(names)
        self.coins = dict.fromkeys(self.names, 2)
        self.turn = first
        self._queue: list[dict[str, str]] = []

    def next(self) -> dict[str, str]:
        if not self._queue:
            actor = self.names[self.turn % len(self.names)]
            target = max((n for n in self.names if n != actor), key=lambda n: self.coins[n])
            taken = min(2, self.coins[target])
            self.coins[target] -= taken
            self.coins[actor] += taken
            self.turn += 1
            self._queue = [{"do": "steal", "by": actor, "target": target},
                           {"do": "pass"}, {"do": "pass"}]
        return self._queue.pop(0)
