"""A phone's waiting line, remembered by the line's value (app/web/waitingwords.py), is at
every step of random games what wording the line afresh for that player says, in every
language and box, the memo carrying every line worded before it (a line remembered under a
value that words differently would show here); and the memo is bounded."""

from __future__ import annotations

from pathlib import Path

import pytest
from playkit import played

from app.engine import Ruling
from app.engine.rulings import CardName, Names
from app.engine.waiting import waiting_to_you
from app.i18n import LANGUAGES, Voice
from app.web import views, waitingwords
from app.web.waitingwords import waiting_words

VOICES = [Voice(code) for code in LANGUAGES] + [Voice("ru", "la_mame_ru_2015", "inquisitor")]


def afresh(voice: Voice, line: Ruling, you: str) -> str:
    mine = waiting_to_you(line, you)
    return voice.say(mine.text, mine.params, mine.count)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_line_is_worded_as_afresh(tmp_path: Path, seed: int):
    compared = set()
    for table in played(tmp_path, seed):
        state = table.live()
        line = views.public_view(state)["waiting_ruling"]
        for voice in VOICES:
            for seat in state.seats:
                assert waiting_words(voice, line, seat.name) == afresh(voice, line, seat.name)
                compared.add(repr(line))
    assert len(compared) > 5  # many different lines, each worded for every player


def test_lines_that_differ_in_any_value_are_worded_apart():
    """The same template with other names, another card, or one name inside another's."""
    voice = Voice("en")

    def line(kind: str, names: tuple[str, ...], card: str | None = None) -> Ruling:
        params: dict[str, object] = {"names": Names(names)}
        if card is not None:
            params["card"] = CardName(card)
        return Ruling("Waiting for %(who)s.", {"who": [Ruling(kind, params)]})

    lines = [line("%(names)s to challenge or let it stand", ("Ann", "Bob")),
             line("%(names)s to challenge or let it stand", ("Ann", "Bo")),
             line("%(names)s to block or let it stand", ("Ann", "Bob")),
             line("%(names)s to prove the %(card)s or concede", ("Ann",), "duke"),
             line("%(names)s to prove the %(card)s or concede", ("Ann",), "captain")]
    for you in ("Ann", "Bob", "Bo", "Cid"):
        said = [waiting_words(voice, each, you) for each in lines]
        assert said == [afresh(voice, each, you) for each in lines]
    assert waiting_words(voice, lines[3], "Ann") == "Prove the Duke or concede."
    assert waiting_words(voice, lines[4], "Ann") == "Prove the Captain or concede."
    assert waiting_words(voice, lines[0], "Ann") == "Waiting for you and Bob to challenge or " \
        "let it stand."


def test_the_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(waitingwords, "LINES", 3)
    voice = Voice("en")
    for number in range(10):
        line = Ruling("Waiting for %(who)s.", {"who": [
            Ruling("%(names)s to declare an action", {"names": Names((f"P{number}",))})]})
        assert waiting_words(voice, line, "P0") == afresh(voice, line, "P0")
    assert len(waitingwords._worded) <= 3
