"""Each language's own words for the game's terms: what its sentences' ``{term}`` slots say
unless the table's box, written in that language, has words of its own (app/editions.py).

A translator writes "Никто не {challenges}" where the English says "Nobody challenges": at a
Mosigra table that reads «Никто не атакует», at a La Mame table «Никто не проверяет». An
inflected language needs a word in several forms, so a term has a key per form the language's
sentences use (``deck_gen``: the court deck in the genitive); a language only lists the forms
its own sentences need. ``{Deck}`` is the same word with a capital, for a sentence's start.

Every language has at least the head words below (the nominative, or the dictionary form) and
the third person singular of "challenge" and "block" (what "Nobody challenges" needs): the
tests look for them on each box's screens. English sentences are the source and spell the
official box's words out, so the English entry only records them.
"""

from __future__ import annotations

HEADWORDS = ("challenge", "block", "deck", "treasury", "reserve", "influence")
REQUIRED = (*HEADWORDS, "challenges", "blocks")

TERMS: dict[str, dict[str, str]] = {
    "en": {
        "challenge": "challenge", "challenges": "challenges",
        "block": "block", "blocks": "blocks",
        "deck": "court deck", "treasury": "treasury", "reserve": "Treasury Reserve",
        "influence": "influence",
    },
    # La Mame's words, the first Russian box; Mosigra's differ (app/editions.py).
    "ru": {
        "challenge": "проверка", "challenge_acc": "проверку", "challenge_gen": "проверки",
        "challenger": "проверяющий",
        "challenge_prep": "проверке", "challenges": "проверяет", "challenged_pl": "проверяют",
        "challenge_inf": "проверять", "challenge_pf": "проверить",
        "block": "блокировка", "block_gen": "блокировки", "block_prep": "блокировке",
        "blocks": "блокирует", "blocks_on": "блокирует",
        "block_inf": "блокировать", "block_pf": "заблокировать",
        "block_pf_on": "заблокировать", "blocked": "заблокировано",
        "deck": "колода", "deck_acc": "колоду", "deck_gen": "колоды", "deck_prep": "колоде",
        "treasury": "казна", "treasury_acc": "казну", "treasury_gen": "казны",
        "treasury_prep": "казне",
        "reserve": "резерв казны", "reserve_gen": "резерва казны",
        "reserve_prep": "резерве казны",
        "influence": "влияние",
    },
    # The steampunk box's words (Lelekan), the one Ukrainian box.
    "uk": {
        "challenge": "оскарження", "challenge_gen": "оскарження",
        "challenges": "оскаржує", "challenged_pl": "оскаржують",
        "challenge_inf": "оскаржувати", "challenge_pf": "оскаржити",
        "block": "блокування", "blocks": "блокує",
        "block_inf": "блокувати", "block_pf": "заблокувати",
        "deck": "колода двору", "deck_acc": "колоду двору", "deck_gen": "колоди двору",
        "deck_loc": "колоді двору",
        "treasury": "скарбниця", "treasury_acc": "скарбницю", "treasury_gen": "скарбниці",
        "reserve": "резерв скарбниці", "reserve_gen": "резерву скарбниці",
        "reserve_loc": "резерві скарбниці",
        "influence": "вплив",
    },
    # Board Game Arena's words (Brazilian Portuguese).
    "pt-BR": {
        "challenge": "desafio", "challenges": "desafia", "challenge_inf": "desafiar",
        "block": "bloqueio", "blocks": "bloqueia", "block_inf": "bloquear",
        "deck": "baralho", "the_deck": "o baralho", "of_deck": "do baralho",
        "to_deck": "ao baralho", "in_deck": "no baralho",
        "treasury": "Banco", "the_treasury": "o Banco", "to_treasury": "ao Banco",
        "reserve": "Asilo", "the_reserve": "o Asilo", "of_reserve": "do Asilo",
        "to_reserve": "ao Asilo",
        "influence": "influência",
    },
    # The Japanese edition's words. Its summary names the Reformation's reserve only by the
    # English word on the card, 「Almshouse」; 救貧院 is that word in Japanese (an almshouse),
    # on every box's screens.
    "ja": {
        "challenge": "ダウト", "challenges": "ダウトする",
        "block": "ブロック", "blocks": "ブロックする",
        "deck": "山札", "treasury": "国庫", "reserve": "救貧院", "influence": "影響力",
    },
}
