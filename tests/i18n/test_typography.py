"""English on screen keeps to typographic punctuation: an apostrophe is ’ ("can’t", "Ann’s"),
a quotation is ‘…’ or “…”. Every English message is in the catalogue's template, so a new
string with a straight ' or " is caught here."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

POT = Path(__file__).resolve().parents[2] / "app" / "translations" / "messages.pot"


def english_messages() -> list[str]:
    with open(POT, encoding="utf-8") as catalogue:
        found = []
        for message in read_po(catalogue):
            if message.id:
                found += [message.id] if isinstance(message.id, str) else list(message.id)
        return found


def test_the_catalogue_is_read():
    assert len(english_messages()) > 500


def test_no_english_message_has_a_straight_apostrophe():
    straight = [text for text in english_messages() if "'" in text]
    assert not straight, "use ’ (or ‘…’ for a quotation):\n" + "\n".join(straight)


def test_no_english_message_has_straight_double_quotes():
    straight = [text for text in english_messages() if '"' in text]
    assert not straight, "use “…” for a quotation:\n" + "\n".join(straight)


def test_the_english_catalog_translates_each_message_as_itself():
    """English is the source: no stale English wording (straight apostrophes left from an older
    msgid) can be shown in place of the code's own words."""
    path = Path(__file__).resolve().parents[2] / "app/translations/en/LC_MESSAGES/messages.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale="en")
    stale = [m.id for m in catalog if m.id and m.string != (
        tuple(m.id) if isinstance(m.id, tuple | list) else m.id)]
    assert stale == []


UK = Path(__file__).resolve().parents[2] / "app/translations/uk/LC_MESSAGES/messages.po"
UK_LETTER = "а-яіїєґА-ЯІЇЄҐ"


def test_ukrainian_words_take_the_typographic_apostrophe():
    """Ukrainian writes its apostrophe inside a word (об’єкт, з’являтиметься) one way only, ’,
    as the catalogue's other words do: never a straight ' between two letters."""
    straight = re.compile(f"[{UK_LETTER}]'[{UK_LETTER}]")
    with open(UK, encoding="utf-8") as catalogue:
        found = [text for message in read_po(catalogue) if message.id
                 for text in ([message.string] if isinstance(message.string, str)
                              else list(message.string))
                 if text and straight.search(text)]
    assert not found, "use ’ inside a Ukrainian word:\n" + "\n".join(found)
