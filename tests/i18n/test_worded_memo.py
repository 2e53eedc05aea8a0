"""The memo of worded rulings (app/i18n.py): it never keeps a ruling alive, never answers for
another ruling, and says the same words as the voice itself."""

from __future__ import annotations

import gc
import weakref

import app.i18n as i18n
from app.engine.rulings import Ruling, card
from app.i18n import Voice

STEAL = "%(name)s steals %(n)s coins from %(target)s."


def test_a_ruling_is_worded_as_the_voice_says_it_once_and_again():
    voice = Voice("ru", "official")
    r = Ruling("%(name)s shows the %(card)s.", {"name": "Ann", "card": card("duke")})
    said = voice.say(r.text, r.params, r.count)
    assert voice.ruling(r) == said
    assert voice.ruling(r) == said  # from the memo


def test_the_memo_does_not_keep_a_ruling_alive():
    r = Ruling(STEAL, {"name": "Ann", "n": 2, "target": "Bob"}, count="n")
    Voice().ruling(r)
    gone = weakref.ref(r)
    del r
    gc.collect()
    assert gone() is None


def test_a_ruling_made_after_another_is_gone_gets_its_own_words():
    """A new ruling may take a gone one's id: it is never answered with the gone one's words."""
    voice = Voice()
    for n in range(200):  # enough gone rulings to reuse ids and to empty the gone ones' list
        r = Ruling(STEAL, {"name": f"Ann{n}", "n": 2, "target": "Bob"}, count="n")
        assert voice.ruling(r) == f"Ann{n} steals 2 coins from Bob."
        del r
    for n in range(2 * i18n.GONE_KEPT):
        assert voice.ruling(Ruling("%(name)s is out.", {"name": f"P{n}"})) == f"P{n} is out."


def test_the_entries_of_gone_rulings_are_dropped():
    voice = Voice("ja", "official")
    before = len(i18n._worded_memo)
    for n in range(3 * i18n.GONE_KEPT):
        voice.ruling(Ruling("%(name)s is out.", {"name": f"Q{n}"}))
    gc.collect()
    assert len(i18n._worded_memo) - before <= i18n.GONE_KEPT + 1


def test_a_ruling_to_one_player_is_worded_as_adapted_for_each_player():
    """``ruling_to`` says ``adapt(r, you)``: each player's own words, remembered apart, and
    the ruling itself for a player it doesn't concern."""
    voice = Voice("ru", "official")
    r = Ruling("%(name)s shows the %(card)s.", {"name": "Ann", "card": card("duke")})
    made: list[str] = []

    def to_ann(line: Ruling, you: str) -> Ruling:
        made.append(you)
        return Ruling("%(card)s", line.params) if you == "Ann" else line

    for _ in range(3):
        assert voice.ruling_to(r, "Ann", to_ann) == voice.say("%(card)s", r.params)
        assert voice.ruling_to(r, "Bob", to_ann) == voice.ruling(r)
    assert made.count("Ann") == 3  # adapted at every call, but worded once (no new entry)
    entries = [key for key in i18n._worded_memo if key[1] == id(r)]
    assert sorted(str(key[2]) for key in entries) == sorted([str((to_ann, "Ann")), "None"])


def test_the_claim_of_an_action_is_one_ruling_for_the_same_rules():
    """So the memo of worded rulings finds a declared action's claim again at each version."""
    from app.engine import claim_words, parse_rules
    rules = parse_rules({})
    assert claim_words(rules, "tax") is claim_words(parse_rules({}), "tax")
    assert Voice().ruling(claim_words(rules, "tax")) == "Duke"


def test_a_requests_voice_is_one_object_for_its_three_words(app):
    """app.web.i18n.voice gives the same Voice for the same language, box and exchanger (the
    memos then find it by identity, not by the dataclass's __eq__), and its own to another."""
    from flask import g

    from app.web.i18n import voice

    with app.test_request_context():
        g.language = "ru"
        mosigra = voice("mosigra_ru")
        assert voice("mosigra_ru") is mosigra and mosigra == Voice("ru", "mosigra_ru")
        other = voice("mosigra_ru", "inquisitor")
        assert other is not mosigra and other == Voice("ru", "mosigra_ru", "inquisitor")
        assert voice() == Voice("ru", "la_mame_ru_2015") and voice() is voice()
        g.language = "en"
        assert voice("mosigra_ru") == Voice("en", "mosigra_ru") and voice() is not mosigra


def test_voices_that_differ_in_one_word_are_remembered_apart():
    """The memos of translated sentences and worded rulings hold a voice as its three words
    (they hash in C): a box or an exchanger of its own gets its own words, each time, in
    turn with the others, as a voice made afresh says them."""
    from app.engine.rulings import ActionName

    exchange = Ruling("%(action)s", {"action": ActionName("exchange")})
    boxes = [("ru", "la_mame_ru_2015", "ambassador"), ("ru", "la_mame_ru_2015", "inquisitor"),
             ("ru", "mosigra_ru", "ambassador"), ("en", "official", "inquisitor")]
    for _ in range(2):
        for words in boxes:
            voice = Voice(*words)
            assert voice.ruling(exchange) == voice.say(exchange.text, exchange.params)
            for text in ("Challenge", "Court deck"):
                assert voice.gettext(text) == i18n.fill_terms(
                    i18n.catalog(voice.language).gettext(text),
                    i18n.terms(voice.language, voice.edition))
    worded = {Voice(*words).ruling(exchange) for words in boxes}
    assert {"Обмен", "Допрос (обмен)"} <= worded
    assert Voice("ru", "la_mame_ru_2015").gettext("Court deck") != \
        Voice("ru", "mosigra_ru").gettext("Court deck")
