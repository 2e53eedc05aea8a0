"""Who may act: a phone is neither another seat nor the referee; more referee devices join
with one-use codes."""

from __future__ import annotations

import re

from flask import Flask
from pagekit import check_headers
from tablekit import HANDS_CY_WITHOUT_PHONE as HANDS
from tablekit import Table, csrf_of, snapshot, started_table, version_of

from app.web.security import referee_cookie

REFEREE_GETS = ["", "/view", "/rules", "/log", "/phones", "/events"]
REFEREE_POSTS = ["/step", "/undo", "/start", "/rematch", "/seat/0/tracked", "/seat/0/reissue",
                 "/seat/2/tracked", "/join-code", "/record.json"]


# -- a phone is neither another seat nor the referee --------------------------------------


def test_a_phone_is_refused_every_referee_route(mixed_table: Table, app: Flask):
    before = snapshot(app)
    bob_csrf = csrf_of(mixed_table.phone_page("Bob"))
    for client in (mixed_table.phones["Bob"], app.test_client()):
        for path in REFEREE_GETS:
            response = client.get(mixed_table.url + path)
            assert response.status_code == 403, path
            check_headers(response)
        for path in REFEREE_POSTS:
            data = {"csrf": bob_csrf, "version": mixed_table.live().version, "do": "income",
                    "by": "Ann", "tracked": "0"}
            assert client.post(mixed_table.url + path, data=data).status_code == 403, path
    assert snapshot(app) == before


def test_a_phone_cannot_act_for_another_seat(mixed_table: Table, app: Flask):
    mixed_table.post("/step", {"do": "tax", "by": "Ann"})
    mixed_table.post("/step", {"do": "challenge", "by": "Bob"})
    before = snapshot(app)
    # Ann must prove or concede: only Ann's phone may. Bob tries, naming Ann or not.
    for data in ({"do": "concede"}, {"do": "concede", "by": "Ann"}, {"do": "prove", "by": "Ann"},
                 {"do": "lose", "card": "duke", "by": "Ann"}, {"do": "tax", "by": "Ann"},
                 {"do": "pass"}, {"do": "income"}):
        response = mixed_table.phone_post("Bob", "/step", data)
        assert response.status_code == 422, data
        assert "There is nothing for you to do right now." in response.text, data
        assert snapshot(app) == before, data
    # Nor can Bob's phone use Ann's link or Ann's form token.
    ann_csrf = csrf_of(mixed_table.phone_page("Ann"))
    response = mixed_table.phones["Bob"].post(mixed_table.link("Ann") + "/step",
                                        data={"csrf": ann_csrf, "do": "concede"})
    assert response.status_code == 403
    response = mixed_table.phones["Bob"].post(mixed_table.link("Bob") + "/step", data={
        "csrf": ann_csrf, "version": mixed_table.live().version, "do": "concede"})
    assert response.status_code == 400
    assert snapshot(app) == before


def test_the_tablet_cannot_take_a_phones_private_step(mixed_table: Table, app: Flask):
    mixed_table.post("/step", {"do": "tax", "by": "Ann"})
    mixed_table.post("/step", {"do": "challenge", "by": "Bob"})
    before = snapshot(app)
    for data in ({"do": "concede", "by": "Ann"}, {"do": "prove", "by": "Ann"}):
        response = mixed_table.post("/step", data)
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


def join(app: Flask, client, mixed_table: Table, code: str):
    page = client.get(mixed_table.url + "/join")
    assert page.status_code == 200
    return client.post(mixed_table.url + "/join", data={"csrf": csrf_of(page.text), "code": code})


def shown_code(mixed_table: Table) -> str:
    response = mixed_table.post("/join-code", {})
    assert response.status_code == 200
    found = re.search(r'class="code">(\d{6})<', response.text)
    assert found, "no code on the tablet"
    return found.group(1)


def test_a_referee_code_is_one_use_and_dies_after_five_wrong_tries(mixed_table: Table, app: Flask):
    bob = mixed_table.phones["Bob"]
    assert bob.post(mixed_table.url + "/join-code", data={
        "csrf": csrf_of(mixed_table.phone_page("Bob")), "version": "1"}).status_code == 403
    code = shown_code(mixed_table)
    stranger = app.test_client()
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(5):
        assert join(app, stranger, mixed_table, wrong).status_code == 422
    assert join(app, stranger, mixed_table, code).status_code == 422  # burnt by the wrong tries
    assert stranger.get(mixed_table.url).status_code == 403
    code = shown_code(mixed_table)
    assert join(app, stranger, mixed_table, code).status_code == 303
    assert stranger.get(mixed_table.url).status_code == 200  # a referee now
    other = app.test_client()
    assert join(app, other, mixed_table, code).status_code == 422  # used
    assert other.get(mixed_table.url).status_code == 403


def test_the_import_key_link_works_only_with_the_right_key(mixed_table: Table, app: Flask):
    key = mixed_table.live().table.referee_token
    stranger = app.test_client()
    for wrong in ("", "x", key[:-1], key + "x", key.upper() if key != key.upper() else "y"):
        response = stranger.get(f"{mixed_table.url}?key={wrong}")
        assert response.status_code == 403, wrong
        assert not response.headers.getlist("Set-Cookie") or all(
            not c.startswith("coup_ref_") for c in response.headers.getlist("Set-Cookie"))
    assert stranger.get(mixed_table.url).status_code == 403
    response = stranger.get(f"{mixed_table.url}?key={key}")
    assert response.status_code == 303 and key not in response.headers["Location"]
    assert stranger.get(mixed_table.url).status_code == 200
