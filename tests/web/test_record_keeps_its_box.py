"""A downloaded record loads back with the box it was played with: the loaded game's screens
name the cards and actions as the original's did (a Mosigra game replayed on a Russian tablet
says «Губернатор», «Налог» and «колода Двора», not Duke, Tax and «колода»). The record says it
by its rules' preset, each box's own (FORMAT.md defines no key for a box, and a reader refuses a
key it does not define); the English and the Japanese box share the official rules, so a record
of the official rules, or of none, gets the usual box of the tablet's language."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from tablekit import csrf_of, finished_game

from app.editions import EDITIONS
from app.records.format import TOP_KEYS

RECORDS = Path(__file__).resolve().parents[1] / "records"
TAG = re.compile(r"<[^>]+>")
GAME_TITLES = {"Coup", "Переворот", "クー"}  # the game's name in a page's title, and a Coup


def names_of_every_box() -> set[str]:
    found: set[str] = set()
    for box in EDITIONS.values():
        found |= {*box.cards.values(), *box.actions.values(), *box.by_character.values()}
    return found - GAME_TITLES


def named(html: str) -> set[str]:
    """The card and action names of any box on a screen, as whole words."""
    text = TAG.sub(" ", html)
    return {name for name in names_of_every_box()
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)}


def played_and_downloaded(app: Flask, edition: str) -> tuple[str, bytes]:
    """A whole game at a table of this box, in its rulebook's language (Ann's Taxes, Bob's
    Income, Ann's Coups: tablekit.finished_game): the tablet's screen and the record."""
    t = finished_game(app, language=EDITIONS[edition].language, edition=edition)
    return t.page(), t.download().data


def loaded(app: Flask, record: bytes, language: str) -> str:
    """The tablet's screen of the record loaded on the start page of a tablet reading
    ``language``."""
    tablet: FlaskClient = app.test_client()
    tablet.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    data = {"csrf": csrf_of(tablet.get("/").text),
            "record": (io.BytesIO(record), "game.json")}
    response = tablet.post("/tables/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 303, response.text
    page = tablet.get(response.headers["Location"], follow_redirects=True)
    assert page.status_code == 200
    return page.text


def read_by(edition: str) -> set[str]:
    """The tablets whose screens a box's record loads back with its words: any, for a box
    with a preset of its own; one of its language, for the boxes of the official rules."""
    box = EDITIONS[edition]
    alone = [e for e in EDITIONS.values() if e.preset == box.preset] == [box]
    return {box.language, "en", "ru"} if alone else {box.language}


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_downloaded_record_loads_back_with_its_box_s_words(app, edition):
    box = EDITIONS[edition]
    original, record = played_and_downloaded(app, edition)
    own = {*box.cards.values(), *box.actions.values(), *box.by_character.values()} - GAME_TITLES
    words = named(original)
    assert {box.cards["duke"], box.actions["tax"], box.actions["income"]} <= words
    assert words <= own, f"{edition}: another box's names on its own screen"
    assert set(json.loads(record)) <= set(TOP_KEYS)  # a valid coup-record/1
    for language in read_by(edition):
        assert named(loaded(app, record, language)) == words, f"{edition} read in {language}"


def test_the_mosigra_box_s_own_words_come_back_on_a_russian_tablet(app):
    _original, record = played_and_downloaded(app, "mosigra_ru")
    html = loaded(app, record, "ru")
    assert "Колода Двора" in TAG.sub(" ", html)
    assert {"Губернатор", "Налог", "Убийца"} <= named(html)  # Bob's Assassin lost face up
    assert not {"Duke", "Tax", "Captain", "Assassin"} & named(html)


@pytest.mark.parametrize(("language", "box"), [("ru", "la_mame_ru_2015"), ("ja", "ja"),
                                               ("en", "official"), ("pt-BR", "bga_pt")])
def test_a_record_without_a_box_gets_the_language_s_usual_box(app, language, box):
    record = (RECORDS / "01-worked-example.json").read_bytes()
    assert "preset" not in json.loads(record).get("rules", {})
    assert EDITIONS[box].cards["duke"] in named(loaded(app, record, language))
