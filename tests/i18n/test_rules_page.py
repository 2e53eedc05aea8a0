"""The Rules page explains every rule code that a ruling, a refusal or a prompt can cite, in
every language and with the edition's names, each under an anchor the rule tags link to; and
docs/RULES.md explains every code and every rule setting for a reader of the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape

from app.engine.rules import KEYS
from app.i18n import LANGUAGES, Voice
from app.web import rulebook, setting_words

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"\bE-(\d+)\b")
ALL_CODES = [f"E-{n}" for n in range(1, 41)]
NATIVE_EDITION = {"en": "official", "ru": "la_mame_ru_2015", "uk": "ua_steampunk",
                  "pt-BR": "bga_pt", "ja": "ja"}


def cited_codes() -> set[str]:
    """Every rule code written in the app's code and templates: the engine's rulings, errors
    and prompts cite them in their texts and ``rule`` fields (the Rules page's own content and
    the catalogues aside)."""
    files = [*(ROOT / "app").rglob("*.py"), *(ROOT / "templates").rglob("*.html")]
    found = set()
    for path in files:
        if path.name in ("rulebook.py", "rules.html"):
            continue
        found |= {f"E-{n}" for n in CODE.findall(path.read_text(encoding="utf-8"))}
    return found


def test_the_engine_cites_rule_codes_and_each_has_an_explanation():
    cited = cited_codes()
    engine = {f"E-{n}" for path in (ROOT / "app" / "engine").rglob("*.py")
              for n in CODE.findall(path.read_text(encoding="utf-8"))}
    assert len(engine) > 20 and engine <= cited  # the grep finds what the engine cites
    explained = [rule.code for rule in rulebook.RULES]
    assert explained == ALL_CODES  # every code of the rules spec, in order, once
    assert cited <= set(explained), sorted(cited - set(explained))


def test_the_settings_a_rule_names_are_settings_of_the_table():
    for rule in rulebook.RULES:
        assert set(rule.settings) <= set(setting_words.SETTINGS), rule.code


def expected(language: str, edition: str) -> dict[str, tuple[str, str]]:
    """Each rule's title and text as the page must show them: translated, names filled in."""
    voice = Voice(language, edition)
    return {rule.code: rulebook.explain(rule, voice) for rule in rulebook.RULES}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_page_explains_every_code_in_every_language(make_table, language):
    edition = NATIVE_EDITION[language]
    html = make_table(language, edition=edition).page("/rules")
    wanted = expected(language, edition)
    english = expected("en", edition)
    for code, (title, text) in wanted.items():
        assert html.count(f'id="{code}"') == 1, code
        assert str(escape(title)) in html, (code, title)
        assert str(escape(text)) in html, (code, text)
        if language != "en":  # translated, not the English left in place
            assert title != english[code][0] and text != english[code][1], (language, code)
        assert "%(" not in title + text  # every name filled in


def test_the_texts_name_cards_and_actions_as_the_box_does(make_table):
    html = make_table("en", edition="ua_steampunk").page("/rules")
    e9 = html[html.index('id="E-9"'):html.index('id="E-10"')]
    assert "Крадіжка" in e9 and "Герцог" in e9 and "Duke" not in e9
    html = make_table("ru", edition="mosigra_ru").page("/rules")
    e24 = html[html.index('id="E-24"'):html.index('id="E-25"')]
    assert "«Помощь извне»" in e24 and "«Губернатор»" in e24


def test_a_rule_shows_what_this_table_chose_and_links_to_the_setting(make_table):
    table = make_table("en", edition="la_mame_ru_2015")  # its preset: no refund (E-15)
    html = table.page("/rules")
    e15 = html[html.index('id="E-15"'):html.index('id="E-16"')]
    assert 'href="#setting-refund_on_successful_challenge"' in e15
    assert "kept by the treasury" in e15
    for key in set(re.findall(r'href="#setting-(\w+)"', html)):
        assert f'id="setting-{key}"' in html, key
    assert set(re.findall(r'id="setting-(\w+)"', html)) == set(setting_words.SETTINGS)


def test_a_phone_reads_the_rules_in_its_own_language(make_table):
    table = make_table("en")
    html = table.phone_page("Ann", "/rules")
    assert all(f'id="{code}"' in html for code in ALL_CODES)
    assert "Only the target may block a Steal or an Assassinate." in html


def test_docs_rules_explains_every_code_and_every_setting():
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    for code in ALL_CODES:
        assert text.count(f'<a id="{code}"></a>') == 1, code
        assert f"**{code}. " in text, code
    for key in KEYS:
        assert f"| `{key}`" in text, key


def test_e_1_explains_the_block_after_a_lost_challenge_for_every_targeted_action(make_table):
    """E-1 is cited whenever a target who lost a challenge may still block, a Steal as much as
    an Assassination: its title and text on the Rules page say so, not the Assassin alone."""
    html = make_table("en").page("/rules")
    e1 = html[html.index('id="E-1"'):html.index('id="E-2"')]
    assert "may still block" in e1
    assert "Assassinate" in e1 and "Steal" in e1 and "Captain" in e1
