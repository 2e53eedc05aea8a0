""""Who starts" on the start page names a player: a name that is none of the table's players
(a typo: «Анн» for «Аня») is refused beside the field, in the page's language, naming what
was typed and the players it may be, and everything typed stays in the form. Empty is the
first player; a name as the eye reads it ("bob") is that player."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from tablekit import csrf_of, new_table

FORM = {"players": "Аня\nБоря\nВера", "edition": "official", "coins_in_box": "40",
        "answers": "tablet"}


def create(app: Flask, first: str, language: str = "en", players: str = FORM["players"]):
    client = app.test_client()
    home = client.get("/", headers={"Accept-Language": language}).text
    return client.post("/tables", headers={"Accept-Language": language},
                       data={**FORM, "players": players, "csrf": csrf_of(home),
                             "first": first, "language": language})


def beside_first(page: str) -> str:
    """The refusal beside the "Who starts" field, as text."""
    found = re.search(r'<input name="first"[^>]*>\s*<span class="flash field-problem"'
                      r' id="first-problem" role="alert">([^<]*)</span>', page)
    assert found, "no refusal beside Who starts"
    return html.unescape(found.group(1))


@pytest.mark.parametrize(("language", "said"), [
    ("en", "“Анн” is not one of the players. Who starts must be one of: Аня, Боря, Вера."),
    ("ru", "«Анн» — нет такого игрока. Первым может ходить: Аня, Боря, Вера."),
])
def test_an_unknown_starter_is_refused_beside_the_field(app: Flask, language: str, said: str):
    response = create(app, "Анн", language)
    assert response.status_code == 422
    page = response.text
    assert beside_first(page) == said
    assert 'aria-invalid="true"' in page and 'class="flash" role="alert"' not in page
    # Nothing typed is lost.
    assert ">Аня\nБоря\nВера</textarea>" in page and 'value="Анн"' in page
    assert 'value="40"' in page and '<option value="tablet" selected>' in page
    assert "Location" not in response.headers  # no table was made


def test_a_starter_in_another_script_is_refused_too(app: Flask):
    page = create(app, "誰か", "ja", "アキラ\nユキ").text
    assert "誰か" in beside_first(page) and "アキラ, ユキ" in beside_first(page)


@pytest.mark.parametrize(("first", "starts"), [("", "Ann"), ("Bob", "Bob"), (" bob ", "Bob")])
def test_empty_is_the_first_player_and_a_name_is_that_player(app: Flask, first: str,
                                                             starts: str):
    table = new_table(app, ["Ann", "Bob", "Cy"], first=first)
    assert table.live().table.setup["first"] == starts
