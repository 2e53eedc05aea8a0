"""Players may answer the table's questions on their own phones where the table allows it
(issue 13): each phone only for its own seat and in turn, two answers to one question apply once,
and a tablet-only table keeps the phones to their private steps."""

from __future__ import annotations

from flask import Flask
from tablekit import Table, csrf_of, started_table
from whokit import HANDS


def test_a_phone_answers_for_its_own_seat_when_the_table_allows(started: Table):
    t = started
    ann = t.phone_page("Ann")
    assert 'name="do" value="income"' in ann  # Ann declares from her phone
    assert t.phone_step("Ann", do="steal", target="Bob").status_code == 200
    assert 'name="do" value="challenge"' in t.phone_page("Cy")
    assert t.phone_step("Cy", do="pass").status_code == 200  # Cy lets it stand for himself
    assert t.phone_step("Bob", do="pass").status_code == 200  # the last one: no challenge
    bob = t.phone_page("Bob")
    assert 'name="do" value="block"' in bob
    assert t.phone_step("Bob", do="block", **{"as": "captain"}).status_code == 200
    assert t.steps()[-1] == {"do": "block", "by": "Bob", "as": "captain"}


def test_two_answers_to_one_question_apply_once(started: Table):
    t = started
    t.step(do="tax", by="Ann")
    v = t.version()
    bob = t.phone_step("Bob", version=v, do="challenge")
    tablet = t.post("/step", {"do": "pass"}, version=v)
    assert (bob.status_code, tablet.status_code) == (200, 409)
    assert t.steps()[-1] == {"do": "challenge", "by": "Bob"}


def test_e4_two_players_letting_it_stand_at_once_both_count(started: Table):
    """An outside tester's two phones tapped "let it stand" 40 ms apart, and the second was
    refused as out of date. A pass binds the window it was made in (E-4) and another player's
    pass changes nothing it was asked: both count, and the last one closes the window."""
    t = started
    t.step(do="tax", by="Ann")
    v = t.version()
    assert t.phone_step("Bob", version=v, do="pass").status_code == 200
    assert t.phone_step("Cy", version=v, do="pass").status_code == 200
    assert t.steps()[-2:] == [{"do": "pass", "by": "Bob"}, {"do": "pass", "by": "Cy"}]
    assert "Ann takes 3 coins" in t.page()  # nobody challenged: the Tax goes ahead


def test_e4_a_pass_drawn_before_a_challenge_or_its_own_pass_is_out_of_date(started: Table):
    """Only other players' passes in the same window leave a pass in date: after a challenge
    it is refused as before, and so is a player's own second tap of "let it stand"."""
    t = started
    t.step(do="tax", by="Ann")
    v = t.version()
    assert t.phone_step("Bob", version=v, do="pass").status_code == 200
    assert t.phone_step("Bob", version=v, do="pass").status_code == 409  # a double tap
    w = t.version()
    assert t.phone_step("Cy", version=w, do="challenge").status_code == 200
    assert t.phone_step("Cy", version=v, do="pass").status_code == 409
    assert t.steps()[-2:] == [{"do": "pass", "by": "Bob"}, {"do": "challenge", "by": "Cy"}]


def test_a_phone_cannot_answer_for_another_seat_or_out_of_turn(started: Table):
    t = started
    for data in ({"do": "income"}, {"do": "pass"}, {"do": "challenge"},
                 {"do": "block", "as": "duke"}):
        response = t.phone_step("Bob", **data)
        assert response.status_code == 422, data
    assert t.steps() == []


def test_a_tablet_only_table_keeps_the_phones_to_their_private_steps(app: Flask):
    t = started_table(app, HANDS, answers="tablet")
    ann = t.phone_page("Ann")
    assert 'name="do" value="income"' not in ann
    assert "Say it at the table" in ann
    assert t.phone_step("Ann", do="income").status_code == 422
    assert t.step(do="income", by="Ann").status_code == 200


def test_an_unknown_answers_choice_is_refused(client):
    home = client.get("/").text
    response = client.post("/tables", data={"csrf": csrf_of(home), "players": "A\nB",
                                            "answers": "everyone"})
    assert response.status_code == 422
    assert "Unknown choice of who answers." in response.text
