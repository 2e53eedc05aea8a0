"""Tables in every language through the Flask test client (the real-browser screens are in
tests/browser/test_i18n_screens.py, which shares that folder's one browser session).

Test modules here do not import this file (another folder has a ``conftest`` module too);
they use its fixtures, which hand out the helpers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from tablekit import VERSION, csrf_of

HERE = Path(__file__).resolve().parent
SEAT_LINK = re.compile(r"(/s/[A-Za-z0-9_-]{20,})")
NAMES = ["Ann", "Bob", "Cy"]
HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"]}
# The edition a player of each language would own: its card names are in that language too.
NATIVE_EDITION = {"en": "official", "ru": "la_mame_ru_2015", "uk": "ua_steampunk",
                  "pt-BR": "bga_pt", "ja": "ja"}


# -- tables through the test client ---------------------------------------------------------


@dataclass
class Table:
    tablet: FlaskClient
    url: str
    phones: dict[str, FlaskClient] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)

    def page(self, path: str = "") -> str:
        response = self.tablet.get(self.url + path)
        assert response.status_code == 200, response.text
        return response.text

    def step(self, **data: str) -> str:
        html = self.page()
        form = {"csrf": csrf_of(html), "version": VERSION.search(html).group(1), **data}
        response = self.tablet.post(self.url + "/step", data=form,
                                    headers={"HX-Request": "true"})
        assert response.status_code == 200, response.text
        return response.text

    def start(self) -> None:
        html = self.page()
        form = {"csrf": csrf_of(html), "version": VERSION.search(html).group(1)}
        response = self.tablet.post(self.url + "/start", data=form,
                                    headers={"HX-Request": "true"})
        assert response.status_code == 200, response.text

    def phone_page(self, name: str, path: str = "") -> str:
        response = self.phones[name].get(self.links[name] + path)
        assert response.status_code == 200, response.text
        return response.text

    def enter_hand(self, name: str, cards: list[str]) -> None:
        html = self.phone_page(name)
        response = self.phones[name].post(
            self.links[name] + "/hand",
            data={"csrf": csrf_of(html), "card1": cards[0], "card2": cards[1]},
            headers={"HX-Request": "true"})
        assert response.status_code == 200, response.text


def new_table(app: Flask, language: str, edition: str | None = None,
              browser_language: str = "en", settings: dict[str, str] | None = None) -> Table:
    """A table created on the home page with this language and edition (the edition a player
    of the language would own by default) and any settings of the form; each seat is opened
    by its own phone."""
    headers = {"Accept-Language": browser_language}
    tablet = app.test_client()
    tablet.environ_base["HTTP_ACCEPT_LANGUAGE"] = browser_language
    home = tablet.get("/", headers=headers).text
    response = tablet.post("/tables", data={
        "csrf": csrf_of(home), "players": "\n".join(NAMES), "language": language,
        "edition": edition or NATIVE_EDITION[language], **(settings or {})})
    assert response.status_code == 303, response.text
    table = Table(tablet, response.headers["Location"])
    links = list(dict.fromkeys(SEAT_LINK.findall(table.page())))
    assert len(links) == len(NAMES)
    for name, link in zip(NAMES, links, strict=True):
        table.links[name] = link
        table.phones[name] = app.test_client()
        table.phones[name].environ_base["HTTP_ACCEPT_LANGUAGE"] = browser_language
        assert table.phones[name].get(link).status_code == 200
    return table


def start_game(table: Table) -> None:
    for name, cards in HANDS.items():
        table.enter_hand(name, cards)
    table.start()


def mid_game(table: Table) -> None:
    """Ann's Tax stands; Bob claims the Captain to steal from Ann; Ann challenges him. The
    tablet then waits for Bob's phone, which asks him to prove the Captain or concede."""
    start_game(table)
    table.step(do="tax", by="Ann")
    table.step(do="pass")
    table.step(do="steal", by="Bob", target="Ann")
    table.step(do="challenge", by="Ann")


@pytest.fixture
def make_table(app: Flask) -> Callable[..., Table]:
    return lambda language, edition=None, browser_language="en", settings=None: new_table(
        app, language, edition, browser_language, settings)


@pytest.fixture
def play() -> dict[str, Callable[[Table], None]]:
    return {"start": start_game, "mid_game": mid_game}


# -- what a person sees ---------------------------------------------------------------------


class _Visible(HTMLParser):
    """Text a person can read: text nodes outside script, style and svg (the page title
    included), plus placeholders, aria-labels and confirm prompts, which people read too."""

    HIDDEN = {"script", "style", "svg"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.depth += 1
        for key, value in attrs:
            if key in ("placeholder", "aria-label", "hx-confirm", "title") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html)
    return parser.parts


@pytest.fixture
def visible() -> Callable[[str], list[str]]:
    return visible_text


# -- the command line's language (tests/i18n/test_cli_language*.py) -----------------------------


@pytest.fixture
def speak(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Set the environment as a shell of that locale would: only LANG."""

    def set_lang(value: str) -> None:
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", value)

    return set_lang
