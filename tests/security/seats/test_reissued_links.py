"""Trust at the table, round two (issue 11): a seat link shows nothing before it is claimed,
new codes mid-game, odd secrets and cookies, and a revoked seat's requests write nothing."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from dataclasses import replace
from itertools import islice
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from tablekit import HANDS_CY_WITHOUT_PHONE as HANDS
from tablekit import (
    SEAT_LINK,
    SMALL_RECORD,
    Table,
    csrf_of,
    new_table,
    seated_table,
    snapshot,
    started_table,
)

from app.web.refusals import Refusal, Why
from app.web.security import DEVICE_COOKIE, referee_cookie

# -- trust at the table, round two (issue 11) ----------------------------------------------


HAND_CARDS = re.compile(r"card-(duke|captain|contessa|assassin|ambassador|inquisitor)")


def imported_table(app: Flask) -> tuple[FlaskClient, list[str]]:
    """A table loaded from a record: every seat with a phone holds a hand, and no device has
    opened its link yet. Returns the tablet and the seat links (Ann, Bob, Cy; Cy has none)."""
    tablet = app.test_client()
    csrf = csrf_of(tablet.get("/").text)
    upload = {"csrf": csrf, "record": (io.BytesIO(json.dumps(SMALL_RECORD).encode()), "r.json")}
    created = tablet.post("/tables/import", data=upload, content_type="multipart/form-data")
    assert created.status_code == 303, created.text
    phones = tablet.get(created.headers["Location"] + "/phones").text
    return tablet, list(dict.fromkeys(SEAT_LINK.findall(phones)))


@pytest.mark.parametrize("path", ["/view", "/view?since=0", "", "/rules", "/events"])
def test_a_seat_link_shows_nothing_without_claiming_the_seat(app: Flask, path: str):
    """Issue 11.1: every way of looking at a seat claims it first, so the real owner is told at
    once; and a device that has not claimed a seat is shown none of it, even in a refusal."""
    tablet, tokens = imported_table(app)
    ann = f"/s/{tokens[0]}"
    first = app.test_client()
    response = first.get(ann + path, buffered=path != "/events")
    assert response.status_code == 200
    response.close()
    assert "phone connected" in tablet.get(f"/t/{_table_of(app, tokens[0])}/phones").text
    owner = app.test_client()
    for other in ("", "/view", "/view?since=0", "/rules"):
        refused = owner.get(ann + other)
        assert refused.status_code == 403, other
        assert not HAND_CARDS.search(refused.text), other
    for post, data in (("/step", {"do": "concede"}), ("/hand", {"card1": "duke"}),
                       ("/language", {"language": "ru"})):
        refused = owner.post(ann + post, data=data)
        assert refused.status_code == 403 and not HAND_CARDS.search(refused.text), post
    assert "Hold to see your cards" in first.get(ann).text  # the claimant holds the seat


def _table_of(app: Flask, token: str) -> str:
    with app.extensions["tables"].pool.store() as store:
        table_id = store.table_of_seat(token)
    assert table_id is not None
    return table_id


def test_a_new_code_mid_game_is_claimed_by_whoever_looks_first(mixed_table: Table, app: Flask):
    """Issue 11.1, re-issued links: the new link's refresh claims the seat like its page."""
    assert mixed_table.post("/seat/0/reissue", {}).status_code == 200
    token = mixed_table.live().seats[0].token
    newcomer, late = app.test_client(), app.test_client()
    seen = newcomer.get(f"/s/{token}/view")
    assert seen.status_code == 200 and "Hold to see your cards" in seen.text
    assert mixed_table.live().seats[0].device is not None
    assert late.get(f"/s/{token}").status_code == 403
    assert late.get(f"/s/{token}/view").status_code == 403
    assert mixed_table.phones["Ann"].get(mixed_table.link("Ann") + "/view").status_code == 404


def test_non_ascii_secrets_get_a_clear_answer_never_a_500(mixed_table: Table, app: Flask):
    """Issue 11.3: secrets are compared as bytes; odd cookies are refused or replaced."""
    before = snapshot(app)
    stranger = app.test_client()
    home = stranger.get("/")
    refused = stranger.post("/tables", data={"csrf": "é", "players": "A\nB"})
    assert refused.status_code == 400 and "expired" in refused.text
    assert stranger.get(f"{mixed_table.url}?key=é").status_code == 403
    assert stranger.get(f"{mixed_table.url}?key=%FF%FE").status_code == 403
    stranger.set_cookie(referee_cookie(mixed_table.table_id), "é日本")
    assert stranger.get(mixed_table.url).status_code == 403
    join = stranger.get(mixed_table.url + "/join")
    wrong = stranger.post(mixed_table.url + "/join", data={"csrf": csrf_of(join.text), "code": "é"})
    assert wrong.status_code == 422 and "not right" in wrong.text
    assert snapshot(app) == before
    assert home.status_code == 200


@pytest.mark.parametrize("cookie", ["é", "日本語のクッキー-0123456789", "x" * 19, "a b c",
                                    "\u00ff" * 30])
def test_an_odd_device_cookie_is_replaced_before_it_claims_a_seat(app: Flask, cookie: str):
    """Issue 11.3: a device cookie that is not one of our ids never reaches the database: the
    device gets a fresh id, claims the seat with it, and every other device is refused as
    usual (no 500 for anyone, no re-issue needed)."""
    lobby = new_table(app, ["Ann", "Bob"])
    odd = app.test_client()
    opened = odd.get(lobby.link("Ann"), headers={"Cookie": f"{DEVICE_COOKIE}={cookie}"})
    assert opened.status_code == 200
    fresh = [c for c in opened.headers.getlist("Set-Cookie") if c.startswith(DEVICE_COOKIE)]
    assert fresh and cookie not in fresh[0]
    device = lobby.live().seats[0].device
    assert device is not None and device != cookie
    for other in (app.test_client(), lobby.tablet):
        assert other.get(lobby.link("Ann")).status_code == 403
    assert lobby.tablet.get(lobby.url).status_code == 200
    assert app.test_client().get(lobby.link("Bob")).status_code == 200


def test_a_stale_new_code_form_reissues_once(mixed_table: Table):
    """Issue 11.8: "New code" carries the version it was drawn from, like every tap."""
    version = mixed_table.version()
    assert mixed_table.post("/seat/0/reissue", {}, version=version).status_code == 200
    token = mixed_table.live().seats[0].token
    again = mixed_table.post("/seat/0/reissue", {}, version=version)
    assert again.status_code == 409 and "moved on" in again.text
    assert mixed_table.live().seats[0].token == token


class LateBody(io.BytesIO):
    """A request body whose bytes arrive only after ``meanwhile`` has run: a phone on a slow
    network that started its post before the others."""

    def __init__(self, data: bytes, meanwhile: Callable[[], None]) -> None:
        super().__init__(data)
        self.meanwhile: Callable[[], None] | None = meanwhile

    def _arrive(self) -> None:
        if self.meanwhile is not None:
            waiting, self.meanwhile = self.meanwhile, None
            waiting()

    def read(self, size: int | None = -1) -> bytes:
        self._arrive()
        return super().read(size)

    def read1(self, size: int | None = -1) -> bytes:
        self._arrive()
        return super().read1(size)

    def readinto(self, buffer: Any) -> int:
        self._arrive()
        return super().readinto(buffer)

    def readline(self, size: int | None = -1) -> bytes:
        self._arrive()
        return super().readline(size)


def test_a_revoked_seats_slow_request_writes_nothing(app: Flask):
    """Issue 11.5: Ann's old phone starts entering a hand; before its body arrives the referee
    re-issues her link and the new phone enters her real hand. The slow post is answered 404
    and the hand kept is the new phone's."""
    mixed_table = seated_table(app, ["Ann", "Bob"])
    old_phone = mixed_table.phones["Ann"]
    csrf = csrf_of(mixed_table.phone_page("Ann"))
    new_phone = app.test_client()

    def referee_and_new_phone() -> None:
        assert mixed_table.post("/seat/0/reissue", {}).status_code == 200
        link = f"/s/{mixed_table.live().seats[0].token}"
        html = new_phone.get(link).text
        entered = new_phone.post(link + "/hand", data={
            "csrf": csrf_of(html), "card1": "contessa", "card2": "captain"})
        assert entered.status_code == 303

    body = urlencode({"csrf": csrf, "card1": "duke", "card2": "duke"}).encode()
    slow = old_phone.post(mixed_table.link("Ann") + "/hand",
                          input_stream=LateBody(body, referee_and_new_phone),
                          content_type="application/x-www-form-urlencoded",
                          content_length=len(body))
    assert slow.status_code == 404
    assert mixed_table.live().seats[0].hand == ("contessa", "captain")


def test_a_revoked_seats_request_is_refused_inside_the_write(app: Flask):
    """Issue 11.5 at the service: a command that read the seat before its link was re-issued
    is refused by the write itself, and writes nothing."""
    mixed_table = seated_table(app, ["Ann", "Bob"])
    tables = app.extensions["tables"]
    state = mixed_table.live()
    seat = state.seats[0]
    assert mixed_table.post("/seat/0/reissue", {}).status_code == 200
    before = snapshot(app)
    with pytest.raises(Refusal) as refused:
        tables.commit(state, change=lambda w: w.update_seat(0, hand=["duke", "duke"]),
                       seat=(seat.token, seat.device))
    assert refused.value.why in (Why.ACTED_FIRST, Why.SEAT_GONE)
    moved = replace(state, version=mixed_table.live().version)  # even at the current version
    with pytest.raises(Refusal) as refused:
        tables.commit(moved, change=lambda w: w.update_seat(0, hand=["duke", "duke"]),
                       seat=(seat.token, seat.device))
    assert refused.value.why is Why.SEAT_GONE
    assert snapshot(app) == before


def test_a_new_code_ends_the_old_phones_open_event_stream_at_once(app: Flask):
    """Issue 12.4 (a hostile tester): the referee taps "New code" for a seat while the old
    phone listens. Its open stream ends with that change, before it carries a single event,
    and its next request gets the usual refusal. The other seats' streams go on."""
    mixed_table = started_table(app, HANDS)
    app.extensions["tables"].broker.keepalive = 0.1  # a stream that went on would say so soon
    ann = mixed_table.phones["Ann"].get(mixed_table.link("Ann") + "/events", buffered=False)
    bob = mixed_table.phones["Bob"].get(mixed_table.link("Bob") + "/events", buffered=False)
    ann_chunks, bob_chunks = iter(ann.response), iter(bob.response)
    assert next(ann_chunks) and next(bob_chunks)  # both streams are open
    assert mixed_table.post("/seat/0/reissue", {}).status_code == 200
    assert list(islice(ann_chunks, 3)) == []  # ended: not one more event, not a keepalive
    assert b"event: changed" in next(bob_chunks)  # Bob's phone still hears the table
    ann.close()
    bob.close()
    assert mixed_table.phones["Ann"].get(mixed_table.link("Ann") + "/view").status_code == 404
    assert mixed_table.phones["Ann"].get(mixed_table.link("Ann") + "/events").status_code == 404
