"""What a phone offers its own player (issue 13): the exchange as one choice or several, the
cards just drawn marked, the singular for one card, a player's mistakes in the second person, a
disabled button that says why, a saved hand not shown ticked, and folds kept through updates."""

from __future__ import annotations

import re

from flask import Flask
from pagekit import alert
from tablekit import Table, started_table
from whokit import bobs_tax_challenged


def test_the_exchange_of_one_card_is_a_single_choice(app: Flask):
    t = started_table(app, {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]})
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    t.phone_step("Ann", do="draw", cards=["duke", "contessa"])
    html = t.phone_page("Ann")
    assert 'type="checkbox" name="cards"' in html  # two cards kept: tick each
    assert 'data-keep="keep-' in html


def test_the_exchange_of_a_last_card_is_a_single_choice(app: Flask):
    t = bobs_tax_challenged(app)
    assert t.phone_step("Bob", do="prove").status_code == 200
    assert t.phone_step("Bob", do="draw", cards="duke").status_code == 200
    assert t.phone_step("Ann", do="lose", card="captain").status_code == 200
    t.step(do="income", by="Cy")
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    assert t.phone_step("Ann", do="draw", cards=["contessa", "captain"]).status_code == 200
    html = t.phone_page("Ann")
    assert html.count('type="radio" name="cards"') == 3 and 'type="checkbox"' not in html


def test_the_exchange_marks_the_cards_drawn(app: Flask):
    t = started_table(app, {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"]})
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    assert t.phone_step("Ann", do="draw", cards=["captain", "contessa"]).status_code == 200
    html = t.phone_page("Ann")
    labels = re.findall(r'<label class="choice">.*?</label>', html, re.S)
    marked = ["drawn</small>" in label for label in labels]
    assert marked == [False, False, True, True]
    assert 'value="captain"' in labels[2] and 'value="contessa"' in labels[3]


def test_one_card_to_keep_or_enter_is_said_in_the_singular(app: Flask):
    t = bobs_tax_challenged(app)
    assert t.phone_step("Bob", do="prove").status_code == 200
    assert "Enter below the card you drew." in alert(t.phone_page("Bob"))
    assert t.phone_step("Bob", do="draw", cards="duke").status_code == 200
    assert t.phone_step("Ann", do="lose", card="captain").status_code == 200
    t.step(do="income", by="Cy")
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    assert "Enter below the cards you drew." in alert(t.phone_page("Ann"))
    assert t.phone_step("Ann", do="draw", cards=["contessa", "captain"]).status_code == 200
    html = t.phone_page("Ann")
    assert "Choose below the card you keep." in alert(html)
    assert "Keep this one" in html and "Keep these" not in html


def test_a_phone_hears_its_own_mistakes_in_the_second_person(app: Flask):
    t = started_table(app, {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]})
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    response = t.phone_step("Ann", do="draw", cards=["duke"])
    assert response.status_code == 422
    assert "Enter 2 cards drawn, not 1." in response.text
    t.phone_step("Ann", do="draw", cards=["duke", "contessa"])
    response = t.phone_step("Ann", do="keep", cards=["duke"])
    assert "Keep 2 cards, not 1." in response.text and "Ann keeps" not in response.text
    response = t.phone_step("Ann", do="keep", cards=["captain", "duke"])
    assert "You can only keep cards from your hand and the cards drawn." in response.text
    # The tablet still says whose cards (it speaks for everyone).
    t.step(do="income", by="Ann")  # refused: the exchange is under way
    assert t.steps()[-1] == {"do": "draw", "by": "Ann", "cards": ["duke", "contessa"]}


def test_a_disabled_give_back_says_why(app: Flask):
    t = started_table(app, {"Ann": ["inquisitor", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]},
                      exchanger="inquisitor", examine_swap="mandatory")
    t.step(do="examine", by="Ann", target="Bob")
    t.step(do="pass")
    t.phone_step("Bob", do="show", card="contessa")
    html = t.phone_page("Ann")
    assert "a card shown is always replaced, never given back" in html


def test_a_saved_hand_is_not_shown_ticked_in_the_lobby(table: Table):
    table.enter_hand("Ann", ["duke", "captain"])
    html = table.phone_page("Ann")
    assert "checked" not in html


def test_the_examination_folds_are_kept_through_updates(app: Flask):
    """The examined player's "Tap to choose" and the examiner's "Tap to see it" carry a key
    naming the question, so a live update (or a reload) keeps them open."""
    t = started_table(app, {"Ann": ["inquisitor", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]}, exchanger="inquisitor")
    t.step(do="examine", by="Ann", target="Bob")
    t.step(do="pass")
    assert re.search(r'<details class="secret" data-keep="show-open-\d+">', t.phone_page("Bob"))
    t.phone_step("Bob", do="show", card="contessa")
    assert re.search(r'<details class="secret" data-keep="seen-open-\d+">', t.phone_page("Ann"))


def test_the_challenged_player_s_options_fold_is_kept_through_updates(app: Flask):
    """Bob's "Tap to see your options" (show the card or concede) stays open through another
    seat's update, as every other fold a phone may hold open does."""
    t = bobs_tax_challenged(app)
    fold = r'<details class="secret" data-keep="prove-open-\d+-duke">'
    assert re.search(fold, t.phone_page("Bob"))
