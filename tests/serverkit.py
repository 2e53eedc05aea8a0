"""The production server (`coup-referee serve`, gevent) in a subprocess on a loopback port, for
tests that need real sockets: browsers across a restart, simultaneous taps, a SIGKILL.

The port is chosen once, so a test can stop the server and start it again at the same address.
Waiting for it to come up is bounded; nothing here asserts how long anything takes.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_WITHIN_S = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def command() -> list[str]:
    script = Path(sys.executable).with_name("coup-referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "app.cli"]


class ServerProcess:
    """One instance folder served on one port; start, stop (SIGTERM) and kill (SIGKILL)."""

    def __init__(self, instance: Path, log: Path | None = None) -> None:
        self.instance = instance
        self.log = log or instance.parent / f"{instance.name}-server.log"
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def host(self) -> tuple[str, int]:
        return "127.0.0.1", self.port

    @property
    def url(self) -> str:
        """Base URL, no trailing slash."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        assert self.process is None or self.process.poll() is not None, "already running"
        self.starts += 1
        with open(self.log, "ab") as out:
            out.write(f"--- start {self.starts}\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                [*command(), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--instance", str(self.instance), "--public-url", self.url + "/"],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env={**os.environ},
            )
        deadline = time.monotonic() + START_WITHIN_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server stopped:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        self.kill()
        raise AssertionError(f"the server did not start:\n{self.output()}")

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM, as `kill` does, then wait; the exit status (None if it was not running)."""
        if self.process is None or self.process.poll() is not None:
            return None
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        self.process = None
        return int(code)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as when the laptop's battery dies."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
            self.process = None

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def errors(self) -> str:
        text = self.output()
        return text if "Traceback" in text else ""
