"""No game term of any box is left in English on a non-English screen: the words filling a
sentence's ``{term}`` slots, at a table of each box, in each language other than English,
are words of that language (the Japanese box's reserve was 「Almshouse」, the English printed
on the card, on its tablet's header, its set-up option and its Rules)."""

from __future__ import annotations

import re

import pytest

from app.editions import EDITIONS
from app.glossary import TERMS
from app.i18n import LANGUAGES, terms

NON_LATIN = ("ru", "uk", "ja")
LATIN = re.compile(r"[A-Za-z]")
# English words for the terms: the English glossary's, and the first edition's reserve.
ENGLISH_WORDS = {w.lower() for v in TERMS["en"].values() for w in v.split()} | {"almshouse"}
OTHER_LANGUAGES = [language for language in LANGUAGES if language != "en"]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_no_term_of_any_box_is_english_on_another_language_s_screen(edition, language):
    english = {}
    for key, word in terms(language, edition).items():
        words = {w.strip("「」«»").lower() for w in word.split()}
        if (language in NON_LATIN and LATIN.search(word)) or words & ENGLISH_WORDS:
            english[key] = word
    assert not english, f"{edition} in {language}: {english}"


def test_the_japanese_reformation_table_says_its_reserve_in_japanese(make_table, play, visible):
    table = make_table("ja", edition="ja", browser_language="ja",
                       settings={"reformation": "true"})
    play["start"](table)
    screens = {"tablet": table.page(), "phone": table.phone_page("Ann"),
               "rules": table.page("/rules"), "set-up": table.tablet.get("/").text}
    for screen, html in screens.items():
        text = " ".join(visible(html))
        assert "Almshouse" not in text, screen
    assert "救貧院" in " ".join(visible(screens["tablet"]))
    assert "「改宗」「横領」と救貧院" in " ".join(visible(screens["set-up"]))
    rules = " ".join(visible(screens["rules"]))
    e26 = rules[rules.index("E-26"):rules.index("E-27")]
    assert "救貧院" in e26
