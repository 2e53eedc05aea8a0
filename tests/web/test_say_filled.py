"""A sentence drawn in Python (app.web.i18n.say and nsay) is filled as a string where its
values are plain strings and ints, the same bytes as Markup's own ``%``: every sentence of
every catalogue, with names that must be escaped, plain words, counts, and values of other
kinds (markup, a str subclass, None) that Markup's ``%`` still fills."""

from __future__ import annotations

import re

import pytest
from markupsafe import Markup

from app.editions import usual_edition
from app.i18n import LANGUAGES, Voice, catalog
from app.web.i18n import nsay, say

NAMES = re.compile(r"%\((\w+)\)s")
NASTY = '<b>Ann & "Bo"</b>\''


class Card(str):
    """A str subclass, as the engine's card and action names are."""


KINDS = [lambda n: NASTY, lambda n: f"Cy{n}", lambda n: n, lambda n: Markup("<i>x</i>"),
         lambda n: Card("duke"), lambda n: None]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_is_filled_as_markup_fills_it(language: str) -> None:
    voice = Voice(language, usual_edition(language))
    sentences = [msgid for msgid in catalog("ru")._catalog  # every catalogue's own ids
                 if isinstance(msgid, str) and "%(" in msgid]
    sentences += ["%(name)s’s turn", "Undo the last step (“%(said)s”)? Every screen will be "
                  "told.", "%(name)s blocks with the %(card)s", "100%% %(name)s"]
    filled = 0
    for sentence in sentences:
        names = NAMES.findall(sentence)
        for kind in range(len(KINDS)):
            values = {name: KINDS[(kind + i) % len(KINDS)](i) for i, name in enumerate(names)}
            assert say(voice, sentence, **values) == \
                Markup(voice.gettext(sentence)) % values, (sentence, values)
            filled += 1
    assert filled > 500


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("num", [0, 1, 2, 5, 21])
def test_a_count_is_filled_as_markup_fills_it(language: str, num: int) -> None:
    voice = Voice(language, usual_edition(language))
    for values in ({}, {"name": NASTY}, {"name": "Ann"}, {"name": Markup("<i>Ann</i>")}):
        said = nsay(voice, "%(num)s coin", "%(num)s coins", num, **values)
        assert said == Markup(voice.ngettext("%(num)s coin", "%(num)s coins", num)) % {
            "num": num, **values}
        assert isinstance(said, Markup)
