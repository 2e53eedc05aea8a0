"""Every name and game term comes from the table's box: no catalogue string spells out a card,
action or faction name of any edition, and every language's glossary has the words its
sentences' ``{term}`` slots ask for."""

from __future__ import annotations

import re

import pytest

from app.catalogs import load, po_path, strings
from app.editions import EDITIONS
from app.glossary import HEADWORDS, REQUIRED, TERMS
from app.i18n import LANGUAGES, TRANSLATIONS, Voice, fill_terms, terms

# The game's own name is not the Coup action: the app's title, the command line's words and
# the error about an unknown card say which game this is. Only these messages may name it.
GAME_TITLE = {
    "Coup referee",
    "Coup referee is running. On this laptop: %(url)s",
    "Referee for Coup played with a real deck: a tablet shows the table, each phone holds its "
    "player’s hand.",
    "‘%(card)s’ is not a Coup character: cards are written in lower case, one of %(known)s.",
    "%(name)s’s cards: ‘%(card)s’ is not a Coup character: cards are written in lower case, "
    "one of %(known)s.",
}
TITLES = ("Coup", "«Переворот»", "Переворот", "クー")


def names_of_every_box() -> set[str]:
    found: set[str] = set()
    for ed in EDITIONS.values():
        found |= {*ed.cards.values(), *ed.actions.values(), *ed.by_character.values(),
                  *ed.factions.values()}
    return found


def named_in(text: str, names: set[str], language: str) -> list[str]:
    """The names in ``text``: whole words, as the box prints them (capitalised). Japanese
    action names are everyday nouns (交換 is any exchange), so there only 「交換」, the way
    the Japanese sentences quote a name, counts."""
    found = []
    for name in names:
        if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", name):
            if f"「{name}」" in text or (len(name) > 2 and name in text):
                found.append(name)
        elif re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            found.append(name)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_string_names_a_card_or_an_action(language):
    catalog = load(po_path(language, TRANSLATIONS))
    names = names_of_every_box()
    problems = {}
    for message in catalog:
        if not message.id:
            continue
        texts = [*([message.id] if isinstance(message.id, str) else message.id),
                 *strings(message)]
        for text in texts:
            if message.id in GAME_TITLE:
                for title in TITLES:
                    text = text.replace(title, " ")
            found = named_in(text, names, language)
            if found:
                problems[text] = found
    assert not problems, f"{language}: names written into sentences: {problems}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_the_head_words(language):
    missing = [key for key in REQUIRED if key not in TERMS[language]]
    assert not missing, f"{language} glossary lacks {missing}"


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_box_only_words_terms_its_language_knows(edition):
    """A box's words replace its language's own, form for form: a form the language's
    sentences never ask for would never be shown."""
    box = EDITIONS[edition]
    assert box.language in LANGUAGES
    unknown = set(box.terms) - set(TERMS[box.language])
    assert not unknown, f"{edition}: no such forms in the {box.language} glossary: {unknown}"


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_box_that_names_a_term_names_it_in_every_form(edition):
    """Mosigra's «вето» in one sentence and La Mame's «заблокировать» in the next would be two
    boxes' words: a box's own word for a term replaces every form its language uses."""
    box = EDITIONS[edition]
    language = TERMS[box.language]

    def concept(key: str) -> str:  # deck_gen, of_deck: the deck; blocks: the block
        return next(word for word in HEADWORDS if word in key.lower())

    for named in {concept(key) for key in box.terms}:
        forms = {key for key in language if concept(key) == named}
        missing = forms - set(box.terms)
        assert not missing, f"{edition} names the {concept} but not its forms {missing}"


def test_a_box_s_words_fill_sentences_in_its_language_only():
    mosigra, la_mame = terms("ru", "mosigra_ru"), terms("ru", "la_mame_ru_2015")
    assert fill_terms("Никто не {challenges}.", mosigra) == "Никто не атакует."
    assert fill_terms("Никто не {challenges}.", la_mame) == "Никто не проверяет."
    assert fill_terms("{Deck} пуста.", mosigra) == "Колода Двора пуста."
    # A Ukrainian sentence at a table with a Russian box: Ukrainian words, Russian names.
    assert terms("uk", "mosigra_ru") == terms("uk", "official") == TERMS["uk"]
    assert Voice("uk", "mosigra_ru").card("ambassador") == "Советник"


def test_the_inquisitor_s_exchange_has_its_own_name_where_the_box_gives_it():
    assert Voice("ru", "la_mame_ru_2015", "inquisitor").action("exchange") == "Допрос (обмен)"
    assert Voice("ru", "la_mame_ru_2015", "ambassador").action("exchange") == "Обмен"
    assert Voice("en", "bga_pt", "inquisitor").action("exchange") == "Trocar influência"
    assert Voice("en", "bga_pt", "ambassador").action("exchange") == "Trocar influências"
    assert Voice("ja", "ja", "inquisitor").action("exchange") == "交換"
