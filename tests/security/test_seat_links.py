"""Seat links and who may act: unguessable tokens, one device per seat, re-issued links,
phones that can't act for others or as the referee, forms no other site can send, and the
headers every page carries."""

from __future__ import annotations

import inspect
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
from tablekit import (
    HTMX,
    SEAT_LINK,
    SMALL_RECORD,
    Table,
    check_headers,
    csrf_of,
    inline_script_problems,
    new_table,
    seated_table,
    snapshot,
    started_table,
    version_of,
)

from app import store as store_module
from app.web.refusals import Refusal, Why
from app.web.security import DEVICE_COOKIE, referee_cookie

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"], "Cy": None}
REFEREE_GETS = ["", "/view", "/rules", "/log", "/phones", "/events"]
REFEREE_POSTS = ["/step", "/undo", "/start", "/rematch", "/seat/0/tracked", "/seat/0/reissue",
                 "/seat/2/tracked", "/join-code", "/record.json"]


@pytest.fixture
def table(app: Flask) -> Table:
    """Ann and Bob on phones, Cy without one; the game started."""
    return started_table(app, HANDS)


# -- tokens -------------------------------------------------------------------------------


def test_tokens_come_from_secrets_with_at_least_128_bits():
    source = inspect.getsource(store_module.new_token)
    found = re.search(r"secrets\.token_urlsafe\((\d+)\)", source)
    assert found, source
    assert int(found.group(1)) * 8 >= 128
    tokens = {store_module.new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22,}", t) for t in tokens)  # 22 chars = 132 bits


def test_every_secret_of_a_table_is_long_and_distinct(table: Table):
    live = table.live()
    secrets = [live.table.referee_token, *(s.token for s in live.seats)]
    assert len(set(secrets)) == len(secrets)
    assert all(len(s) >= 22 for s in secrets)
    assert live.table.referee_token not in table.page()
    devices = [s.device for s in live.seats if s.device]
    assert len(devices) == 2 and all(len(d) >= 22 for d in devices)


# -- one device per seat ------------------------------------------------------------------


def test_the_first_device_claims_the_seat_and_another_is_sent_to_the_referee(app: Flask):
    table = new_table(app, ["Ann", "Bob"])
    assert table.open_phone("Ann").status_code == 200
    assert table.phone_page("Ann")  # the same phone comes back freely
    before = snapshot(app)
    other = app.test_client()
    for path in ("", "/view", "/rules", "/events"):
        response = other.get(table.link("Ann") + path)
        assert response.status_code == 403, path
        assert "already open on another phone" in response.text, path
        assert "ask the referee" in response.text, path
    for path, data in (("/hand", {"card1": "duke", "card2": "duke"}), ("/step", {"do": "lose"}),
                       ("/language", {"language": "en"})):
        assert other.post(table.link("Ann") + path, data=data).status_code == 403
    assert snapshot(app) == before


def test_a_reissued_link_stops_the_old_one_at_once(table: Table, app: Flask):
    old = table.link("Ann")
    ann = table.phones["Ann"]
    assert ann.get(old).status_code == 200
    response = table.post("/seat/0/reissue", {})
    assert response.status_code == 200
    for path in ("", "/view", "/rules", "/events"):
        assert ann.get(old + path).status_code == 404, path
        assert app.test_client().get(old + path).status_code == 404, path
    assert ann.post(old + "/step", data={"do": "concede"}).status_code == 404
    live = table.live()
    seat = next(s for s in live.seats if s.name == "Ann")
    assert seat.device is None and f"/s/{seat.token}" != old
    new_phone = app.test_client()
    assert new_phone.get(f"/s/{seat.token}").status_code == 200
    assert "Hold to see your cards" in new_phone.get(f"/s/{seat.token}").text


def test_a_reissued_lobby_link_stops_and_the_new_one_opens(app: Flask):
    table = seated_table(app, ["Ann", "Bob", "Cy"])
    assert table.post("/seat/0/reissue", {}).status_code == 200
    assert app.test_client().get(table.links["Ann"]).status_code == 404
    assert table.phones["Ann"].get(table.links["Ann"]).status_code == 404
    tokens = list(dict.fromkeys(SEAT_LINK.findall(table.page())))
    assert tokens[0] != table.tokens["Ann"] and tokens[1:] == [table.tokens["Bob"],
                                                               table.tokens["Cy"]]
    assert app.test_client().get("/s/" + tokens[0]).status_code == 200


def test_a_reissued_code_does_not_show_the_hand_already_entered(app: Flask):
    table = new_table(app, ["Ann", "Bob"])
    table.open_phone("Bob")
    assert table.enter_hand("Bob", ["contessa", "assassin"]).status_code == 200
    assert table.post("/seat/1/reissue", {}).status_code == 200
    token = table.live().seats[1].token
    page = app.test_client().get(f"/s/{token}")
    assert page.status_code == 200
    assert not re.findall(r"card-(contessa|assassin)", page.text)


def test_the_new_link_is_shown_only_on_the_referee_screen(app: Flask):
    table = new_table(app, ["Ann", "Bob"])
    table.open_phone("Bob")
    table.post("/seat/0/reissue", {})
    links = set(SEAT_LINK.findall(table.page()))
    tokens = {s.token for s in table.live().seats}
    assert tokens <= links
    bob = table.phone_page("Bob")
    assert not any(t in bob for t in tokens - {table.live().seats[1].token})


# -- a phone is neither another seat nor the referee --------------------------------------


def test_a_phone_is_refused_every_referee_route(table: Table, app: Flask):
    before = snapshot(app)
    bob_csrf = csrf_of(table.phone_page("Bob"))
    for client in (table.phones["Bob"], app.test_client()):
        for path in REFEREE_GETS:
            response = client.get(table.url + path)
            assert response.status_code == 403, path
            check_headers(response)
        for path in REFEREE_POSTS:
            data = {"csrf": bob_csrf, "version": table.live().version, "do": "income",
                    "by": "Ann", "tracked": "0"}
            assert client.post(table.url + path, data=data).status_code == 403, path
    assert snapshot(app) == before


def test_a_phone_cannot_act_for_another_seat(table: Table, app: Flask):
    table.post("/step", {"do": "tax", "by": "Ann"})
    table.post("/step", {"do": "challenge", "by": "Bob"})
    before = snapshot(app)
    # Ann must prove or concede: only Ann's phone may. Bob tries, naming Ann or not.
    for data in ({"do": "concede"}, {"do": "concede", "by": "Ann"}, {"do": "prove", "by": "Ann"},
                 {"do": "lose", "card": "duke", "by": "Ann"}, {"do": "tax", "by": "Ann"},
                 {"do": "pass"}, {"do": "income"}):
        response = table.phone_post("Bob", "/step", data)
        assert response.status_code == 422, data
        assert "There is nothing for you to do right now." in response.text, data
        assert snapshot(app) == before, data
    # Nor can Bob's phone use Ann's link or Ann's form token.
    ann_csrf = csrf_of(table.phone_page("Ann"))
    response = table.phones["Bob"].post(table.link("Ann") + "/step",
                                        data={"csrf": ann_csrf, "do": "concede"})
    assert response.status_code == 403
    response = table.phones["Bob"].post(table.link("Bob") + "/step", data={
        "csrf": ann_csrf, "version": table.live().version, "do": "concede"})
    assert response.status_code == 400
    assert snapshot(app) == before


def test_the_tablet_cannot_take_a_phones_private_step(table: Table, app: Flask):
    table.post("/step", {"do": "tax", "by": "Ann"})
    table.post("/step", {"do": "challenge", "by": "Bob"})
    before = snapshot(app)
    for data in ({"do": "concede", "by": "Ann"}, {"do": "prove", "by": "Ann"}):
        response = table.post("/step", data)
        assert response.status_code == 422
        assert "Only Ann’s phone can do that." in response.text
    assert snapshot(app) == before


def test_one_tables_referee_is_a_stranger_at_another(app: Flask):
    one = started_table(app, HANDS)
    two = started_table(app, {"Dee": ["duke", "duke"], "Eve": None})
    before = snapshot(app)
    for path in REFEREE_GETS:
        assert one.tablet.get(two.url + path).status_code == 403
    html = one.page()
    data = {"csrf": csrf_of(html), "version": version_of(two.page()), "do": "income",
            "by": "Dee"}
    assert one.tablet.post(two.url + "/step", data=data).status_code == 403
    # A referee's own token in another table's cookie does not open it either.
    one.tablet.set_cookie(referee_cookie(two.table_id), one.live().table.referee_token)
    assert one.tablet.get(two.url).status_code == 403
    assert snapshot(app) == before


# -- more referee devices ------------------------------------------------------------------


def join(app: Flask, client, table: Table, code: str):
    page = client.get(table.url + "/join")
    assert page.status_code == 200
    return client.post(table.url + "/join", data={"csrf": csrf_of(page.text), "code": code})


def shown_code(table: Table) -> str:
    response = table.post("/join-code", {})
    assert response.status_code == 200
    found = re.search(r'class="code">(\d{6})<', response.text)
    assert found, "no code on the tablet"
    return found.group(1)


def test_a_referee_code_is_one_use_and_dies_after_five_wrong_tries(table: Table, app: Flask):
    bob = table.phones["Bob"]
    assert bob.post(table.url + "/join-code", data={
        "csrf": csrf_of(table.phone_page("Bob")), "version": "1"}).status_code == 403
    code = shown_code(table)
    stranger = app.test_client()
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(5):
        assert join(app, stranger, table, wrong).status_code == 422
    assert join(app, stranger, table, code).status_code == 422  # burnt by the wrong tries
    assert stranger.get(table.url).status_code == 403
    code = shown_code(table)
    assert join(app, stranger, table, code).status_code == 303
    assert stranger.get(table.url).status_code == 200  # a referee now
    other = app.test_client()
    assert join(app, other, table, code).status_code == 422  # used
    assert other.get(table.url).status_code == 403


def test_the_import_key_link_works_only_with_the_right_key(table: Table, app: Flask):
    key = table.live().table.referee_token
    stranger = app.test_client()
    for wrong in ("", "x", key[:-1], key + "x", key.upper() if key != key.upper() else "y"):
        response = stranger.get(f"{table.url}?key={wrong}")
        assert response.status_code == 403, wrong
        assert not response.headers.getlist("Set-Cookie") or all(
            not c.startswith("coup_ref_") for c in response.headers.getlist("Set-Cookie"))
    assert stranger.get(table.url).status_code == 403
    response = stranger.get(f"{table.url}?key={key}")
    assert response.status_code == 303 and key not in response.headers["Location"]
    assert stranger.get(table.url).status_code == 200


# -- forms no other site can send ---------------------------------------------------------


def refused_forms(table: Table) -> list[tuple[str, dict[str, str], dict[str, str], str]]:
    """(path, form, headers, client) for a legal step sent in every forged way."""
    tablet_csrf = csrf_of(table.page())
    ann_csrf = csrf_of(table.phone_page("Ann"))
    version = version_of(table.page())
    income = {"do": "income", "by": "Bob", "version": version}
    cases = []
    for csrf, headers in ((None, {}), ("", {}), ("0" * 32, {}), (ann_csrf, {}),
                          (tablet_csrf, {"Sec-Fetch-Site": "cross-site"}),
                          (tablet_csrf, {"Sec-Fetch-Site": "same-site"}),
                          (tablet_csrf, {"Origin": "http://evil.example"}),
                          (tablet_csrf, {"Origin": "null"})):
        form = dict(income) if csrf is None else {**income, "csrf": csrf}
        cases.append((table.url + "/step", form, headers, "tablet"))
        cases.append((table.url + "/undo", form, headers, "tablet"))
    for csrf, headers in ((None, {}), ("0" * 32, {}), (tablet_csrf, {}),
                          (ann_csrf, {"Sec-Fetch-Site": "cross-site"}),
                          (ann_csrf, {"Origin": "http://evil.example"})):
        form = {"do": "concede", "version": version, "language": "en"}
        if csrf is not None:
            form["csrf"] = csrf
        cases.append((table.link("Ann") + "/language", form, headers, "Ann"))
        cases.append((table.link("Ann") + "/step", form, headers, "Ann"))
    return cases


def test_forged_forms_are_refused_and_change_nothing(table: Table, app: Flask):
    assert table.post("/step", {"do": "income", "by": "Ann"}).status_code == 200  # to undo
    for path, form, headers, who in refused_forms(table):
        client = table.tablet if who == "tablet" else table.phones[who]
        before = snapshot(app)
        response = client.post(path, data=form, headers={**HTMX, **headers})
        assert response.status_code == 400, (path, form, headers, response.status_code)
        assert snapshot(app) == before, (path, headers)
        check_headers(response)
    # The same forms, sent properly, are taken: the refusals above were for the forgery.
    assert table.post("/step", {"do": "income", "by": "Bob"}).status_code == 200
    assert table.post("/undo", {}).status_code == 200


def test_a_new_table_form_from_another_site_is_refused(app: Flask):
    client = app.test_client()
    csrf = csrf_of(client.get("/").text)
    before = snapshot(app)
    for form, headers in (({"players": "A\nB"}, {}),
                          ({"players": "A\nB", "csrf": "0" * 32}, {}),
                          ({"players": "A\nB", "csrf": csrf}, {"Sec-Fetch-Site": "cross-site"}),
                          ({"players": "A\nB", "csrf": csrf}, {"Origin": "http://evil.example"}),
                          ({"players": "A\nB", "csrf": csrf + "0"}, {})):
        assert client.post("/tables", data=form, headers=headers).status_code == 400
    assert snapshot(app) == before
    same_site = {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"}
    response = client.post("/tables", data={"players": "A\nB", "csrf": csrf}, headers=same_site)
    assert response.status_code == 303


def test_a_form_token_is_bound_to_its_device(table: Table, app: Flask):
    """A form token lifted from the tablet's page is useless without the tablet's cookies."""
    html = table.page()
    thief = app.test_client()
    thief.set_cookie(referee_cookie(table.table_id), "guess")
    data = {"csrf": csrf_of(html), "version": version_of(html), "do": "income", "by": "Ann"}
    before = snapshot(app)
    assert thief.post(table.url + "/step", data=data).status_code == 403
    assert snapshot(app) == before


# -- headers and pages --------------------------------------------------------------------


def every_page(table: Table, app: Flask) -> list[tuple[str, object]]:
    stranger = app.test_client()
    pages = [
        ("home", table.tablet.get("/")),
        ("tablet", table.tablet.get(table.url)),
        ("tablet view", table.tablet.get(table.url + "/view")),
        ("tablet rules", table.tablet.get(table.url + "/rules")),
        ("record", table.download()),
        ("phone", table.phones["Ann"].get(table.link("Ann"))),
        ("phone view", table.phones["Ann"].get(table.link("Ann") + "/view")),
        ("phone rules", table.phones["Ann"].get(table.link("Ann") + "/rules")),
        ("403", stranger.get(table.url)),
        ("404", stranger.get("/s/" + "x" * 32)),
        ("405", stranger.get(table.url + "/step")),
        ("400", table.tablet.post(table.url + "/step", data={"do": "income"})),
        ("422", table.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"})),
        ("409", table.post("/step", {"do": "income", "by": "Ann"}, version="0")),
        ("bad create", stranger.post("/tables", data={"csrf": csrf_of(stranger.get("/").text),
                                                       "players": "A"})),
        ("413", stranger.post("/tables", data={"players": "x" * 70_000})),
    ]
    lobby = new_table(app, ["Dee", "Eve"])
    lobby.open_phone("Dee")
    pages += [("lobby", lobby.tablet.get(lobby.url)),
              ("lobby phone", lobby.phones["Dee"].get(lobby.link("Dee")))]
    return pages


def test_every_response_carries_the_security_headers(table: Table, app: Flask):
    for name, response in every_page(table, app):
        check_headers(response)  # type: ignore[arg-type]
        assert response.status_code != 500, name  # type: ignore[attr-defined]


def test_no_served_page_needs_inline_script(table: Table, app: Flask):
    html = [(n, r) for n, r in every_page(table, app) if r.mimetype == "text/html"]  # type: ignore[attr-defined]
    assert len(html) >= 15
    for name, response in html:
        text = response.get_data(as_text=True)  # type: ignore[attr-defined]
        assert not inline_script_problems(text), name
        assert "<script" not in text or all(
            'src="/static/' in tag for tag in re.findall(r"<script[^>]*>", text)), name


def test_the_static_script_does_not_evaluate_strings(app: Flask):
    """app.js is ours: no eval, no new Function, no innerHTML of server text."""
    client = app.test_client()
    response = client.get("/static/app.js")
    assert response.status_code == 200
    source = response.get_data(as_text=True)
    response.close()
    for banned in ("eval(", "new Function", "document.write"):
        assert banned not in source, banned


def test_cookies_are_http_only_and_same_site(app: Flask):
    client = app.test_client()
    home = client.get("/")
    device = [c for c in home.headers.getlist("Set-Cookie") if c.startswith(DEVICE_COOKIE)]
    assert device and "HttpOnly" in device[0] and "SameSite=Lax" in device[0]
    created = client.post("/tables", data={"csrf": csrf_of(home.text), "players": "A\nB"})
    referee = [c for c in created.headers.getlist("Set-Cookie") if c.startswith("coup_ref_")]
    assert referee and "HttpOnly" in referee[0] and "SameSite=Strict" in referee[0]


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


def test_a_new_code_mid_game_is_claimed_by_whoever_looks_first(table: Table, app: Flask):
    """Issue 11.1, re-issued links: the new link's refresh claims the seat like its page."""
    assert table.post("/seat/0/reissue", {}).status_code == 200
    token = table.live().seats[0].token
    newcomer, late = app.test_client(), app.test_client()
    seen = newcomer.get(f"/s/{token}/view")
    assert seen.status_code == 200 and "Hold to see your cards" in seen.text
    assert table.live().seats[0].device is not None
    assert late.get(f"/s/{token}").status_code == 403
    assert late.get(f"/s/{token}/view").status_code == 403
    assert table.phones["Ann"].get(table.link("Ann") + "/view").status_code == 404


def test_non_ascii_secrets_get_a_clear_answer_never_a_500(table: Table, app: Flask):
    """Issue 11.3: secrets are compared as bytes; odd cookies are refused or replaced."""
    before = snapshot(app)
    stranger = app.test_client()
    home = stranger.get("/")
    refused = stranger.post("/tables", data={"csrf": "é", "players": "A\nB"})
    assert refused.status_code == 400 and "expired" in refused.text
    assert stranger.get(f"{table.url}?key=é").status_code == 403
    assert stranger.get(f"{table.url}?key=%FF%FE").status_code == 403
    stranger.set_cookie(referee_cookie(table.table_id), "é日本")
    assert stranger.get(table.url).status_code == 403
    join = stranger.get(table.url + "/join")
    wrong = stranger.post(table.url + "/join", data={"csrf": csrf_of(join.text), "code": "é"})
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


def test_a_stale_new_code_form_reissues_once(table: Table):
    """Issue 11.8: "New code" carries the version it was drawn from, like every tap."""
    version = table.version()
    assert table.post("/seat/0/reissue", {}, version=version).status_code == 200
    token = table.live().seats[0].token
    again = table.post("/seat/0/reissue", {}, version=version)
    assert again.status_code == 409 and "moved on" in again.text
    assert table.live().seats[0].token == token


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
    table = seated_table(app, ["Ann", "Bob"])
    old_phone = table.phones["Ann"]
    csrf = csrf_of(table.phone_page("Ann"))
    new_phone = app.test_client()

    def referee_and_new_phone() -> None:
        assert table.post("/seat/0/reissue", {}).status_code == 200
        link = f"/s/{table.live().seats[0].token}"
        html = new_phone.get(link).text
        entered = new_phone.post(link + "/hand", data={
            "csrf": csrf_of(html), "card1": "contessa", "card2": "captain"})
        assert entered.status_code == 303

    body = urlencode({"csrf": csrf, "card1": "duke", "card2": "duke"}).encode()
    slow = old_phone.post(table.link("Ann") + "/hand",
                          input_stream=LateBody(body, referee_and_new_phone),
                          content_type="application/x-www-form-urlencoded",
                          content_length=len(body))
    assert slow.status_code == 404
    assert table.live().seats[0].hand == ("contessa", "captain")


def test_a_revoked_seats_request_is_refused_inside_the_write(app: Flask):
    """Issue 11.5 at the service: a command that read the seat before its link was re-issued
    is refused by the write itself, and writes nothing."""
    table = seated_table(app, ["Ann", "Bob"])
    tables = app.extensions["tables"]
    state = table.live()
    seat = state.seats[0]
    assert table.post("/seat/0/reissue", {}).status_code == 200
    before = snapshot(app)
    with pytest.raises(Refusal) as refused:
        tables.commit(state, change=lambda w: w.update_seat(0, hand=["duke", "duke"]),
                       seat=(seat.token, seat.device))
    assert refused.value.why in (Why.ACTED_FIRST, Why.SEAT_GONE)
    moved = replace(state, version=table.live().version)  # even at the current version
    with pytest.raises(Refusal) as refused:
        tables.commit(moved, change=lambda w: w.update_seat(0, hand=["duke", "duke"]),
                       seat=(seat.token, seat.device))
    assert refused.value.why is Why.SEAT_GONE
    assert snapshot(app) == before


def test_a_new_code_ends_the_old_phones_open_event_stream_at_once(app: Flask):
    """Issue 12.4 (a hostile tester): the referee taps "New code" for a seat while the old
    phone listens. Its open stream ends with that change, before it carries a single event,
    and its next request gets the usual refusal. The other seats' streams go on."""
    table = started_table(app, HANDS)
    app.extensions["tables"].broker.keepalive = 0.1  # a stream that went on would say so soon
    ann = table.phones["Ann"].get(table.link("Ann") + "/events", buffered=False)
    bob = table.phones["Bob"].get(table.link("Bob") + "/events", buffered=False)
    ann_chunks, bob_chunks = iter(ann.response), iter(bob.response)
    assert next(ann_chunks) and next(bob_chunks)  # both streams are open
    assert table.post("/seat/0/reissue", {}).status_code == 200
    assert list(islice(ann_chunks, 3)) == []  # ended: not one more event, not a keepalive
    assert b"event: changed" in next(bob_chunks)  # Bob's phone still hears the table
    ann.close()
    bob.close()
    assert table.phones["Ann"].get(table.link("Ann") + "/view").status_code == 404
    assert table.phones["Ann"].get(table.link("Ann") + "/events").status_code == 404


# -- a seat set to "No phone" (issue 14.9) -------------------------------------------------


def test_a_seat_set_to_no_phone_leaves_its_old_phone(app: Flask):
    """Dan opened his link, then the referee tapped "No phone": his old phone may take no step
    of his seat (the tablet plays it) and shows neither hand nor buttons nor countdown."""
    table = new_table(app, ["Ann", "Dan"])
    assert table.open_phone("Ann").status_code == 200
    assert table.enter_hand("Ann", ["duke", "captain"]).status_code == 200
    assert table.open_phone("Dan").status_code == 200
    assert table.enter_hand("Dan", ["contessa", "assassin"]).status_code == 200
    assert table.post("/seat/1/tracked", {"tracked": "0"}).status_code == 200
    assert table.post("/start", {}).status_code == 200
    assert table.post("/night", {"timer": "30"}).status_code == 200
    assert table.post("/step", {"do": "income", "by": "Ann"}).status_code == 200  # Dan's turn
    assert "data-countdown" in table.page()
    dan = table.phones["Dan"]
    link = table.link("Dan")
    for path in ("", "/view"):
        response = dan.get(link + path)
        assert response.status_code == 200, path
        assert "played on the tablet" in response.text, path
        for hidden in ("It’s you", "It's you", "Hold to see your cards", "data-countdown",
                       'name="do"', "contessa", "assassin"):
            assert hidden not in response.text, (path, hidden)
    before = snapshot(app)
    csrf = csrf_of(dan.get(link).text)
    for path, data in (("/step", {"do": "income"}), ("/step", {"do": "lose", "card": "x"}),
                       ("/hand", {"card1": "duke", "card2": "duke"}),
                       ("/language", {"language": "ru"})):
        response = dan.post(link + path, data={**data, "csrf": csrf,
                                               "version": table.live().version})
        assert response.status_code == 403, path
        assert "played on the tablet" in response.text, path
    assert snapshot(app) == before
    # A device that never held the seat claims nothing either.
    other = app.test_client()
    assert other.get(link).status_code == 403
    assert table.live().seats[1].device is not None and snapshot(app) == before


def test_no_phone_then_a_phone_again_gives_the_old_phone_back(app: Flask):
    table = seated_table(app, ["Ann", "Dan"])
    assert table.post("/seat/1/tracked", {"tracked": "0"}).status_code == 200
    assert "played on the tablet" in table.phones["Dan"].get(table.link("Dan")).text
    assert table.post("/seat/1/tracked", {"tracked": "1"}).status_code == 200
    page = table.phones["Dan"].get(table.link("Dan")).text
    assert "played on the tablet" not in page
    assert table.enter_hand("Dan", ["duke", "captain"]).status_code == 200
