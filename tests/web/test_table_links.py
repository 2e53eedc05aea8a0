"""The referee's screen's links are worked out once per table (app/web/tablelinks.py), yet
never stale: a re-issued seat shows its new link at once, and each address the laptop is
reached by (no PUBLIC_URL) gets links of its own, as if built afresh."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from tablekit import SEAT_LINK, new_table

from app.web.factory import create_app
from app.web.links import link_for
from app.web.screens import public_url, tables
from app.web.tablelinks import table_links


def test_a_reissued_seat_shows_its_new_link(app: Flask):
    table = new_table(app, ["Ann", "Bob", "Cy"])
    old = table.tokens["Ann"]
    assert old in table.page() and old in table.tablet.get(table.url + "/phones").text
    assert table.post("/seat/0/reissue", {}).status_code == 200
    page = table.page()
    shown = set(SEAT_LINK.findall(page))
    assert old not in shown and len(shown) == 3
    assert shown == set(SEAT_LINK.findall(table.tablet.get(table.url + "/phones").text))


@pytest.mark.parametrize("public", [None, "http://coup.lan:5000/"])
def test_each_address_gets_its_own_links(tmp_path: Path, public: str | None):
    app = create_app(str(tmp_path), {"TESTING": True, "PUBLIC_URL": public})
    table = new_table(app, ["Ann", "Bob"])
    for base in ("http://192.168.1.20:5000", "http://laptop.local:8000", "http://[::1]:5000"):
        with app.test_request_context("/", base_url=base):
            state = tables().load(table.table_id)
            assert state is not None
            links = table_links(state)
            assert links.seats == {seat.seat: public_url(link_for("phone.page", token=seat.token))
                                   for seat in state.seats}
            assert links.join == public_url(link_for("tablet.join", table_id=table.table_id))
            assert links.post == link_for("tablet.step", table_id=table.table_id)
            assert links.seats[0].startswith(public.rstrip("/") if public else base)
