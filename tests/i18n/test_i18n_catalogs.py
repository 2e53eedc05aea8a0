"""The gettext catalogues are complete and correct against a fresh extraction of the code.

When a string changes, these fail until ``python3 tasks.py catalogs`` has updated the .po files
and every new or fuzzy message is translated.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app import cli_i18n
from app.catalogs import (
    PROJECT_ROOT,
    extract,
    load,
    placeholders,
    po_path,
    problems,
    update_catalogs,
)
from app.engine.rulings import NP_, Ruling
from app.i18n import LANGUAGES, TRANSLATIONS, Voice, compile_catalogs, folder

PLURAL_FORMS = {"en": 2, "pt-BR": 2, "ru": 3, "uk": 3, "ja": 1}


@pytest.fixture(scope="module")
def template():
    """A fresh extraction by pybabel, written to and read from a temporary .pot (the
    repository is not touched)."""
    return extract(PROJECT_ROOT)


def test_every_language_of_the_app_has_a_catalogue():
    assert set(LANGUAGES) == set(PLURAL_FORMS)
    assert cli_i18n.LANGUAGES == LANGUAGES  # the command line's own copy, kept Babel-free
    for language in LANGUAGES:
        assert po_path(language, TRANSLATIONS).exists(), f"no catalogue for {language}"


def test_the_template_in_the_repository_is_up_to_date(template):
    kept = load_template(TRANSLATIONS / "messages.pot")
    assert ids(kept) == ids(template), "run: python3 tasks.py catalogs"


def test_every_message_with_a_slot_tells_translators_what_fills_it(template):
    """A ``# TRANSLATORS:`` comment (``{# TRANSLATORS: #}`` in a template) on the line before
    each message with a ``%(slot)s`` names every slot and what goes in it."""
    undescribed = []
    for message in template:
        ids = [message.id] if isinstance(message.id, str) else list(message.id or ())
        slots = {name for text in ids for name in placeholders(text)[0]}
        comment = " ".join(message.auto_comments)
        missing = [s for s in sorted(slots) if not re.search(rf"\b{s}\b", comment)]
        if missing:
            undescribed.append(f"{ids[0]!r}: {', '.join(missing)}")
    assert not undescribed, "no TRANSLATORS comment names:\n" + "\n".join(undescribed)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_catalogue_has_every_message_translated_none_fuzzy_or_stale(language, template):
    found = problems(load(po_path(language, TRANSLATIONS)), template)
    assert not found, (f"{language}: {len(found)} to fix (python3 tasks.py catalogs):\n"
                       + "\n".join(found[:40]))


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_match_the_english(language):
    """Every %(name)s of the English is in the translation, and nothing else (checked here on
    its own so that the failure says just that)."""
    catalog = load(po_path(language, TRANSLATIONS))
    for message in catalog:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, str):
            assert placeholders(message.string) == placeholders(message.id), message.id
        else:
            wanted = placeholders(message.id[1])
            for form in message.string:
                assert placeholders(form) in (wanted, placeholders(message.id[0])), form


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_plural_forms_header_fits_the_language(language):
    catalog = load(po_path(language, TRANSLATIONS))
    assert catalog.num_plurals == PLURAL_FORMS[language]
    for message in catalog:
        if message.id and not isinstance(message.id, str):
            assert len(message.string) == PLURAL_FORMS[language], message.id


COINS = {
    "en": {0: "0 coins", 1: "1 coin", 2: "2 coins", 5: "5 coins"},
    "ru": {1: "1 монета", 2: "2 монеты", 4: "4 монеты", 5: "5 монет", 11: "11 монет",
           21: "21 монета", 22: "22 монеты", 0: "0 монет"},
    "uk": {1: "1 монета", 3: "3 монети", 5: "5 монет", 12: "12 монет", 21: "21 монета",
           0: "0 монет"},
    "pt-BR": {1: "1 moeda", 2: "2 moedas", 0: "0 moedas"},
    "ja": {1: "金貨1枚", 2: "金貨2枚", 10: "金貨10枚"},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_counts_take_the_right_plural_form(language):
    for n, expected in COINS[language].items():
        assert Voice(language).nformat("%(num)s coin", "%(num)s coins", n) == expected


STEALS = {
    "ru": {1: "Ann крадёт 1 монету у игрока Bob.", 2: "Ann крадёт 2 монеты у игрока Bob."},
    "uk": {1: "Ann краде 1 монету в гравця Bob.", 2: "Ann краде 2 монети в гравця Bob."},
    "pt-BR": {1: "Ann rouba 1 moeda de Bob.", 2: "Ann rouba 2 moedas de Bob."},
    "ja": {1: "AnnはBobから金貨1枚を奪う。", 2: "AnnはBobから金貨2枚を奪う。"},
    "en": {1: "Ann steals 1 coin from Bob.", 2: "Ann steals 2 coins from Bob."},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_ruling_with_a_count_takes_the_right_plural_form(language):
    text = NP_("%(name)s steals %(n)s coin from %(target)s.",
               "%(name)s steals %(n)s coins from %(target)s.")
    for n, expected in STEALS[language].items():
        r = Ruling(text, {"name": "Ann", "n": n, "target": "Bob"}, count="n")
        assert Voice(language, "official").ruling(r) == expected


def test_catalogues_compile_when_missing_or_older_than_their_po(tmp_path: Path):
    copy = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, copy, ignore=shutil.ignore_patterns("*.mo"))
    written = compile_catalogs(copy)
    assert {p.parent.parent.name for p in written} == {folder(code) for code in LANGUAGES}
    assert compile_catalogs(copy) == []  # up to date: nothing to do
    po = po_path("ru", copy)
    later = time.time() + 5
    os.utime(po, (later, later))
    assert compile_catalogs(copy) == [po.with_suffix(".mo")]


def test_the_catalogs_command_updates_keeps_translations_and_reports_what_is_new(tmp_path):
    """`tasks.py catalogs` on a copy of the project: complete as it is; a new string is then
    reported untranslated everywhere but in English, which copies its source text."""
    root = tmp_path / "project"
    shutil.copytree(PROJECT_ROOT / "app", root / "app",
                    ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    shutil.copytree(PROJECT_ROOT / "templates", root / "templates")
    shutil.copy(PROJECT_ROOT / "babel.cfg", root / "babel.cfg")
    before = {lang: po_path(lang, root / "app" / "translations").read_bytes()
              for lang in LANGUAGES}
    assert update_catalogs(root) == {lang: [] for lang in ("en", "ja", "pt-BR", "ru", "uk")}
    for lang in LANGUAGES:  # nothing but the dates would change, so nothing is rewritten
        assert po_path(lang, root / "app" / "translations").read_bytes() == before[lang]
    page = root / "templates" / "home.html"
    page.write_text(page.read_text(encoding="utf-8")
                    + "{{ _('A brand new sentence.') }}\n", encoding="utf-8")
    report = update_catalogs(root)
    assert report["en"] == []
    for lang in ("ru", "uk", "pt-BR", "ja"):
        assert report[lang] == ["untranslated: 'A brand new sentence.'"]
    english = load(po_path("en", root / "app" / "translations"))
    assert english.get("A brand new sentence.").string == "A brand new sentence."


def load_template(path: Path):
    with path.open("rb") as source:
        return read_po(source)


def ids(catalog) -> set:
    return {m.id for m in catalog if m.id}
