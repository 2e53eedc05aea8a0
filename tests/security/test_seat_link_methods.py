"""What HTTP says a refused method's answer must carry, and what OPTIONS says, kept in step:
a seat link refuses HEAD (a link previewer's HEAD claims nothing: tests/security/
test_outsider_findings.py), so neither its 405 nor its OPTIONS lists HEAD, though Flask lists
HEAD wherever GET is."""

from __future__ import annotations

import pytest
from flask import Flask
from tablekit import new_table


@pytest.mark.parametrize("part", ["", "/view", "/events", "/rules", "/timeline",
                                  "/timeline/events"])
def test_a_seat_links_head_and_options_agree_that_head_is_not_allowed(app: Flask, part: str):
    """A 405 names what is allowed (HTTP requires its Allow), and OPTIONS says the same:
    Flask lists HEAD wherever GET is, but a seat link refuses it. Nothing is claimed."""
    table = new_table(app, ["Eve", "Fay"])
    previewer, owner = app.test_client(), app.test_client()
    refused = previewer.head(table.link("Eve") + part)
    options = previewer.options(table.link("Eve") + part)
    assert refused.status_code == 405 and options.status_code == 200
    allowed = {method.strip() for method in refused.headers["Allow"].split(",")}
    assert allowed == {"GET", "OPTIONS"} | ({"POST"} if part == "/timeline" else set())
    assert {method.strip() for method in options.headers["Allow"].split(",")} == allowed
    assert owner.get(table.link("Eve")).status_code == 200  # still the player's to claim


def test_every_405_names_the_methods_allowed_on_our_own_page(app: Flask):
    """A method a route does not take: the message page, with the Allow HTTP requires."""
    table = new_table(app, ["Eve", "Fay"])
    client = app.test_client()
    answer = client.get(table.url + "/step")
    assert answer.status_code == 405 and answer.mimetype == "text/html"
    assert {m.strip() for m in answer.headers["Allow"].split(",")} == {"POST", "OPTIONS"}
    assert "can’t be done from here" in answer.text
    assert client.options(table.url).headers["Allow"].count("HEAD") == 1  # not a seat link
