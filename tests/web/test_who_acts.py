"""The table always knows who must act (issue 13): the seats the table waits for are marked,
the phone asked says "It's you" in the second person, a targeted player is told who aims at
them and what they may do, and the waiting line speaks to the phone it waits for."""

from __future__ import annotations

import re

from flask import Flask
from pagekit import alert
from tablekit import Table, started_table


def seat_classes(html: str, name: str) -> str:
    found = re.search(r'<li class="seat ([^"]*)">\s*<h2><span class="who[^"]*">' + name + r"\b",
                      html)
    assert found, name
    return found.group(1)


def test_the_seats_the_table_waits_for_are_marked(started: Table):
    t = started
    html = t.page()
    assert "acting" in seat_classes(html, "Ann") and "acting" not in seat_classes(html, "Bob")
    t.step(do="steal", by="Ann", target="Bob")
    html = t.page()
    # Anyone may challenge the Captain: Bob and Cy, not Ann.
    assert "acting" not in seat_classes(html, "Ann")
    assert "acting" in seat_classes(html, "Bob") and "acting" in seat_classes(html, "Cy")
    # Bob, the target, must answer (gold, as his phone); Cy may challenge (blue); the badges
    # speak of them, not to them: the tablet is public.
    assert "must" in seat_classes(html, "Bob").split()
    assert "may" in seat_classes(html, "Cy").split()
    assert html.count("Must answer") == 1 and html.count("May challenge") == 1
    assert "Your move" not in html
    # Ann's turn still shows, by its own quieter mark, not by gold.
    assert "current" in seat_classes(html, "Ann") and "must" not in seat_classes(html, "Ann")
    # The waiting line comes first in the prompt region, above the claim.
    prompt = html[html.index('<section id="prompt"'):]
    assert prompt.index('class="waiting"') < prompt.index('class="claim"')


def test_the_targeted_phone_says_who_aims_at_them_and_what_they_may_do(started: Table):
    t = started
    t.step(do="steal", by="Ann", target="Bob")
    bob = alert(t.phone_page("Bob"))
    assert "It’s you" in bob and "data-buzz" in bob
    assert "Ann targets you with the Steal." in bob
    assert "You may challenge Ann’s Captain." in bob
    cy = alert(t.phone_page("Cy"))
    assert "It’s you" not in cy and "data-buzz" not in cy and "targets you" not in cy
    assert "You may challenge Ann’s Captain." in cy
    t.step(do="pass")  # nobody challenges: Bob may block
    bob = alert(t.phone_page("Bob"))
    assert "You may block it by claiming the Captain / Ambassador." in bob
    assert "It’s you" in bob


def test_the_blocked_players_phone_says_who_blocks_what(started: Table):
    """Ann's Foreign Aid is blocked by Bob: her phone says so in the second person before
    "you may challenge", in every language; Cy's phone keeps only the challenge."""
    t = started
    t.step(do="foreign_aid", by="Ann")
    t.step(do="block", by="Bob", **{"as": "duke"})
    ann = alert(t.phone_page("Ann"))
    said = "Bob blocks your Foreign Aid, claiming the Duke."
    assert said in ann and ann.index(said) < ann.index("You may challenge Bob’s Duke.")
    assert "It’s you" not in ann  # others may challenge too: blue, no buzz
    cy = alert(t.phone_page("Cy"))
    assert "blocks your" not in cy and "You may challenge Bob’s Duke." in cy
    for language, line in {"ru": "блокирует ваше", "uk": "блокує вашу", "pt-BR": "sua ação",
                           "ja": "あなたの"}.items():
        assert t.phone_post("Ann", "/language", {"language": language}).status_code == 200
        assert line in alert(t.phone_page("Ann")), language


def test_the_phone_whose_turn_it_is_is_told(started: Table):
    ann = alert(started.phone_page("Ann"))
    assert "It’s you" in ann and "<h2>Your turn.</h2>" in ann
    assert "hidden" in alert(started.phone_page("Bob")).split(">")[0]


def test_a_private_step_alerts_its_phone(started: Table):
    t = started
    t.step(do="tax", by="Ann")
    t.step(do="challenge", by="Bob")
    ann = alert(t.phone_page("Ann"))
    assert "It’s you" in ann and "data-buzz" in ann


def waiting_line(html: str) -> str:
    found = re.search(r'<p class="waiting">(.*?)</p>', html, re.S)
    assert found
    return found.group(1)


def test_the_waiting_line_speaks_to_the_phone_it_waits_for(started: Table):
    """On its own phone the waiting line says "you", never the owner's name; the others' phones
    and the tablet keep the names."""
    t = started
    assert waiting_line(t.phone_page("Ann")) == "Declare an action."
    assert waiting_line(t.phone_page("Bob")) == "Waiting for Ann to declare an action."
    t.step(do="steal", by="Ann", target="Bob")
    to_challenge = "to challenge or let it stand."
    assert waiting_line(t.phone_page("Bob")) == f"Waiting for you and Cy {to_challenge}"
    assert waiting_line(t.phone_page("Cy")) == f"Waiting for you and Bob {to_challenge}"
    assert waiting_line(t.phone_page("Ann")) == "Waiting for Bob, Cy to challenge or let it stand."
    t.step(do="pass")
    assert waiting_line(t.phone_page("Bob")) == "You may block or let it stand."
    assert "Waiting for Bob to block or let it stand." in t.page()


def test_with_several_others_you_come_first_in_the_list(app: Flask):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
                            "Cid": ["ambassador", "duke"], "Dee": ["captain", "contessa"]})
    t.step(do="tax", by="Ann")
    assert (waiting_line(t.phone_page("Bob"))
            == "Waiting for you, Cid, Dee to challenge or let it stand.")
    assert "Waiting for Bob, Cid, Dee to challenge or let it stand." in t.page()


def test_the_waiting_line_to_you_reads_in_every_language(started: Table):
    t = started
    t.step(do="steal", by="Ann", target="Bob")
    t.step(do="pass")
    for language, line in {"ru": "Вы можете", "uk": "Ви можете", "pt-BR": "Você pode",
                           "ja": "あなた"}.items():
        assert t.phone_post("Bob", "/language", {"language": language}).status_code == 200
        html = t.phone_page("Bob")
        assert line in waiting_line(html) and "Bob" not in waiting_line(html), language


def test_an_examine_marks_the_examined_seat_gold_and_the_examiner_by_its_turn(app: Flask):
    """Ann's Inquisitor examines Bob: the table waits for Bob alone (he picks a card), so his
    seat is gold and says what he must do, "Must show a card" (not "Must act", a turn's
    words); Ann's seat has only the turn's mark."""
    t = started_table(app, {"Ann": ["inquisitor", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]}, exchanger="inquisitor")
    t.step(do="examine", by="Ann", target="Bob")
    t.step(do="pass")
    html = t.page()
    assert "must" in seat_classes(html, "Bob").split()
    ann = seat_classes(html, "Ann").split()
    assert "current" in ann and "must" not in ann and "may" not in ann
    assert "acting" not in seat_classes(html, "Cy")
    assert html.count("Must show a card") == 1 and "Must act" not in html


def test_a_block_window_waiting_for_the_target_alone_marks_only_the_target(started: Table):
    """Ann steals from Bob, nobody challenges: only Bob may block, and the table waits for him
    (gold, "Must answer"), not for Ann, whose turn it is."""
    t = started
    t.step(do="steal", by="Ann", target="Bob")
    t.step(do="pass")
    html = t.page()
    assert "must" in seat_classes(html, "Bob").split()
    assert "Must answer" in html and "May block" not in html
    assert "must" not in seat_classes(html, "Ann") and "acting" not in seat_classes(html, "Cy")


def test_a_block_window_open_to_all_says_may_block(started: Table):
    t = started
    t.step(do="foreign_aid", by="Ann")
    html = t.page()
    assert "may" in seat_classes(html, "Bob").split() and "may" in seat_classes(html, "Cy").split()
    assert html.count("May block") == 2
    assert "Must" not in html.split('id="seats"')[1].split("</ol>")[0]
