"""The screens' small pieces (:mod:`app.web.pieces`) give the bytes the Jinja macros they
replaced gave, for every kind of argument, escape whatever a player types (names with <>&")
and speak the screen's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2 import Environment
from markupsafe import Markup, escape
from tablekit import make_app

from app.editions import usual_edition
from app.i18n import LANGUAGES, Voice
from app.web.i18n import escaped
from app.web.pieces import PIECES

#: The macros as they were in templates/_macros.html, the reference for the same bytes.
OLD_MACROS = (Path(__file__).parent / "old_macros.html").read_text(encoding="utf-8")
NASTY = '<b>Ann & "Bo"</b>\''
CALLS = [
    "hidden(csrf, version)",
    "hidden(nasty, 3)",
    "step_button(label, 'income', post, csrf, version)",
    "step_button(nasty, nasty, nasty, nasty, nasty, by=nasty, fields={nasty: nasty}, "
    "cls=nasty, disabled=True, note=nasty)",
    "step_button(_('%(name)s challenges', name=nasty), 'challenge', post, csrf, 7, by='Bob', "
    "fields={'target': 'Cid', 'as': 'duke'}, cls='challenge big', note='2 coins')",
    "step_button(label, 'pass', post, csrf, version, by='', disabled=False, note='')",
    "step_button(label, 'show', post, csrf, version, fields={'position': 0}, disabled=none)",
    "refresher(nasty, nasty)",
    "refresher('/t/x/view?since=4&a=1', 'tablet', pushed=True)",
    "card_face('duke', 'Duke')",
    "card_face('inquisitor', nasty, 'up small')",
    "card_face(nasty, nasty, nasty)",
    "card_face('nobody', 'Nobody')",
    "card_back(0)",
    "card_back(3)",
    "rule_tag('E-13', '/t/x/rules')",
    "rule_tag(nasty, nasty)",
    "rule_tag(none, '/rules')",
    "rule_tag('', '/rules')",
]
VALUES = {"nasty": NASTY, "csrf": "tok.en-1", "version": 12, "post": "/t/x/step",
          "label": Markup("Income")}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return make_app(tmp_path_factory.mktemp("pieces")).jinja_env


@pytest.mark.parametrize("call", CALLS)
def test_each_piece_gives_the_bytes_its_macro_gave(env: Environment, call: str):
    macros_not_pieces = {name: None for name in PIECES}
    old = env.from_string(OLD_MACROS + "\x00{{ " + call + " }}", globals=macros_not_pieces)
    new = env.from_string("{{ " + call + " }}")
    assert new.render(**VALUES) == old.render(**VALUES).split("\x00", 1)[1]


def test_the_pieces_are_every_templates_globals(env: Environment):
    for name, piece in PIECES.items():
        assert env.globals[name] is piece
        assert env.get_template("phone/_phone.html").globals[name] is piece


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_are_escaped_and_the_pieces_speak_the_screens_language(env: Environment,
                                                                     language: str):
    voice = Voice(language, usual_edition(language), "ambassador")
    html = env.from_string(
        "{{ step_button(_('%(name)s challenges', name=nasty), 'challenge', post, csrf, 1, "
        "by=nasty, fields={'target': nasty}, note=nasty) }}{{ card_face('duke', nasty) }}"
        "{{ card_back(2) }}{{ rule_tag(nasty, post) }}{{ refresher(nasty, 'phone') }}"
        "{{ hidden(nasty, 1) }}").render(voice=voice, **VALUES)
    assert "<b>" not in html and '"Bo"' not in html
    assert html.count(str(escape(NASTY))) == 9  # every place it is put
    said = voice.format("%(name)s challenges", name=escape(NASTY))
    assert f">{said}<small>" in html
    label = escape(voice.gettext("face-down card"))
    assert html.count(f'aria-label="{label}"') == 2
    if language != "en":
        assert label != "face-down card"


def test_a_piece_outside_a_screen_speaks_the_requests_language(tmp_path: Path):
    app = make_app(tmp_path)
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        html = app.jinja_env.from_string("{{ card_back(1) }}").render()
    said = Voice("ru", usual_edition("ru"), "ambassador").gettext("face-down card")
    assert f'aria-label="{escape(said)}"' in html


class Card(str):
    """A str subclass, as the engine's card and action names are."""


@given(st.one_of(st.text(), st.text(alphabet="&<>\"'ab é"), st.integers(), st.none(),
                 st.booleans(), st.text().map(Markup), st.text().map(Card)))
def test_a_value_escaped_is_what_markupsafe_escapes(value: object) -> None:
    """app.web.i18n.escaped: a plain string with nothing to escape as it is, anything else as
    markupsafe's escape gives it (a Markup left alone, a number or a name subclass escaped)."""
    assert escaped(value) == str(escape(value))
    assert type(escaped(value)) is str


def test_a_string_with_nothing_to_escape_is_given_back_itself() -> None:
    name = "Ann Ёжик 42 /t/abc?since=3"
    assert escaped(name) is name
    for nasty in ("&", "<", ">", '"', "'", NASTY):
        assert escaped(f"a{nasty}b") == str(escape(f"a{nasty}b")) != f"a{nasty}b"
