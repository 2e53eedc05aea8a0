"""Slow and greedy clients against one `coup-referee serve`: what one laptop withstands.

    .venv/bin/python bench/clients.py            (about 2 minutes; Linux)

Each scenario starts its own `coup-referee serve --host 0.0.0.0` with a fresh instance folder,
under a file limit of 1,024 (soft and hard, the common default), then attacks it while a
well-behaved client on the laptop itself asks for /healthz every 0.1 s:

- `slow heads`: N connections each send half a request head and then nothing;
- `idle sockets`: N connections send nothing at all.

The attacker connects from the laptop's LAN address (a device on the Wi-Fi, as far as the server
can tell; capped per address) or from loopback (the laptop itself: not capped, so the total cap
and the timeouts are all that hold it). Figures: how many connections the server turned away at
once (503), how many it held and when it closed them, the server's open files, and the
/healthz probes' latency and failures during the attack.
"""

from __future__ import annotations

import argparse
import http.client
import os
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.server import lan_address  # noqa: E402
from bench.common import BIN, free_port, percentile  # noqa: E402

FILE_LIMIT = 1024
WATCH_S = 45.0


def start_server(port: int, instance: str, log: Path) -> subprocess.Popen[bytes]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))

    out = log.open("wb")
    process = subprocess.Popen(
        [str(BIN / "coup-referee"), "serve", "--host", "0.0.0.0", "--port", str(port),
         "--instance", instance, "--public-url", f"http://127.0.0.1:{port}/"],
        stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=limit)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return process
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(log.read_text(errors="replace"))


class Prober(threading.Thread):
    """GET /healthz every 0.1 s on a new connection; latencies (s) and failures."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.latencies: list[float] = []
        self.failures = 0
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            start = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                conn.request("GET", "/healthz")
                ok = conn.getresponse().status == 200
                conn.close()
            except OSError:
                ok = False
            if ok:
                self.latencies.append(time.perf_counter() - start)
            else:
                self.failures += 1
            self.stopping.wait(0.1)


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def attack(kind: str, source: str, count: int, port: int, pid: int) -> str:
    payload = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " if kind == "slow heads" else b""
    selector = selectors.DefaultSelector()
    started = time.monotonic()
    refused_connect = 0
    for _ in range(count):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1" if source.startswith("127.") else source, port))
            if payload:
                sock.sendall(payload)
        except OSError:
            refused_connect += 1
            sock.close()
            continue
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    opened = time.monotonic() - started
    peak_files = open_files(pid)
    turned_away = answered = closed = 0
    closed_at: list[float] = []
    deadline = time.monotonic() + WATCH_S
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if data.startswith(b"HTTP/1.1 503"):
                turned_away += 1
            elif data:
                answered += 1
                closed_at.append(time.monotonic() - started)
            else:
                closed += 1
                closed_at.append(time.monotonic() - started)
            selector.unregister(sock)
            sock.close()
        peak_files = max(peak_files, open_files(pid))
    still_open = len(selector.get_map())
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    held = count - refused_connect - turned_away
    ends = (f"the server answered or closed them by {max(closed_at):.1f} s"
            if closed_at else "none closed")
    return (f"{count} connections opened in {opened:.1f} s; {turned_away} turned away at once "
            f"(503), {held} held; {ends} ({answered} answered 408, {closed} closed quietly, "
            f"{still_open} still open after {WATCH_S:.0f} s, {refused_connect} not "
            f"connected); the server's open files peaked at {peak_files}")


def scenario(kind: str, source: str, label: str, count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="coup-clients-") as instance:
        port = free_port()
        process = start_server(port, instance, Path(instance) / "server.log")
        prober = Prober(port)
        prober.start()
        try:
            time.sleep(1)
            figures = attack(kind, source, count, port, process.pid)
            time.sleep(1)
        finally:
            prober.stopping.set()
            prober.join()
            process.terminate()
            process.wait(30)
        lat = prober.latencies
        probes = (f"/healthz from the laptop: {len(lat)} answered, p50 "
                  f"{percentile(lat, 50) * 1000:.0f} ms, p99 {percentile(lat, 99) * 1000:.0f} "
                  f"ms, max {max(lat) * 1000:.0f} ms, {prober.failures} failed") if lat else (
            f"/healthz from the laptop: none answered, {prober.failures} failed")
        log = (Path(instance) / "server.log").read_text(errors="replace")
        crashed = " TRACEBACK in the server log" if "Traceback" in log else ""
        print(f"{kind}, {count} from {label}: {figures}; {probes}.{crashed}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 3 * args.count + 100), hard))
    lan = lan_address()
    print(f"{time.strftime('%Y-%m-%d %H:%M')} on {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}; server file limit {FILE_LIMIT}", flush=True)
    if lan is None:
        print("no LAN address: only the loopback scenarios run")
    else:
        scenario("slow heads", lan, "one device on the Wi-Fi", args.count)
        scenario("idle sockets", lan, "one device on the Wi-Fi", 1100)
    scenario("slow heads", "127.0.0.1", "the laptop itself (not capped)", args.count)
    scenario("idle sockets", "127.0.0.1", "the laptop itself (not capped)", 1100)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
