"""A phone's alert drawn in Python (app/web/phonealert.py) is byte for byte what
phone/_alert.html draws: for every seat at every step of random games (challenges, blocks,
exchanges, losses, the winner), in every language, with phones answering or not, and for a
player whose name and a refused step's words hold <>&"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask, current_app, g, render_template
from playkit import played
from tablekit import Table

from app.engine import Prompt, Ruling
from app.i18n import LANGUAGES
from app.web import phone
from app.web.phonealert import alert_html
from app.web.screenregions import PHONE
from app.web.state import TableState

ALERT = PHONE["alert"]


def both(view: dict[str, Any]) -> tuple[str, str]:
    """The alert from the region's scope, in Python and by the partial."""
    scope = ALERT.scope(current_app.jinja_env, view)
    return alert_html(scope), render_template(ALERT.template, **scope)


def compare(state: TableState, answers: str) -> int:
    compared = 0
    for seat in state.seats:
        if not seat.tracked or state.game is None or state.lobby:
            continue
        for code in LANGUAGES:
            g.language = code
            view = {**phone.context(state, seat), "answers": answers}
            python, template = both(view)
            assert python == template, (seat.name, code, state.version)
            compared += 1
    return compared


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_alert_is_the_partials_at_every_step_in_every_language(tmp_path: Path, seed: int):
    compared, shown = 0, set()
    for table in played(tmp_path, seed):
        state = table.live()
        with table.app.test_request_context():
            for answers in ("both", "tablet"):
                compared += compare(state, answers)
            for seat in state.seats:
                if seat.tracked and state.game is not None and not state.lobby:
                    g.language = "en"
                    alert = both(phone.context(state, seat))[0]
                    shown.add(alert.split('class="alert ')[1].split('"')[0])
    assert compared > 500 and shown == {"must", "may", "calm"}


def test_what_players_type_is_escaped_as_the_partial_escapes_it(app: Flask, started: Table):
    nasty = '<b>Ann & "Bo"</b>\''
    state = started.live()
    seat = state.seats[0]
    risk = Ruling("%(who)s loses an influence", {"who": nasty}, rule="E-13")
    asked = [Prompt(seat.name, "respond", {"claimant": nasty, "claim": "duke", "risk": risk,
                                           "on_block": True, "inverted": True}),
             Prompt(seat.name, "block", {"as": ["captain", "ambassador"]}),
             Prompt(seat.name, "draw", {"count": 1}),
             Prompt(seat.name, "keep", {"count": 3})]
    aimed = {"actor": nasty, "target": seat.name, "action": "assassinate", "window": None}
    blocked = {"actor": seat.name, "target": nasty, "action": "steal", "window": "block"}
    cases = [  # (turn, asked, own steps, must act, undone, answers)
        (blocked, asked, ["draw", "keep"], True, nasty, "tablet"),
        (aimed, asked[:2], [], False, None, "both"),
        (aimed, [], [], False, None, "tablet")]
    with app.test_request_context():
        for code in LANGUAGES:
            g.language = code
            for turn, prompts, own, must, undone, answers in cases:
                view = phone.context(state, seat)
                view.update(view={"turn": turn}, asked=prompts, just_undone=undone,
                            asked_kinds=[p.kind for p in prompts], own_kinds=own,
                            must_act=must, buzz=nasty, answers=answers)
                python, template = both(view)
                assert python == template, (code, turn, own)
                assert nasty not in python
                assert ("&lt;b&gt;Ann &amp; &#34;Bo&#34;" in python) == bool(prompts)
