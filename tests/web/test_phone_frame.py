"""A seat's screen put together in Python (app/web/phoneframe.py) is byte for byte what
phone/_phone.html draws, at every step of random games (challenges, blocks, exchanges, a
seat with no phone, a phone in another language, the winner's screen), and the template
still draws every case the frame leaves to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import g, render_template
from playkit import played

from app.web import nightviews, phone
from app.web.fragments import CSRF_SLOT
from app.web.phoneframe import frame
from app.web.screens import tables


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_frame_draws_what_the_template_draws(tmp_path: Path, seed: int):
    framed = left = 0
    for table in played(tmp_path, seed):
        state = table.live()
        with table.app.test_request_context():
            for number, seat in enumerate(state.seats):
                g.language = "ru" if number == 1 else state.table.language
                extras = nightviews.phone_extras(state, seat, lambda: tables().now().timestamp())
                for message in (None, "Out of date") if number == 0 else (None,):
                    view = phone.context(state, seat, message, CSRF_SLOT, extras)
                    drawn = frame(view)
                    if drawn is None:
                        left += 1
                        continue
                    framed += 1
                    assert drawn == render_template("phone/_phone.html", **view), seat.name
    assert framed > 50 and left > 50  # both paths were compared or taken


def test_unusual_screens_are_the_templates(tmp_path: Path):
    table = next(played(tmp_path, 0))
    state = table.live()
    seat = state.seats[0]
    with table.app.test_request_context():
        g.language = "en"
        extras = nightviews.phone_extras(state, seat, lambda: 0.0)
        usual = phone.context(state, seat, None, CSRF_SLOT, extras)
        assert frame(usual) is not None
        for unusual in ({"message": "Hello"}, {"on_tablet": True}, {"lobby": True},
                        {"countdown": object()}, {"night_shown": True}, {"game_over": True},
                        {"view": {**usual["view"], "winner": "Ann"}}):
            assert frame({**usual, **unusual}) is None, unusual
