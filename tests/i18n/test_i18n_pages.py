"""Pages in every language: no English left on the key screens, and the edition's names
everywhere whatever the language (through the Flask test client)."""

from __future__ import annotations

import re

import pytest

from app.editions import EDITIONS
from app.i18n import LANGUAGES
from app.web.words import LANGUAGE_TITLES

TRANSLATED = [code for code in LANGUAGES if code != "en"]
NON_LATIN = {"ru", "uk", "ja"}
NAMES = {"Ann", "Bob", "Cy"}
# Words that stay as they are in every language: rule references (E-14), the names of rule
# settings (steal_from_zero), file types, and the names of boxes and sites.
KEPT = re.compile(
    r"\bE-\d+\b|\b[a-z]+(?:_[a-z]+)+\b|\.json\b|https?://\S+|\bBoard Game Arena\b"
    r"|\bLa Mame\b|\bMosigra\b|\bCoup\b|\bIndie Boards & Cards\b|\bLelekan\b|\bBGA\b")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
LINK = re.compile(r"https?://\S+")


def leftover_english(parts: list[str], english_parts: list[str], language: str) -> list[str]:
    """The visible strings of a page that are still English.

    A string is suspect when the same page in English shows it too (a Latin-script language
    can only be checked that way), or, for Cyrillic and Japanese, when it holds any Latin
    word. Player names, the edition's titles, names and own words (Mosigra's «колода
    Двора»), and the languages' own names are what they are in every language, so they
    are taken out first.
    """
    kept_words = set(NAMES) | set(LANGUAGE_TITLES.values())
    for ed in EDITIONS.values():
        kept_words |= {ed.title, *ed.cards.values(), *ed.actions.values(),
                       *ed.by_character.values(), *ed.factions.values(), *ed.terms.values()}
    english = {clean(p, kept_words) for p in english_parts}
    found = []
    for part in parts:
        rest = clean(part, kept_words)
        if not LATIN_WORD.search(rest):
            continue
        if rest in english or language in NON_LATIN:
            found.append(part)
    return found


def clean(text: str, kept_words: set[str]) -> str:
    # Links first: a name inside a seat link's random token ("…/s/xCyz…") must not cut the
    # link in two and leave half of it to look like an English word.
    text = LINK.sub(" ", text)
    for word in sorted(kept_words, key=len, reverse=True):
        text = text.replace(word, " ")
    return " ".join(KEPT.sub(" ", text).split())


def pages(make_table, play, language: str) -> dict[str, tuple[str, ...]]:
    """The key screens of one table in ``language``: (tablet or phone, path) per screen."""
    table = make_table(language, browser_language=language)
    screens = {
        "home": table.tablet.get("/", headers={"Accept-Language": language}).text,
        "tablet lobby": table.page(),
        "phone lobby": table.phone_page("Ann"),
    }
    play["mid_game"](table)
    screens["tablet mid-game"] = table.page()
    screens["phone prompt"] = table.phone_page("Bob")
    screens["phone waiting"] = table.phone_page("Cy")
    screens["rules"] = table.page("/rules")
    return screens


@pytest.mark.parametrize("language", TRANSLATED)
def test_key_screens_show_no_english(make_table, play, visible, language):
    english = pages(make_table, play, "en")
    translated = pages(make_table, play, language)
    problems = {}
    for screen, html in translated.items():
        found = leftover_english(visible(html), visible(english[screen]), language)
        if found:
            problems[screen] = found
    assert not problems, f"English left in {language}: {problems}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_page_declares_its_language(make_table, play, language):
    table = make_table(language, browser_language="en")
    assert f'<html lang="{language}">' in table.page()
    assert f'<html lang="{language}">' in table.phone_page("Ann")


def test_the_home_page_follows_the_browsers_language(app):
    client = app.test_client()
    html = client.get("/", headers={"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}).text
    assert '<html lang="uk">' in html and "Новий стіл" in html
    assert '<option value="uk" lang="uk" selected>' in html  # the table's language, preset
    assert '<option value="ua_steampunk" selected>' in html  # and the usual box for it
    html = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).text
    assert '<html lang="en">' in html and "New table" in html


def test_the_table_language_chosen_on_the_home_page_is_the_tablets(make_table):
    table = make_table("ja", browser_language="ru")
    assert '<html lang="ja">' in table.page()
    assert "プレイヤーの着席" in table.page()


def test_an_unknown_table_language_falls_back_to_the_browsers(make_table):
    table = make_table("xx", edition="official", browser_language="pt-BR")
    assert '<html lang="pt-BR">' in table.page()


def test_each_phone_may_switch_its_own_language(make_table):
    table = make_table("ru")
    html = table.phone_page("Ann")
    csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    answer = table.phones["Ann"].post(table.links["Ann"] + "/language",
                                      data={"csrf": csrf, "language": "pt-BR"},
                                      headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert "Salvar minha mão" in table.phone_page("Ann")
    assert "Сохранить карты" in table.phone_page("Bob")  # the others keep the table's
    assert '<html lang="ru">' in table.page()


def test_the_ukrainian_edition_names_the_duke_herzog_in_an_english_ui(make_table, play,
                                                                          visible):
    table = make_table("en", edition="ua_steampunk")
    lobby_phone = " ".join(visible(table.phone_page("Ann")))
    assert "Герцог" in lobby_phone and "Duke" not in lobby_phone
    play["start"](table)
    table.step(do="tax", by="Ann")
    tablet = " ".join(visible(table.page()))
    assert "Does anyone challenge Ann’s Герцог?" in tablet
    assert "Ann claims the Герцог: Податок." in tablet
    assert "Duke" not in tablet
    phone = " ".join(visible(table.phone_page("Ann")))
    assert "Герцог" in phone and "Duke" not in phone
    rules = " ".join(visible(table.page("/rules")))
    assert "Герцог" in rules and "Податок" in rules
    assert "Edition: Coup: Паропанк (Lelekan)" in rules


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_edition_names_its_cards_on_the_tablet_and_the_phones(make_table, play,
                                                                     visible, edition):
    ed = EDITIONS[edition]
    table = make_table("en", edition=edition)
    play["start"](table)
    table.step(do="tax", by="Ann")
    tablet = " ".join(visible(table.page()))
    assert ed.cards["duke"] in tablet and ed.actions["tax"] in tablet
    phone = " ".join(visible(table.phone_page("Ann")))
    assert ed.cards["duke"] in phone and ed.cards["captain"] in phone
    if edition != "official":
        assert "Duke" not in tablet + phone and "Tax" not in tablet + phone


NOTHING_HERE = "There is nothing here. The link may be old: ask the referee for a new one."


def said_in(language: str, text: str) -> str:
    from app.i18n import Voice
    return Voice(language).format(text).replace("’", "&#39;").replace("'", "&#39;")


@pytest.mark.parametrize("language", ["ru", "uk", "ja"])
def test_an_old_link_of_a_table_speaks_the_table_s_language(app, make_table, language):
    """A link that names its table (the referee's, the spectators') and leads nowhere now
    reads in the table's language, whatever the browser's (English here)."""
    table = make_table(language)
    table_id = table.url.rstrip("/").split("/t/")[1]
    for path in (f"{table.url}/no-such-page", f"/w/{table_id}/an-old-key"):
        response = table.tablet.get(path)
        assert response.status_code == 404, path
        assert said_in(language, NOTHING_HERE) in response.text, path
    stranger = app.test_client()
    stranger.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    response = stranger.get(table.url)
    assert response.status_code == 403
    assert 'lang="' + language + '"' in response.text


@pytest.mark.parametrize(("browser", "language"), [("uk", "uk"), ("fr", "en"), ("", "en")])
def test_a_link_of_no_table_speaks_the_browser_s_language(app, browser, language):
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = browser
    for path in ("/t/no-such-table/view", "/s/no-such-seat", "/nowhere"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert said_in(language, NOTHING_HERE) in response.text, path
