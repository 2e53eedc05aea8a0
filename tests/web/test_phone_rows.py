"""The other players' rows on a phone, drawn in Python (app/web/phoneparts.py), are byte for
byte what phone/_others.html drew (kept here as tests/web/old_others.html): at every step of
random games in every language, and for a row with everything on it (a name with <>&", cards
face up, out, a faction, waited for)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask, g
from playkit import played
from tablekit import make_app

from app.i18n import LANGUAGES, Voice
from app.web import phoneparts, views
from app.web.phoneparts import ROW_END, _row, _rows
from app.web.screens import languages

OLD_OTHERS = (Path(__file__).parent / "old_others.html").read_text(encoding="utf-8")


def old_rows(app: Flask, **view: object) -> str:
    """The rows as the template drew them, marks and all."""
    return app.jinja_env.from_string(OLD_OTHERS).render(**view, row_end=ROW_END)


def same_rows(new: str, old: str) -> bool:
    """The rows as each seat's screen takes them: split at the marks, each stripped."""
    return [row.strip() for row in new.split(ROW_END)] == \
        [row.strip() for row in old.split(ROW_END)][:new.count(ROW_END) + 1]


@pytest.mark.parametrize("seed", [0, 1])
def test_the_rows_are_the_templates_at_every_step_in_every_language(tmp_path: Path, seed: int):
    compared = 0
    for table in played(tmp_path, seed):
        state = table.live()
        if state.game is None or state.lobby:
            continue
        with table.app.test_request_context():
            for code in LANGUAGES:
                g.language = code
                new = _rows(state)
                assert same_rows(new, old_rows(table.app, **views.phone_public(
                    state, languages()))), (code, state.version)
                compared += 1
    assert compared > 50


def test_a_row_with_everything_on_it_escapes_what_players_type(tmp_path: Path):
    app = make_app(tmp_path)
    nasty = '<b>Ann & "Bo"</b>\''
    player = {"name": nasty, "coins": 1, "face_down": 1, "revealed": ["duke", "inquisitor"],
              "out": True, "faction": "loyalist"}
    with app.test_request_context():
        for code in LANGUAGES:
            voice = Voice(code)
            for acting, waited in ((True, [nasty]), (False, [])):
                new = _row(voice, nasty, 1, 1, ("duke", "inquisitor"), True, "loyalist",
                           acting) + ROW_END
                old = old_rows(app, players=[player], acting=waited, voice=voice,
                               card=voice.card, faction=voice.faction)
                assert same_rows(new, old), code
                assert nasty not in new and "&lt;b&gt;Ann &amp; &#34;Bo&#34;" in new
    assert phoneparts.ROWS >= 6 * 300  # the rows of 300 busy tables' newest versions
