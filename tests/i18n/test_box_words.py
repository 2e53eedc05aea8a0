"""Each box speaks its own words on its screens: a table of each edition, in the language of
its rulebook, shows the rulebook's word for a challenge, a block, the court deck, the treasury,
the Reformation's reserve and influence (the glossary's words, and the words a player of that
box would look for)."""

from __future__ import annotations

import pytest

from app.editions import EDITIONS
from app.i18n import terms

# What a player who owns the box expects to read, written out independently of the glossary:
# the challenge and block buttons, the bar's labels, a cost that loses an influence (on the
# player's own phone, so in the second person).
BOX_WORDS = {
    "official": ["Nobody challenges", "Nobody blocks", "Court deck", "Treasury",
                 "Treasury Reserve", "you lose an influence"],
    "la_mame_ru_2015": ["Никто не проверяет", "Никто не блокирует", "Колода влияния", "Казна",
                        "Резерв казны", "вы теряете одно влияние"],
    "mosigra_ru": ["Никто не атакует", "Никто не накладывает вето", "Колода Двора", "Казна",
                   "Резерв казны", "вы теряете одно влияние"],
    "ua_steampunk": ["Ніхто не оскаржує", "Ніхто не блокує", "Колода двору", "Скарбниця",
                     "Резерв скарбниці", "ви втрачаєте 1 вплив"],
    "bga_pt": ["Ninguém desafia", "Ninguém bloqueia", "Baralho", "Banco", "Asilo",
               "você perde uma influência"],
    "ja": ["誰もダウトしない", "誰もブロックしない", "山札", "国庫", "救貧院",
           "あなたは影響力を1つ失い"],
}


def test_every_box_is_listed():
    assert set(BOX_WORDS) == set(EDITIONS)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_box_s_screens_use_its_own_words(make_table, play, visible, edition):
    box = EDITIONS[edition]
    table = make_table(box.language, edition=edition, browser_language=box.language,
                       settings={"reformation": "true"})
    play["start"](table)
    seen = []
    table.step(do="foreign_aid", by="Ann")  # a block window: everyone may block
    seen += visible(table.page())
    table.step(do="pass")
    table.step(do="tax", by="Bob")  # a challenge window on Bob's Duke, which he lacks
    seen += visible(table.page())
    table.step(do="challenge", by="Ann")
    seen += visible(table.phone_page("Bob"))  # what conceding costs: an influence
    text = " ".join(seen)
    missing = [words for words in BOX_WORDS[edition] if words not in text]
    assert not missing, f"{edition}: {missing} not on its screens"
    glossary = terms(box.language, edition)
    for key in ("challenges", "blocks", "influence"):
        assert glossary[key] in text, f"{edition}: the glossary's {key} «{glossary[key]}»"
    for key in ("deck", "treasury", "reserve"):
        word = glossary[key]
        assert word[:1].upper() + word[1:] in text, f"{edition}: the glossary's {key}"
