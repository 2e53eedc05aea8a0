"""Seat links: unguessable tokens, one device per seat, re-issued links, and a seat set to
"No phone"."""

from __future__ import annotations

import inspect
import re

from flask import Flask
from tablekit import SEAT_LINK, Table, csrf_of, new_table, seated_table, snapshot

from app import store as store_module

# -- tokens -------------------------------------------------------------------------------


def test_tokens_come_from_secrets_with_at_least_128_bits():
    source = inspect.getsource(store_module.new_token)
    found = re.search(r"secrets\.token_urlsafe\((\d+)\)", source)
    assert found, source
    assert int(found.group(1)) * 8 >= 128
    tokens = {store_module.new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22,}", t) for t in tokens)  # 22 chars = 132 bits


def test_every_secret_of_a_table_is_long_and_distinct(mixed_table: Table):
    live = mixed_table.live()
    secrets = [live.table.referee_token, *(s.token for s in live.seats)]
    assert len(set(secrets)) == len(secrets)
    assert all(len(s) >= 22 for s in secrets)
    assert live.table.referee_token not in mixed_table.page()
    devices = [s.device for s in live.seats if s.device]
    assert len(devices) == 2 and all(len(d) >= 22 for d in devices)


# -- one device per seat ------------------------------------------------------------------


def test_the_first_device_claims_the_seat_and_another_is_sent_to_the_referee(app: Flask):
    mixed_table = new_table(app, ["Ann", "Bob"])
    assert mixed_table.open_phone("Ann").status_code == 200
    assert mixed_table.phone_page("Ann")  # the same phone comes back freely
    before = snapshot(app)
    other = app.test_client()
    for path in ("", "/view", "/rules", "/events"):
        response = other.get(mixed_table.link("Ann") + path)
        assert response.status_code == 403, path
        assert "already open on another phone" in response.text, path
        assert "ask the referee" in response.text, path
    for path, data in (("/hand", {"card1": "duke", "card2": "duke"}), ("/step", {"do": "lose"}),
                       ("/language", {"language": "en"})):
        assert other.post(mixed_table.link("Ann") + path, data=data).status_code == 403
    assert snapshot(app) == before


def test_a_reissued_link_stops_the_old_one_at_once(mixed_table: Table, app: Flask):
    old = mixed_table.link("Ann")
    ann = mixed_table.phones["Ann"]
    assert ann.get(old).status_code == 200
    response = mixed_table.post("/seat/0/reissue", {})
    assert response.status_code == 200
    for path in ("", "/view", "/rules", "/events"):
        assert ann.get(old + path).status_code == 404, path
        assert app.test_client().get(old + path).status_code == 404, path
    assert ann.post(old + "/step", data={"do": "concede"}).status_code == 404
    live = mixed_table.live()
    seat = next(s for s in live.seats if s.name == "Ann")
    assert seat.device is None and f"/s/{seat.token}" != old
    new_phone = app.test_client()
    assert new_phone.get(f"/s/{seat.token}").status_code == 200
    assert "Hold to see your cards" in new_phone.get(f"/s/{seat.token}").text


def test_a_reissued_lobby_link_stops_and_the_new_one_opens(app: Flask):
    mixed_table = seated_table(app, ["Ann", "Bob", "Cy"])
    assert mixed_table.post("/seat/0/reissue", {}).status_code == 200
    assert app.test_client().get(mixed_table.links["Ann"]).status_code == 404
    assert mixed_table.phones["Ann"].get(mixed_table.links["Ann"]).status_code == 404
    tokens = list(dict.fromkeys(SEAT_LINK.findall(mixed_table.page())))
    assert tokens[0] != mixed_table.tokens["Ann"] and tokens[1:] == [mixed_table.tokens["Bob"],
                                                               mixed_table.tokens["Cy"]]
    assert app.test_client().get("/s/" + tokens[0]).status_code == 200


def test_a_reissued_code_does_not_show_the_hand_already_entered(app: Flask):
    mixed_table = new_table(app, ["Ann", "Bob"])
    mixed_table.open_phone("Bob")
    assert mixed_table.enter_hand("Bob", ["contessa", "assassin"]).status_code == 200
    assert mixed_table.post("/seat/1/reissue", {}).status_code == 200
    token = mixed_table.live().seats[1].token
    page = app.test_client().get(f"/s/{token}")
    assert page.status_code == 200
    assert not re.findall(r"card-(contessa|assassin)", page.text)


def test_the_new_link_is_shown_only_on_the_referee_screen(app: Flask):
    mixed_table = new_table(app, ["Ann", "Bob"])
    mixed_table.open_phone("Bob")
    mixed_table.post("/seat/0/reissue", {})
    links = set(SEAT_LINK.findall(mixed_table.page()))
    tokens = {s.token for s in mixed_table.live().seats}
    assert tokens <= links
    bob = mixed_table.phone_page("Bob")
    assert not any(t in bob for t in tokens - {mixed_table.live().seats[1].token})


# -- a seat set to "No phone" (issue 14.9) -------------------------------------------------


def test_a_seat_set_to_no_phone_leaves_its_old_phone(app: Flask):
    """Dan opened his link, then the referee tapped "No phone": his old phone may take no step
    of his seat (the tablet plays it) and shows neither hand nor buttons nor countdown."""
    mixed_table = new_table(app, ["Ann", "Dan"])
    assert mixed_table.open_phone("Ann").status_code == 200
    assert mixed_table.enter_hand("Ann", ["duke", "captain"]).status_code == 200
    assert mixed_table.open_phone("Dan").status_code == 200
    assert mixed_table.enter_hand("Dan", ["contessa", "assassin"]).status_code == 200
    # the form token his phone held before (the old phone's page has no form any more)
    csrf = csrf_of(mixed_table.phones["Dan"].get(mixed_table.link("Dan")).text)
    assert mixed_table.post("/seat/1/tracked", {"tracked": "0"}).status_code == 200
    assert mixed_table.post("/start", {}).status_code == 200
    assert mixed_table.post("/night", {"timer": "30"}).status_code == 200
    assert mixed_table.post("/step", {"do": "income", "by": "Ann"}).status_code == 200  # Dan's turn
    assert "data-countdown" in mixed_table.page()
    dan = mixed_table.phones["Dan"]
    link = mixed_table.link("Dan")
    for path in ("", "/view"):
        response = dan.get(link + path)
        assert response.status_code == 200, path
        assert "played on the tablet" in response.text, path
        for hidden in ("It’s you", "It's you", "Hold to see your cards", "data-countdown",
                       'name="do"', "contessa", "assassin"):
            assert hidden not in response.text, (path, hidden)
        assert "<form" not in response.text, path  # no dead end: nothing it could send
    before = snapshot(app)
    for path, data in (("/step", {"do": "income"}), ("/step", {"do": "lose", "card": "x"}),
                       ("/hand", {"card1": "duke", "card2": "duke"}),
                       ("/language", {"language": "ru"})):
        response = dan.post(link + path, data={**data, "csrf": csrf,
                                               "version": mixed_table.live().version})
        assert response.status_code == 403, path
        assert "played on the tablet" in response.text, path
    assert snapshot(app) == before
    # A device that never held the seat claims nothing either.
    other = app.test_client()
    assert other.get(link).status_code == 403
    assert mixed_table.live().seats[1].device is not None and snapshot(app) == before


def test_no_phone_then_a_phone_again_gives_the_old_phone_back(app: Flask):
    mixed_table = seated_table(app, ["Ann", "Dan"])
    assert mixed_table.post("/seat/1/tracked", {"tracked": "0"}).status_code == 200
    assert "played on the tablet" in mixed_table.phones["Dan"].get(mixed_table.link("Dan")).text
    assert mixed_table.post("/seat/1/tracked", {"tracked": "1"}).status_code == 200
    page = mixed_table.phones["Dan"].get(mixed_table.link("Dan")).text
    assert "played on the tablet" not in page
    assert mixed_table.enter_hand("Dan", ["duke", "captain"]).status_code == 200


def test_the_old_phone_of_a_seat_set_to_no_phone_reads_its_language(app: Flask):
    """At a Russian table, Dan's old phone is refused its taps in Russian, as its page reads;
    once Dan chose Ukrainian on his phone, in Ukrainian."""
    mixed_table = seated_table(app, ["Ann", "Dan"], language="ru")
    dan, link = mixed_table.phones["Dan"], mixed_table.link("Dan")
    for on_tablet in ("Теперь за это место играют на планшете",
                      "Тепер за це місце грають на планшеті"):
        csrf = csrf_of(dan.get(link).text)  # the form token the phone held before
        assert mixed_table.post("/seat/1/tracked", {"tracked": "0"}).status_code == 200
        assert on_tablet in dan.get(link).text
        for path, data in (("/hand", {"card1": "duke", "card2": "duke"}),
                           ("/language", {"language": "ja"})):
            response = dan.post(link + path, data={**data, "csrf": csrf})
            assert response.status_code == 403, path
            assert on_tablet in response.text and "played on the tablet" not in response.text
        assert mixed_table.post("/seat/1/tracked", {"tracked": "1"}).status_code == 200
        assert mixed_table.phone_post("Dan", "/language", {"language": "uk"}).status_code == 200
    seats = app.extensions["tables"].seats
    assert seats.language_of(link.rsplit("/", 1)[1]) == "uk"
    assert seats.language_of("no-such-seat-link-at-all-here") is None
