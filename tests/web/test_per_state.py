"""What a state gives the screens is worked out once per state (and language), for the
version's six phones alike (app/web/perstate.py): the phones' shared parts split into rows,
the night's part of every phone's screen."""

from __future__ import annotations

from flask import Flask, g
from tablekit import Table, view

from app.web.nightviews import phone_extras
from app.web.perstate import PerState
from app.web.phoneparts import phone_parts
from app.web.regions import Placed


def test_worked_out_once_per_state_and_language_and_only_for_the_newest_states(app: Flask,
                                                                               started: Table):
    asked: list[int] = []
    per_state = PerState(lambda state: asked.append(state.version) or len(asked), spoken=True,
                         size=2)
    first = started.live()
    assert started.step(by="Ann", do="income").status_code == 200
    second = started.live()
    with app.test_request_context():
        g.language = "en"
        assert per_state(first) == per_state(first) == 1  # once for the state...
        g.language = "ru"
        assert per_state(first) == 2  # ...in each language
        assert per_state(second) == 3 and per_state(first) == 2
        g.language = "en"
        assert per_state(first) == 4  # forgotten: only the newest 2 are kept
    assert asked == [first.version, first.version, second.version, first.version]


def test_a_states_phone_parts_are_one_object_for_every_seat_but_new_for_each_state(
        app: Flask, started: Table):
    state = started.live()
    with app.test_request_context():
        g.language = "en"
        parts = phone_parts(state)
        assert phone_parts(state) is parts
        g.language = "uk"
        assert phone_parts(state) is not parts and phone_parts(state).rows != parts.rows
    assert started.step(by="Ann", do="income").status_code == 200
    with app.test_request_context():
        g.language = "en"
        newer = phone_parts(started.live())
    assert newer is not parts and newer.rows != parts.rows  # Ann's coins


def test_a_phones_night_part_and_its_key_are_each_seats_own_countdown(app: Flask,
                                                                      started: Table):
    state = started.live()
    ann, bob = (state.seat_with_token(started.tokens[n]) for n in ("Ann", "Bob"))
    assert ann is not None and bob is not None
    with app.test_request_context():
        extras = phone_extras(state, ann, lambda: 0.0)
        assert extras == phone_extras(state, bob, lambda: 0.0) and extras["countdown"] is None


def test_an_idle_seats_alert_is_not_drawn_again_for_a_buzz_it_does_not_give(started: Table,
                                                                             monkeypatch):
    """The buzz's key is new with each question; a seat the table does not wait for shows no
    buzz, so its alert is kept while nothing else it shows changes."""
    drawn: list[str] = []
    draw = Placed.draw
    monkeypatch.setattr(Placed, "draw", lambda self, region, scope:
                        drawn.append(region.template) or draw(self, region, scope))
    view(started.phone("Cy"), started.link("Cy"))
    assert started.step(by="Ann", do="income").status_code == 200  # Bob's turn: Cy idle
    drawn.clear()
    cy = view(started.phone("Cy"), started.link("Cy"))
    assert "phone/_alert.html" not in drawn and "data-buzz" not in cy
    bob = view(started.phone("Bob"), started.link("Bob"))
    assert "phone/_alert.html" in drawn and "data-buzz" in bob  # Bob's turn: his phone buzzes
