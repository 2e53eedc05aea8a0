"""Polish found by a picky player after issue 13: a phone speaks to its own player as "you",
the undo asks about the ruling it takes back, a refusal is shown where it was asked, and the
English catalogue keeps to typographic apostrophes."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po
from flask import Flask
from pagekit import alert
from tablekit import Table, started_table

from app.engine.rulings import Ruling
from app.web import words

POT = Path(__file__).resolve().parents[2] / "app" / "translations" / "messages.pot"
HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"]}


def costs(html: str) -> str:
    found = re.search(r'<ul class="costs">(.*?)</ul>', html, re.S)
    assert found, "no costs on this screen"
    return found.group(1)


# -- the player's own phone says "you" --------------------------------------------------------


def test_a_challengers_risk_is_in_the_second_person_on_their_phone(started: Table):
    t = started
    t.step(do="steal", by="Ann", target="Bob")
    for name in ("Bob", "Cy"):
        html = t.phone_page(name)
        assert "If Ann shows the Captain, you lose an influence." in html
        assert f"{name} loses an influence" not in html


def test_the_challenged_players_costs_are_in_the_second_person(started: Table):
    t = started
    t.step(do="steal", by="Ann", target="Bob")
    t.step(do="challenge", by="Bob")
    lines = costs(t.phone_page("Ann"))
    assert "Show the Captain: Bob loses an influence and you draw a new card." in lines
    assert "Concede: you lose an influence and the Steal is cancelled." in lines
    assert "Ann" not in lines


def test_a_targets_costs_say_you_are_out(app: Flask):
    t = started_table(app, {"Ann": ["assassin", "duke"], "Bob": ["contessa", "captain"]})
    for _ in range(2):  # Ann to 3 coins (a two-player game starts her with 1)
        assert t.step(do="income", by="Ann").status_code == 200
        assert t.step(do="income", by="Bob").status_code == 200
    t.step(do="assassinate", by="Ann", target="Bob")
    t.step(do="pass")  # nobody challenges the Assassin
    t.step(do="block", by="Bob", **{"as": "contessa"})
    t.step(do="challenge", by="Ann")
    bob = costs(t.phone_page("Bob"))
    assert "Show the Contessa: Ann loses an influence and you draw a new card." in bob
    assert ("Concede: you lose an influence, then the Assassinate takes the other one: you are "
            "out.") in bob


def test_the_tablet_keeps_the_third_person(app: Flask):
    t = started_table(app, {"Ann": None, "Bob": ["contessa", "captain"]})
    t.step(do="tax", by="Ann")
    t.step(do="challenge", by="Bob")
    lines = costs(t.page())
    assert "Show the Duke: Bob loses an influence and Ann draws a new card." in lines
    assert "Concede: Ann loses an influence and the Tax is cancelled." in lines
    assert "you" not in lines


def test_only_the_named_player_is_spoken_to():
    line = Ruling("If %(claimant)s shows the %(card)s, %(name)s loses an influence.",
                  {"claimant": "Ann", "card": "captain", "name": "Bob"})
    assert words.to_you(line, "Cy") is line
    mine = words.to_you(line, "Bob")
    assert mine.text == "If %(claimant)s shows the %(card)s, you lose an influence."
    assert words.to_you(line, "Bob").params == line.params


def test_every_second_person_line_answers_a_line_of_the_engine():
    """The table is keyed by the engine's English: a renamed engine line must be renamed here."""
    with open(POT, encoding="utf-8") as catalogue:
        engine = {m.id for m in read_po(catalogue) if isinstance(m.id, str)}
    missing = [key for key in words.YOURS if key not in engine]
    assert not missing, missing


# -- the undo names the ruling it takes back --------------------------------------------------


def undo_question(html: str) -> str:
    forms = re.findall(r'action="[^"]*/undo"[^>]*hx-confirm="([^"]*)"', html)
    assert len(forms) == 1, "no undo question"
    return forms[0]


def test_the_undo_asks_about_the_rulings_it_takes_back(started: Table):
    t = started
    t.step(do="income", by="Ann")
    assert undo_question(t.page()) == ("Undo the last step (“Ann takes 1 coin (Income)”)? Every "
                                       "screen will be told.")
    t.step(do="steal", by="Bob", target="Ann")
    t.step(do="pass")
    t.step(do="pass")  # one step, two rulings: both are named
    assert undo_question(t.page()) == ("Undo the last step (“Nobody blocks. Bob steals 2 coins "
                                       "from Ann”)? Every screen will be told.")
    assert t.post("/undo", {}).status_code == 200
    # After an undo, the question is about the step that is now the last.
    assert undo_question(t.page()) == ("Undo the last step (“Nobody challenges”)? Every screen "
                                       "will be told.")


# -- the acting phone's gold headline says what to do now --------------------------------------


def test_the_gold_headline_names_each_private_step(started: Table):
    t = started
    t.step(do="steal", by="Ann", target="Bob")
    t.step(do="challenge", by="Bob")
    ann = alert(t.phone_page("Ann"))
    assert "It’s you" in ann and "You were challenged: answer below." in ann
    t.phone_step("Ann", do="prove")
    # Bob lost the challenge: what his phone must do now is lose a card, not answer the Steal.
    bob = alert(t.phone_page("Bob"))
    assert "It’s you" in bob and "Choose below the card you lose." in bob
    assert "targets you" not in bob
    ann = alert(t.phone_page("Ann"))
    assert "It’s you" in ann and "Enter below the card you drew." in ann


def test_the_gold_headline_goes_when_the_step_is_done(started: Table):
    t = started
    t.step(do="tax", by="Ann")
    t.step(do="challenge", by="Bob")
    t.phone_step("Ann", do="concede")
    ann = alert(t.phone_page("Ann"))
    assert "You were challenged" not in ann
    assert "Choose below the card you lose." in ann  # a concession costs a card: the next step
    t.phone_step("Ann", do="lose", card="duke")
    ann = alert(t.phone_page("Ann"))
    assert 'class="alert must"' not in ann and "It’s you" not in ann
    assert "<h2>" not in ann


def test_the_gold_headline_for_an_exchange(app: Flask):
    t = started_table(app, {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"]})
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    assert "Enter below the cards you drew." in alert(t.phone_page("Ann"))
    t.phone_step("Ann", do="draw", cards=["captain", "captain"])
    assert "Choose below the cards you keep." in alert(t.phone_page("Ann"))
