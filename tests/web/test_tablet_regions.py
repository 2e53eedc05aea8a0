"""Three regions of the referee's screen drawn in Python (app/web/tabletregions.py: the rulings
to read aloud, the log, the undo) are byte for byte what their partials draw: at every step of
random games (challenges, blocks, exchanges, a seat with no phone, the winner) in every
language, and in the cases those games don't reach (a ruling the timer decided, a closed game,
an empty log, words that must be escaped)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask, current_app, g, render_template
from playkit import played
from tablekit import Table, started_table

from app.engine import Ruling
from app.i18n import LANGUAGES, Voice
from app.web import tablet, tabletframe
from app.web.fragments import CSRF_SLOT, VERSION_SLOT
from app.web.loglines import RULES_SLOT, line_html
from app.web.screenregions import TABLET
from app.web.state import TableState
from app.web.views import LogLine

IN_PYTHON = ("spoken", "log", "undo", "prompt")


def both(name: str, view: dict[str, Any]) -> tuple[str, str]:
    """The region ``name`` from its scope, in Python and by its partial (as regions.py draws
    it: the slots in its forms)."""
    region = TABLET[name]
    assert region.python is not None, name
    env = current_app.jinja_env
    scope = region.scope(env, view)
    tabletframe._parts.clear()  # the prompt's buttons: each side draws its own
    python = region.python(scope)
    tabletframe._parts.clear()
    partial = env.get_template(region.template).render(scope, csrf=CSRF_SLOT,
                                                       version=VERSION_SLOT)
    return python, partial


def compare(state: TableState, view_changes: dict[str, Any] | None = None) -> int:
    compared = 0
    for code in LANGUAGES:
        g.language = code
        view = {**tablet.context(state, csrf=CSRF_SLOT), **(view_changes or {})}
        for name in IN_PYTHON:
            python, partial = both(name, view)
            assert python == partial, (name, code, state.version)
            compared += 1
        compared += compare_seats(view)
    return compared


def compare_seats(view: dict[str, Any], **changes: Any) -> int:
    """Each seat's row, as tablet/_seats.html places it (its player, call and whether it won)."""
    v, calls = view["view"], view["calls"]
    for p in v["players"]:
        seat = {**view, "p": {**p, **changes}, "call": calls.get(p["name"]),
                "won": p["name"] == v["winner"]}
        python, partial = both("seat row", seat)
        assert python == partial, (p["name"], changes)
    return len(v["players"])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_regions_are_their_partials_at_every_step_in_every_language(tmp_path: Path,
                                                                        seed: int):
    compared = long_logs = 0
    for table in played(tmp_path, seed):
        state = table.live()
        if state.game is None or state.lobby:
            continue
        with table.app.test_request_context():
            compared += compare(state)
            long_logs += len(tablet.context(state)["log"]) == 30
    assert compared > 500 and long_logs  # past 30 rulings, the log links to the whole game


NASTY = '<b>Ann & "Bo"</b>\''


def test_the_cases_random_games_miss_and_what_must_be_escaped(app: Flask, started: Table):
    started.step(by="Ann", do="income")
    state = started.live()
    said = Ruling("%(name)s takes Income.", {"name": NASTY}, rule="E-20")
    timed = [LogLine(2, said, time_up=True), LogLine(undone=NASTY), LogLine(1, said)]
    cases: list[dict[str, Any]] = [
        {"spoken": [timed[0], timed[2]], "log": timed, "log_total": 40, "undo_said": NASTY},
        {"log": [], "log_total": 0, "undo_said": None, "can_undo": False},
        {"closed": True, "closed_by": "timeline", "can_undo": False},
        {"closed": True, "closed_by": "download", "can_undo": False, "speech_lang": NASTY},
        {"spoken": [], "undo_said": "“100%”"},
    ]
    with app.test_request_context():
        for changes in cases:
            assert compare(state, changes) == len(LANGUAGES) * (len(IN_PYTHON) + 3)
        g.language = "en"
        view = {**tablet.context(state, csrf=CSRF_SLOT), **cases[0]}
        for name in ("spoken", "log", "undo"):
            python = both(name, view)[0]
            assert NASTY not in python and "&lt;b&gt;Ann &amp;" in python, name


SEATS: list[dict[str, Any]] = [
    {"name": NASTY, "tracked": False, "current": True, "coins": 1},
    {"out": True, "face_down": 0, "revealed": ["duke", "contessa"], "faction": "loyalist"},
    {"faction": "reformist", "revealed": ["inquisitor"], "current": True},
]


def test_a_seats_row_in_every_case_and_with_a_name_to_escape(app: Flask, started: Table):
    """Each badge, whose turn, out, a faction, no phone, the winner, and a name with <>&"."""
    state = started.live()
    with app.test_request_context():
        for code in LANGUAGES:
            g.language = code
            view = tablet.context(state, csrf=CSRF_SLOT)
            for call in [None, *((level, what) for level in ("must", "may")
                                 for what in ("act", "answer", "challenge", "block"))]:
                for won in (False, True):
                    view["calls"] = {p["name"]: call for p in view["view"]["players"]}
                    view["view"] = {**view["view"], "winner": "Ann" if won else None}
                    for changes in SEATS:
                        assert compare_seats(view, **changes) == 3
        row = both("seat row", {**view, "p": {**view["view"]["players"][0], **SEATS[0]},
                                "call": None, "won": False})[0]
        assert NASTY not in row and "&lt;b&gt;Ann &amp;" in row


def test_the_prompt_with_a_name_to_escape_through_a_steal_and_its_windows(app: Flask):
    """A steal from a player whose name holds <>&": the declaration, the challenge window,
    the block window, a block's claim and its challenge window, in every language; a
    Reformation table's declaration (Embezzle claims "no Duke")."""
    steps = [{"do": "steal", "by": "Ann", "target": NASTY}, {"do": "pass"},
             {"do": "block", "by": NASTY, "as": "captain"}]
    table = started_table(app, {"Ann": ["duke", "captain"], NASTY: ["captain", "duke"],
                                "Cy": ["assassin", "contessa"]}, reformation="true")
    seen = set()
    for step in [None, *steps]:
        if step is not None:
            assert table.step(**step).status_code == 200, step
        state = table.live()
        with app.test_request_context():
            compare(state)
            g.language = "en"
            prompt = both("prompt", tablet.context(state, csrf=CSRF_SLOT))[0]
        assert NASTY not in prompt and "&lt;b&gt;Ann &amp;" in prompt
        seen |= {kind for kind in ("declare", "respond", "block") if f"prompt {kind}" in prompt}
    assert seen == {"declare", "respond", "block"}


def test_a_log_line_in_python_is_the_macros_in_every_language(app: Flask):
    """app/web/loglines.line_html against _logline.html (the log_line macro): a ruling with and
    without its rule, one the timer decided, a step undone, and words to escape."""
    plain = Ruling("%(name)s takes Income.", {"name": NASTY})
    ruled = Ruling("%(name)s takes Income.", {"name": "Ann"}, rule="E-20")
    lines = [LogLine(1, plain), LogLine(2, ruled), LogLine(3, ruled, time_up=True),
             LogLine(undone=NASTY)]
    with app.test_request_context():
        for code in LANGUAGES:
            g.language = code
            voice = Voice(code)
            for line in lines:
                macro = render_template("_logline.html", line=line, voice=voice,
                                        ruling=voice.ruling, rules_url=RULES_SLOT)
                assert line_html(line, voice) == macro, (code, line)
                assert NASTY not in macro
