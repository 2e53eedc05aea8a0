"""A region's key is checked for functions where the region is drawn, not at each look-up
(app/web/regions.py Region.keyable): a region that reads a function still fails the first
time it is placed, and every time after (nothing is kept for it). A screen put together in
Python places its regions as strings (Placed.html), the same bytes a template gets as markup."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import current_app, g
from markupsafe import Markup
from playkit import played

from app.web import tablet
from app.web.fragments import CSRF_SLOT
from app.web.regions import MADE_BY, SPOKEN_IN, Placed, Region, reads
from app.web.screenregions import TABLET


def test_a_region_reading_a_function_fails_each_time_it_is_placed(tmp_path: Path) -> None:
    table = next(played(tmp_path, 0))
    state = table.live()
    with table.app.test_request_context():
        g.language = "en"
        view = tablet.context(state, csrf=CSRF_SLOT)
        tools = Region("tablet/_tools.html")
        name = next(name for name in reads(current_app.jinja_env, tools.template)
                    if name not in MADE_BY and name != SPOKEN_IN and name in view)
        for function in (len, lambda: None):  # the same one each time, and a new one
            placed = Placed({"tools": tools}, state.table.id, "tablet", state.version,
                            CSRF_SLOT, {**view, name: function})
            for _ in range(2):
                with pytest.raises(TypeError, match=f"reads {name}, a function"):
                    placed.html("tools")
                with pytest.raises(TypeError, match=f"reads {name}, a function"):
                    placed.place("tools")
        placed = Placed({"tools": tools}, state.table.id, "tablet", state.version, CSRF_SLOT,
                        view)
        assert placed.html("tools")  # the same region with its values is drawn


@pytest.mark.parametrize("seed", [0, 1])
def test_a_region_as_a_string_is_the_markup_a_template_places(tmp_path: Path,
                                                              seed: int) -> None:
    compared = 0
    for table in played(tmp_path, seed):
        state = table.live()
        with table.app.test_request_context():
            g.language = state.table.language
            for csrf in (CSRF_SLOT, "token"):
                view = tablet.context(state, csrf=csrf)
                if "view" not in view:
                    continue
                for name in ("tools", "undo", "prompt", "log", "night tools", "spoken"):
                    as_markup = view["place"](name)
                    assert isinstance(as_markup, Markup)
                    assert view["place_html"](name) == str(as_markup)
                    compared += 1
                player = view["view"]["players"][0]
                seat = {"p": player, "call": None, "won": False}
                assert view["place_html"]("seat row", player["name"], **seat) == \
                    str(view["place"]("seat row", player["name"], **seat))
    assert compared > 100 and set(TABLET) == {"tools", "undo", "seat row", "prompt", "log",
                                              "night tools", "spoken"}
