"""The production server (`coup-referee serve`, gevent) in a subprocess on a loopback port, for
tests that need real sockets: browsers across a restart, simultaneous taps, a SIGKILL, a slow
request. Also a small HTTP device with its own cookies, and a table played through it.

The port is chosen once, so a test can stop the server and start it again at the same address.
Waiting for it to come up is bounded; nothing here asserts how long anything takes.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from app.engine import STEPS, Game, apply, new_game
from app.records import FORMAT
from app.store import Store
from app.web.state import fold

ROOT = Path(__file__).resolve().parents[1]
START_WITHIN_S = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def command() -> list[str]:
    script = Path(sys.executable).with_name("coup-referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "app.cli"]


# -- the command line, for tests/test_cli*.py and tests/i18n/test_cli_language*.py -------------

RECORDS = ROOT / "tests" / "records"
WORKED = RECORDS / "01-worked-example.json"
# A shell's locale for each language the command line speaks, and text in two of its scripts.
LOCALES = {"en": "en_GB.UTF-8", "ru": "ru_RU.UTF-8", "uk": "uk_UA.UTF-8", "pt-BR": "pt_BR.UTF-8",
           "ja": "ja_JP.UTF-8"}
CYRILLIC = re.compile("[а-яіїєґ]", re.I)
JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
BOUND_S = 60  # a subprocess that takes longer than this is broken; no test times anything


def cli(*args: str, cwd: Path = ROOT, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """`coup-referee ARGS` in a fresh process (serve monkey-patches gevent)."""
    return subprocess.run([*command(), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=BOUND_S, stdin=subprocess.DEVNULL, **kwargs)  # type: ignore


def one_line(text: str) -> str:
    assert "Traceback" not in text, text
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def write(path: Path, data: object) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


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


# -- devices and a table on the live server ---------------------------------------------

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')
PRIVATE_STEPS = {name for name, kind in STEPS.items() if kind.private}


Server = ServerProcess


class Device:
    """A browser, as far as the server can tell: its own cookies, and htmx's header."""

    def __init__(self, server: Server, cookies: dict[str, str] | None = None) -> None:
        self.server = server
        self.cookies = dict(cookies or {})

    def connect(self) -> http.client.HTTPConnection:
        conn = http.client.HTTPConnection(*self.server.host, timeout=60)
        conn.connect()
        return conn

    def send(self, conn: http.client.HTTPConnection, method: str, path: str,
             form: dict[str, Any] | None = None, htmx: bool = True) -> tuple[int, dict, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:  # closed however it ends: a test may kill the server mid-request
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8")
        finally:
            conn.close()
        for raw in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(raw)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        return response.status, dict(response.headers), text

    def get(self, path: str) -> tuple[int, dict, str]:
        return self.send(self.connect(), "GET", path, htmx=False)

    def post(self, path: str, form: dict[str, Any]) -> tuple[int, dict, str]:
        return self.send(self.connect(), "POST", path, form)


def form_of(html: str) -> dict[str, str]:
    csrf, version = CSRF.search(html), VERSION.search(html)
    assert csrf and version, html[:500]
    return {"csrf": csrf.group(1), "version": version.group(1)}


class LiveTable:
    """A table on the live server: the tablet, and phones for the seats given a hand."""

    def __init__(self, server: Server, hands: dict[str, list[str] | None]) -> None:
        self.server = server
        self.names = list(hands)
        self.hands = hands
        self.tablet = Device(server)
        status, _, home = self.tablet.get("/")
        assert status == 200
        status, headers, _ = self.tablet.post(
            "/tables", {"csrf": CSRF.search(home).group(1),  # type: ignore[union-attr]
                        "players": "\n".join(self.names), "first": self.names[0]})
        assert status == 303, status
        self.url = "/t/" + headers["Location"].split("/t/")[1]
        self.phones: dict[str, Device] = {}
        self.links: dict[str, str] = {}
        links = list(dict.fromkeys(re.findall(r"/s/[A-Za-z0-9_-]{20,}", self.page())))
        for i, (name, hand) in enumerate(hands.items()):
            self.links[name] = links[i]
            if hand is None:
                assert self.tablet.post(f"{self.url}/seat/{i}/tracked",
                                        {**form_of(self.page()), "tracked": "0"})[0] == 200
            else:
                phone = self.phones[name] = Device(server)
                status, _, html = phone.get(links[i])
                assert status == 200
                entered = phone.post(links[i] + "/hand", {
                    "csrf": CSRF.search(html).group(1),  # type: ignore[union-attr]
                    "card1": hand[0], "card2": hand[1]})
                assert entered[0] == 200
        assert self.tablet.post(self.url + "/start", form_of(self.page()))[0] == 200
        self.setup = {"players": self.names, "first": self.names[0], "hands": hands}

    def page(self) -> str:
        status, _, html = self.tablet.get(self.url)
        assert status == 200, status
        return html

    def record(self) -> dict[str, Any]:
        """The steps as the server keeps them. (The download is refused while phones hold
        hidden cards, so the test reads the log itself, as a record.)"""
        table_id = self.url.rsplit("/", 1)[1]
        with Store.open(self.server.instance / "coup.sqlite") as store:
            snapshot = store.read(table_id)
        assert snapshot is not None
        state = fold(snapshot)
        return {"format": FORMAT, **(state.setup or {}),
                "steps": [dict(step) for _seq, step in state.steps]}

    def game(self, steps: list[dict[str, Any]]) -> Game:
        game = new_game(self.setup)
        for step in steps:
            game = apply(game, step)
        return game

    def route(self, step: dict[str, Any]) -> tuple[Device, str, dict[str, Any]]:
        """Which device takes this step, where it posts it and with which fields."""
        by = step.get("by")
        if step["do"] in PRIVATE_STEPS and by in self.phones:
            fields = {k: v for k, v in step.items() if k != "by"}
            return self.phones[by], self.links[by], fields
        return self.tablet, self.url, dict(step)

    def page_of(self, device: Device) -> str:
        path = self.url if device is self.tablet else next(
            self.links[n] for n, d in self.phones.items() if d is device)
        status, _, html = device.get(path)
        assert status == 200, status
        return html
