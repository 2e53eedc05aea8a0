"""The referee's screen put together in Python (app/web/tabletframe.py) is byte for byte what
tablet/_tablet.html draws, at every step of random games (challenges, blocks, exchanges, a
seat with no phone, the winner's screen, another language), and the template still draws
every case the frame leaves to it."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask, g, render_template
from markupsafe import Markup
from playkit import played
from tablekit import started_table

from app.web import tablet, tabletframe
from app.web.fragments import CSRF_SLOT
from app.web.tabletframe import frame, remembered


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_frame_draws_what_the_template_draws(tmp_path: Path, seed: int):
    framed = won = 0
    for table in played(tmp_path, seed):
        state = table.live()
        with table.app.test_request_context():
            for language in (state.table.language, "ja"):
                g.language = language
                view = tablet.context(state, csrf=CSRF_SLOT)
                drawn = frame(view)
                assert drawn is not None
                assert drawn == render_template("tablet/_tablet.html", **view)
                framed += 1
                won += bool(view["view"]["winner"])
    assert framed > 50 and won  # the turns and the winner's screen were compared


def test_unusual_screens_are_the_templates(tmp_path: Path):
    table = next(played(tmp_path, 0))
    state = table.live()
    with table.app.test_request_context():
        g.language = "en"
        usual = tablet.context(state, csrf=CSRF_SLOT)
        assert frame(usual) is not None
        for unusual in ({"message": "Hello"}, {"lobby": True}, {"countdown": object()}):
            assert frame({**usual, **unusual}) is None, unusual
        lobby = {key: value for key, value in usual.items() if key != "view"}
        assert frame(lobby) is None


def test_the_frame_draws_the_reformations_bank(app: Flask):
    """Reformation's Treasury Reserve and factions, and a name that must be escaped."""
    table = started_table(app, {"Ann": ["duke", "captain"], "<b>Bo</b>": ["contessa", "duke"],
                                "Cy": ["assassin", "captain"]}, reformation="true")
    for step in ({"do": "income", "by": "Ann"}, {"do": "embezzle", "by": "<b>Bo</b>"}):
        table.step(**step)
        state = table.live()
        with table.app.test_request_context():
            g.language = "en"
            view = tablet.context(state, csrf=CSRF_SLOT)
            drawn = frame(view)
            assert drawn is not None and "Treasury Reserve" in drawn
            assert "<b>Bo</b>" not in drawn
            assert drawn == render_template("tablet/_tablet.html", **view)


def test_a_remembered_part_is_drawn_once_for_what_it_shows(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(tabletframe, "_parts", OrderedDict())
    drawn: list[str] = []

    def part(text: str) -> Callable[[], str]:
        def caller() -> str:
            drawn.append(text)
            return text
        return caller

    assert remembered("Ann", ["Bob", "Cy"], None, caller=part("<a>")) == Markup("<a>")
    assert remembered("Ann", ["Bob", "Cy"], None, caller=part("<b>")) == "<a>"
    assert remembered("Ann", ["Bob"], None, caller=part("<c>")) == "<c>"  # a target less
    # Text and trusted markup that read alike draw differently: they are not one key.
    assert remembered("Ann", ["Bob"], Markup("a&amp;b"), caller=part("<d>")) == "<d>"
    assert remembered("Ann", ["Bob"], "a&amp;b", caller=part("<e>")) == "<e>"
    assert drawn == ["<a>", "<c>", "<d>", "<e>"]
    for number in range(tabletframe.PARTS_KEPT + 5):
        remembered(number, caller=part(""))
    assert len(tabletframe._parts) == tabletframe.PARTS_KEPT
