"""A small HTTP device with its own cookies, and a table played through it against the real
server (tests/serverkit.py), for the tests that need real sockets: simultaneous taps, crashes.

Waiting for the server to come up is bounded, but nothing here asserts how long anything takes.
"""

from __future__ import annotations

import http.client
import re
import threading
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from serverkit import ServerProcess

from app.engine import STEPS, Game, RuleError, apply, new_game
from app.explore import legal_steps

ROOT = Path(__file__).resolve().parents[2]
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')
PRIVATE_STEPS = {name for name, kind in STEPS.items() if kind.private}


# The server itself: tests/serverkit.py.
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
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8")
        for raw in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(raw)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        conn.close()
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
        from app.records import FORMAT
        from app.store import Store

        table_id = self.url.rsplit("/", 1)[1]
        with Store.open(self.server.instance / "coup.sqlite") as store:
            rows = store.live_steps(table_id)
        start = max(i for i, row in enumerate(rows) if row.get("control") == "start")
        steps = [row for row in rows[start + 1:] if "control" not in row]
        return {"format": FORMAT, **rows[start]["setup"], "steps": steps}

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


def legal(game: Game, rng) -> list[dict[str, Any]]:
    """The steps `pending` offers that the engine takes now."""
    found = []
    for step in legal_steps(game):
        try:
            apply(game, step)
        except RuleError:
            continue
        found.append(step)
    return found


def run_threads(targets: list[Any]) -> list[Any]:
    results: list[Any] = [None] * len(targets)

    def run(i: int) -> None:
        results[i] = targets[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(targets))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results
