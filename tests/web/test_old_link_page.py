"""The old phone after "New code": the page that says "There is nothing here" holds no event
stream. A live screen that fetched itself got that page swapped into it and kept the old
screen's stream, which asked for the gone link every minute, for ever (19 404s in 12
minutes). Now htmx is told to load the page whole (HX-Refresh): a page with no stream."""

from __future__ import annotations

from flask import Flask
from tablekit import HTMX, seated_table

NOTHING_HERE = "There is nothing here."


def test_the_old_phone_loads_the_nothing_here_page_whole(app: Flask):
    t = seated_table(app, ["Ann", "Bob"])
    old = t.link("Ann")
    ann = t.phones["Ann"]
    assert "sse-connect" in ann.get(old).text
    assert t.post("/seat/0/reissue", {}).status_code == 200
    # The live screen fetching itself (its refresher), and a tap of its own.
    for answer in (ann.get(old + "/view", headers=HTMX),
                   ann.post(old + "/language", data={"language": "ru"}, headers=HTMX)):
        assert answer.status_code == 404 and NOTHING_HERE in answer.text
        assert answer.headers.get("HX-Refresh") == "true"
    page = ann.get(old)  # what the reload shows
    assert page.status_code == 404 and NOTHING_HERE in page.text
    assert "sse-connect" not in page.text and "HX-Refresh" not in page.headers
    assert ann.get(old + "/events").status_code == 404


def test_a_gone_table_s_page_is_loaded_whole_too(app: Flask):
    client = app.test_client()
    answer = client.get("/t/nosuchtable/view", headers=HTMX)
    assert answer.status_code == 404 and answer.headers.get("HX-Refresh") == "true"
    assert "HX-Refresh" not in client.get("/t/nosuchtable").headers


def test_another_device_on_the_seat_is_told_whole(app: Flask):
    t = seated_table(app, ["Ann", "Bob"])
    stranger = app.test_client()
    answer = stranger.get(t.link("Ann") + "/view", headers=HTMX)
    assert answer.status_code == 403 and answer.headers.get("HX-Refresh") == "true"
