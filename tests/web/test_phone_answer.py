"""A phone's answers drawn in Python (app/web/phoneanswer.py) are byte for byte what
phone/_answer.html draws: for every seat at every step of random games (a turn's actions and
targets, challenges, blocks), in every language, with phones answering or not, and for names
and words holding <>&"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask, current_app, g, render_template
from playkit import played
from tablekit import Table

from app.engine import Prompt, RuleError
from app.i18n import LANGUAGES
from app.web import phone
from app.web.fragments import CSRF_SLOT, VERSION_SLOT
from app.web.phoneanswer import answer_html
from app.web.screenregions import PHONE

ANSWER = PHONE["answer"]


def both(view: dict[str, Any]) -> tuple[str, str]:
    """The answers from the region's scope, in Python and by the partial."""
    scope = ANSWER.scope(current_app.jinja_env, view)
    return answer_html(scope), render_template(ANSWER.template, **scope, csrf=CSRF_SLOT,
                                               version=VERSION_SLOT)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_answers_are_the_partials_at_every_step_in_every_language(tmp_path: Path,
                                                                       seed: int):
    kinds: set[str] = set()
    for table in played(tmp_path, seed):
        state = table.live()
        if state.game is None or state.lobby:
            continue
        with table.app.test_request_context():
            for seat in state.seats:
                if not seat.tracked:
                    continue
                for code in LANGUAGES:
                    g.language = code
                    for answers in ("both", "tablet"):
                        view = {**phone.context(state, seat), "answers": answers}
                        python, template = both(view)
                        assert python == template, (seat.name, code, answers, state.version)
                kinds |= {p.kind for p in view["prompts"] if not p.private}
    assert {"declare", "respond"} <= kinds


def test_what_players_type_is_escaped_as_the_partial_escapes_it(app: Flask, started: Table):
    nasty = '<b>Ann & "Bo"</b>\''
    state = started.live()
    seat = state.seats[0]
    refused = RuleError("cost", "%(who)s can’t", "%(who)s can’t", who=nasty)
    actions = [{"action": "steal", "targets": [nasty, seat.name], "reason": None, "error": None},
               {"action": "coup", "targets": [], "reason": nasty, "error": refused},
               {"action": "income", "targets": None, "reason": None, "error": None},
               {"action": "tax", "targets": None, "reason": None, "error": None}]
    asked = [Prompt(seat.name, "declare", {"actions": actions}),
             Prompt(seat.name, "respond", {"claimant": nasty, "claim": "duke"}),
             Prompt(seat.name, "block", {"as": ["captain", "ambassador"]})]
    with app.test_request_context():
        for code in LANGUAGES:
            g.language = code
            view = {**phone.context(state, seat), "prompts": asked, "answers": "both"}
            python, template = both(view)
            assert python == template, code
            assert nasty not in python and "&lt;b&gt;Ann &amp; &#34;Bo&#34;" in python
