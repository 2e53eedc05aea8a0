"""What a native reader of each language found wrong in the catalogues, as checks on every
message, so that a new sentence can't bring the same kind of mistake back:

- a term that ends in a preposition (Mosigra's «накладывает вето на») must have its object
  after it, in every box of the language;
- a name in quotes stays in the nominative, so a verb never takes it as its object directly
  («Блокирует «Иностранная помощь»»): a generic noun («действие», «дію») carries the case;
- Portuguese puts no article before a card slot whose gender it can't know («o Condessa»);
- one concept keeps one word (the referee, a claim, a connected phone, the laptop), and the
  Russian game terms come only from the box's glossary, never written out;
- Ukrainian says «нема чого робити», not the Russian calque «нічого робити»;
- a Russian block verb with an object is the form that takes one (``blocks_on``: Mosigra's
  «накладывает вето на ваше действие», never «накладывает вето ваше действие»);
- a card claimed is named after its noun, with no colon between («заявив персонажа
  «Губернатор»», not «заявив персонажа: «Губернатор»»);
- a draw of no stated count says no plural «карты» («Боря берёт карты из колоды» for one
  card): it names no card, or a count picks the form (1 карта, 2 карты, 5 карт);
- a Russian or Ukrainian sentence about a named player has no past tense that tells a gender
  («Игрок Оля уже ввёл свои карты»);
- "Not now" and whom the table waits for read as two sentences, not «Не сейчас: Ждём: …»;
- an Embezzle claims to hold *no* Duke, on the tablet's buttons and status line alike;
- a phone says how many cards an exchange draws once, not twice;
- a setting with two values asks its question instead of asserting one of the answers;
- players' names in a sentence are listed with the language's own mark (Japanese 「、」);
- the Rules page names the card that exchanges at this table (the Inquisitor, where it plays);
- the undo's question quotes the step's words with the quotations in them nested the
  language's way («… („Налог“)», not «… («Налог»)»; 「…『徴税』…」);
- a claim is said as a player says it at the table («заявляет персонажа «Губернатор»»,
  «блокирует действие «Воровство» персонажем «Полицейский»»), never word for word from the
  English («заявляя, что имеет влияние на персонажа …» ran the tablet's block to five lines);
- a phone on its owner's turn says that it is their turn once, and what to do once («Ваш ход:
  выберите действие» stood above «Ваш ход: объявите действие»).
"""

from __future__ import annotations

import re

import pytest
from catalogkit import assert_none_match, translations

from app.editions import EDITIONS
from app.i18n import fill_terms, terms


def boxes_of(language: str) -> list[str]:
    """The editions whose words fill this language's sentences, and the default (official)."""
    return ["official", *(key for key, box in EDITIONS.items() if box.language == language)]


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_a_term_ending_in_a_preposition_is_followed_by_its_object(language):
    dangling = re.compile(r"(?<!\w)(на|до|у|в)\s*(?:$|[(.,;:!?»)])")
    problems = []
    for edition in boxes_of(language):
        words = terms(language, edition)
        for english, text in translations(language):
            filled = fill_terms(text, words)
            if dangling.search(filled):
                problems.append((edition, english, filled))
    assert not problems, problems


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_a_quoted_name_never_is_a_verb_s_direct_object(language):
    verb_then_name = re.compile(r"\{[Bb]locks?(?:_on|_pf|_pf_on|_inf)?\}\s*«%\(")
    assert_none_match(language, verb_then_name)


def test_a_russian_block_verb_with_an_object_takes_the_form_for_one():
    # {blocks} is «накладывает вето» at a Mosigra table: its object needs {blocks_on} («…на»).
    bare = re.compile(r"\{[Bb]locks?(?:_pf|_inf)?\}\s+(ваш|действи|эт|его|её|их|чуж|сво)")
    assert_none_match("ru", bare)


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_a_claimed_card_follows_its_noun_without_a_colon(language):
    colon = re.compile(r"(персонажа|персонажем|карту|карти|карты|картой|картою):\s*«%\(")
    assert_none_match(language, colon)


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_a_draw_of_no_stated_count_says_no_plural_cards(language):
    # A proof's or a swap's draw is one card, an exchange's two: where the English names no
    # number ("draws from the court deck"), the plural «карты» is wrong half the time.
    uncounted = re.compile(r"\bdraws?\b", re.IGNORECASE)
    counted = re.compile(r"\bcards\b|%\((n|num)\)s|\d")
    plural = re.compile(r"(?<!\w)карт[ыи](?!\w)")
    problems = [(english, text) for english, text in translations(language)
                if uncounted.search(english) and not counted.search(english)
                and not counted.search(text) and plural.search(text)]
    assert not problems, problems


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_a_claim_is_said_the_short_way(language):
    wordy = re.compile(r"влияни\w* на персонаж|имеет влияние|вплив\w* на персонаж|ма(є|єш) вплив|"
                       r"стверджу\w*, що ма")
    assert_none_match(language, wordy)


@pytest.mark.parametrize(("language", "edition", "headline"), [
    ("ru", "la_mame_ru_2015", "Bob блокирует действие «Воровство» персонажем «Полицейский»."),
    ("ru", "mosigra_ru", "Bob накладывает вето на действие «Воровство» персонажем «Полицейский»."),
    ("uk", "ua_steampunk", "Bob блокує дію «Крадіжка» персонажем «Капітан»."),
])
def test_the_tablet_s_block_headline_is_short(make_table, play, visible, language, edition,
                                               headline):
    table = make_table(language, edition=edition, browser_language=language)
    play["start"](table)
    table.step(do="steal", by="Ann", target="Bob")
    table.step(do="pass")
    table.step(do="block", by="Bob", **{"as": "captain"})
    assert headline in visible(table.page())


def test_portuguese_puts_no_article_before_a_card_of_unknown_gender():
    # «o Condessa», «ao Condessa»: a card slot follows a noun of known gender (a carta, o
    # personagem), never an article alone; the same for every card's own slot («o %(duke)s»).
    article = re.compile(r"(?<!\w)(o|a|os|as|ao|à|do|da|no|na|pelo|pela|um|uma)\s+"
                         r"%\((card|cards|duke|captain|assassin|ambassador|inquisitor|contessa"
                         r"|exchanger)\)s")
    assert_none_match("pt-BR", article)


# Words that a native reader found standing for a concept that has another word everywhere
# else (docs/TRANSLATING.md), or a game term written out instead of taken from the box.
ONE_WORD = {
    "ru": [r"утвержд", r"проверяющ", r"(?<!\w)атак", r"(?<!\w)вето(?!\w)", r"блокировк"],
    "uk": [r"підключ"],
    # A claim is «declarar ter a carta …» (BGA’s «declarar ter influência sobre», shortened as
    # a player says it), never «alegar»; letting it stand is «deixar passar»; Japanese says 行動
    # (the box’s 一般行動/人物行動).
    "pt-BR": [r"árbitro", r"outro lado", r"influência sobre", r"(?<!\w)aleg", r"deix\w* valer"],
    "ja": [r"ノートパソコン", r"ノートPC", r"アクション"],
}


@pytest.mark.parametrize("language", sorted(ONE_WORD))
def test_one_concept_keeps_one_word(language):
    problems = [(english, text) for english, text in translations(language)
                for word in ONE_WORD[language] if re.search(word, text)]
    assert not problems, problems


def test_ukrainian_says_there_is_nothing_to_do_its_own_way():
    # «нічого робити», «замінити нічим» are Russian («нечего делать»); Ukrainian says «нема чого
    # робити», «нема чим замінити».
    calque = re.compile(r"нічого\s+(\{\w+_inf\}|\w+ти(ся)?(?!\w))|нічим(?!\w)")
    assert_none_match("uk", calque)


def test_not_now_and_whom_the_table_waits_for_read_as_two_sentences():
    # «Не сейчас: Ждём: Ann — …» stacked two colons; each language joins them its own way.
    from app.i18n import LANGUAGES, Voice
    for language in LANGUAGES:
        voice = Voice(language)
        waiting = voice.format("Waiting for %(who)s.", who="Ann")
        said = voice.format("Not now: %(waiting)s", waiting=waiting)
        assert said.count(":") + said.count("：") <= 1, (language, said)


@pytest.mark.parametrize(("language", "edition", "claim"), [
    ("en", "official", "no Duke"),
    ("ru", "mosigra_ru", "без персонажа «Губернатор»"),
    ("pt-BR", "bga_pt", "sem Duque"),
])
def test_an_embezzle_says_it_claims_no_duke(make_table, play, visible, language, edition,
                                            claim):
    table = make_table(language, edition=edition, browser_language=language,
                       settings={"reformation": "true"})
    play["start"](table)
    words = visible(table.page())
    assert claim in words, "the declare button's note names what an Embezzle claims"
    table.step(do="embezzle", by="Ann")
    status = [line for line in visible(table.page()) if line.startswith("Ann: ")]
    assert status and status[0].endswith(f"({claim})"), status


def test_an_exchange_says_how_many_cards_to_draw_once(make_table, play, visible):
    table = make_table("ru", edition="la_mame_ru_2015", browser_language="ru")
    play["start"](table)
    table.step(do="income", by="Ann")
    table.step(do="income", by="Bob")
    table.step(do="exchange", by="Cy")
    table.step(do="pass")
    phone = " | ".join(visible(table.phone_page("Cy")))
    assert phone.count("Возьмите 2 карты из колоды влияния") == 1, phone


PLAYER_SLOT = re.compile(r"%\((name|target|challenger|claimant|by|actor|current|examiner)\)s")
# A past tense in Russian or Ukrainian tells a player's gender («ввёл», «взяв»): the sentences
# about a named player use the present, a participle or a noun instead.
GENDERED_PAST = re.compile(r"(?<!\w)(ввёл|ввела|взял|взяла|показал|проверил|атаковал|выбыл|"
                           r"ввів|ввела|взяв|взяла|показав|оскаржив|вибув|вибула)(?!\w)")


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_a_sentence_about_a_named_player_needs_no_gender(language):
    problems = [(english, text) for english, text in translations(language)
                if PLAYER_SLOT.search(text) and GENDERED_PAST.search(text)]
    assert not problems, problems


def test_a_setting_with_a_choice_asks_it_rather_than_asserting_one_answer():
    # «A target … may still block it» beside the value «may not block» told the reader two
    # opposite things; a setting's line asks (Whether…, Who…, Which…) and its value answers.
    from app.web.setting_words import SETTINGS
    asserting = [key for key, (explanation, values) in SETTINGS.items()
                 if len(values) == 2 and not isinstance(explanation.text, tuple)
                 and not explanation.text.startswith(
                     ("Whether", "Which", "Who", "When", "How", "Reformation:", "Two players:"))]
    assert not asserting, asserting


def test_players_names_in_a_sentence_are_listed_the_reader_s_way(make_table, play, visible):
    # «待機中：さくら, けんた» mixed a Latin comma into Japanese; 「、」 is its list mark.
    table = make_table("ja", browser_language="ja")
    play["start"](table)
    table.step(do="tax", by="Ann")
    assert "待機中：Bob、Cy（ダウトするか見送るか）。" in visible(table.page())
    english = make_table("en")
    play["start"](english)
    english.step(do="tax", by="Ann")
    assert "Waiting for Bob, Cy to challenge or let it stand." in visible(english.page())


def test_the_rules_page_names_the_card_that_exchanges_at_this_table(make_table, visible):
    # «Trocar influência depois de provar a carta Embaixador» named a card an Inquisitor game
    # doesn't have beside the Inquisitor's own exchange.
    table = make_table("pt-BR", browser_language="pt-BR", settings={"exchanger": "inquisitor"})
    rules = visible(table.page("/rules"))
    assert "Trocar influência depois de provar a carta Inquisidor" in rules
    plain = make_table("pt-BR", browser_language="pt-BR")
    assert "Trocar influências depois de provar a carta Embaixador" in visible(plain.page("/rules"))


@pytest.mark.parametrize("language", ["en", "ru", "uk", "pt-BR", "ja"])
def test_the_phone_whose_turn_it_is_says_so_once(make_table, play, language):
    from app.i18n import Voice
    table = make_table(language, browser_language=language)
    play["start"](table)
    phone = table.phone_page("Ann")
    alert = phone[phone.index('<section id="alert"'):]
    headline = re.search(r"<h2>(.*?)</h2>", alert, re.S).group(1)
    waiting = re.search(r'<p class="waiting">(.*?)</p>', phone, re.S).group(1)
    voice = Voice(language)
    assert headline == voice.format("Your turn.")
    assert waiting == voice.format("Declare an action.")
    turn = headline.rstrip(".。")
    assert f"{headline} {waiting}".count(turn) == 1, (headline, waiting)


@pytest.mark.parametrize(("language", "question"), [
    ("ru", "Отменить последний шаг — «Никто не проверяет. Ann берёт 3 монеты („Налог“)»? "
           "Все экраны узнают об этом."),
    ("uk", "Скасувати останній крок — «Ніхто не оскаржує. Ann бере 3 монети („Податок“)»? "
           "Усі екрани дізнаються про це."),
    ("ja", "最後の操作（「誰もダウトしない。 Annは『徴税』で金貨3枚を得る」）を取り消しますか？"
           "すべての画面に知らせます。"),
])
def test_the_undo_question_nests_the_quotations_it_quotes(make_table, play, language,
                                                          question):
    table = make_table(language, browser_language=language)
    play["start"](table)
    table.step(do="tax", by="Ann")
    table.step(do="pass")
    asked = re.findall(r'action="[^"]*/undo"[^>]*hx-confirm="([^"]*)"', table.page())
    assert asked == [question]


def test_a_quotation_inside_a_quotation_takes_the_inner_marks():
    from app.web.words import quoted_within
    assert quoted_within("Боря показывает карту «Губернатор»") == \
        "Боря показывает карту „Губернатор“"
    assert quoted_within("Ann says “no”") == "Ann says ‘no’"
    assert quoted_within("Annは「公爵」を見せる") == "Annは『公爵』を見せる"
    assert quoted_within("Ann’s Tax") == "Ann’s Tax"
