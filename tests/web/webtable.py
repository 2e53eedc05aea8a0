"""A table in the Flask test client: the tablet and each phone are separate clients."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from flask import Flask
from flask.testing import FlaskClient

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')
SEAT_LINK = re.compile(r"(/s/[A-Za-z0-9_-]{20,})")


def csrf_of(html: str) -> str:
    match = CSRF.search(html)
    assert match, "no form on the page"
    return match.group(1)


@dataclass
class Table:
    app: Flask
    tablet: FlaskClient
    url: str
    names: list[str]
    phones: dict[str, FlaskClient] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)

    def page(self) -> str:
        response = self.tablet.get(self.url)
        assert response.status_code == 200
        return response.text

    def version(self) -> str:
        match = VERSION.search(self.page())
        assert match
        return match.group(1)

    def post(self, path: str, data: dict, htmx: bool = True, version: str | None = None):
        html = self.page()
        form = {"csrf": csrf_of(html), "version": version or self.version(), **data}
        headers = {"HX-Request": "true"} if htmx else {}
        return self.tablet.post(self.url + path, data=form, headers=headers)

    def steps(self) -> list[dict]:
        """The steps of the current game, read where the server keeps them."""
        from app.store import Store

        with self.app.app_context(), Store.open(self.app.config["DATABASE"]) as store:
            table_id = self.url.rsplit("/", 1)[1]
            live = self.app.extensions["tables"].load(store, table_id)
            return list(live.game.steps) if live and live.game else []

    def step(self, **data):
        return self.post("/step", data)

    def phone(self, name: str) -> FlaskClient:
        return self.phones[name]

    def phone_page(self, name: str) -> str:
        response = self.phones[name].get(self.links[name])
        assert response.status_code == 200
        return response.text

    def phone_step(self, name: str, version: str | None = None, **data):
        html = self.phone_page(name)
        form = {"csrf": csrf_of(html), "version": version or VERSION.search(html).group(1),
                **data}
        return self.phones[name].post(self.links[name] + "/step", data=form,
                                      headers={"HX-Request": "true"})

    def enter_hand(self, name: str, cards: list[str]):
        html = self.phone_page(name)
        return self.phones[name].post(
            self.links[name] + "/hand",
            data={"csrf": csrf_of(html), "card1": cards[0], "card2": cards[1]},
            headers={"HX-Request": "true"},
        )


def new_table(app: Flask, names: list[str], **settings: str) -> Table:
    tablet = app.test_client()
    home = tablet.get("/").text
    response = tablet.post("/tables", data={"csrf": csrf_of(home), "players": "\n".join(names),
                                            **settings})
    assert response.status_code == 303, response.text
    url = response.headers["Location"]
    table = Table(app, tablet, url, names)
    links = SEAT_LINK.findall(table.page())
    unique = list(dict.fromkeys(links))
    assert len(unique) == len(names)
    for name, link in zip(names, unique, strict=True):
        table.links[name] = link
        table.phones[name] = app.test_client()
        assert table.phones[name].get(link).status_code == 200
    return table
