"""The boxes: each edition's card, action and faction names, and its own words for the game's
terms (RULES.md §4), in the language its rulebook is written in.

The edition decides the names on every screen; the language of the sentences is a separate
choice (a Ukrainian table may own the Russian box). Card, action and faction names are the box's
own words, so they are never translated: they fill the sentences' ``%(card)s`` and
``%(action)s`` slots whatever the language. The box's words for the game's terms (a challenge,
a block, the court deck...) are words of its own language, so they fill a sentence's ``{term}``
slots only when the sentence is in that language; any other language uses its own default words
(app/glossary.py). Where a rulebook has no word (the Japanese seed names no Inquisitor, the
Ukrainian box has none), we use the nearest one a player of that edition would expect.

Nothing here imports Flask: the web and the command line both read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.engine.rulings import ENGLISH_ACTIONS, ENGLISH_CARDS, ENGLISH_FACTIONS


@dataclass(frozen=True)
class Edition:
    key: str
    title: str  # the box, as a person would name it
    preset: str  # the rule preset it offers (FORMAT.md)
    language: str  # the language of its rulebook: its terms fill sentences in that language
    cards: dict[str, str]
    actions: dict[str, str]
    factions: dict[str, str]
    # An action's name when a given character takes it, where the box names it apart
    # ("exchange:inquisitor": the Inquisitor's one-card exchange is not the Ambassador's).
    by_character: dict[str, str] = field(default_factory=dict)
    # The box's own words for the game's terms, by the glossary's keys (app/glossary.py).
    terms: dict[str, str] = field(default_factory=dict)

    def action(self, key: str, character: str | None = None) -> str:
        if character is not None and f"{key}:{character}" in self.by_character:
            return self.by_character[f"{key}:{character}"]
        return self.actions.get(key, key)


def _edition(key: str, title: str, preset: str, language: str, cards: list[str],
             actions: list[str], factions: list[str], by_character: dict[str, str],
             terms: dict[str, str]) -> Edition:
    return Edition(key, title, preset, language, dict(zip(ENGLISH_CARDS, cards, strict=True)),
                   dict(zip(ENGLISH_ACTIONS, actions, strict=True)),
                   dict(zip(ENGLISH_FACTIONS, factions, strict=True)), by_character, terms)


# Russian: La Mame's rulebook says «проверка» and «колода влияния»; Mosigra's «атака» (Никто
# не атакует), «вето» (Губернатор имеет право вето) and the court deck «Двор» («колода Двора»).
# Both call the Inquisitor's action «Допрос», its one-card exchange included; the two kinds
# of Допрос are told apart on the buttons.
_RU_INQUISITOR = {"exchange:inquisitor": "Допрос (обмен)"}
_RU_CARDS = ["Губернатор", "Убийца", "Полицейский", "Советник", "Княжна", "Следователь"]
_RU_FACTIONS = ["Лоялисты", "Реформисты"]

EDITIONS: dict[str, Edition] = {
    e.key: e
    for e in (
        Edition("official", "Coup (Indie Boards & Cards, English)", "official", "en",
                dict(ENGLISH_CARDS), dict(ENGLISH_ACTIONS), dict(ENGLISH_FACTIONS)),
        _edition(
            "la_mame_ru_2015", "Переворот (La Mame, 2015)", "la_mame_ru_2015", "ru", _RU_CARDS,
            ["Доход", "Иностранная помощь", "Переворот", "Налог", "Убийство", "Воровство",
             "Обмен", "Допрос", "Обращение", "Растрата"],
            _RU_FACTIONS, _RU_INQUISITOR,
            {"deck": "колода влияния", "deck_acc": "колоду влияния",
             "deck_gen": "колоды влияния", "deck_prep": "колоде влияния"},
        ),
        _edition(
            "mosigra_ru", "Переворот (Мосигра)", "mosigra_ru", "ru", _RU_CARDS,
            ["Доход", "Помощь извне", "Переворот", "Налог", "Убийство", "Воровство", "Обмен",
             "Допрос", "Обращение", "Растрата"],
            _RU_FACTIONS, _RU_INQUISITOR,
            {"challenge": "атака", "challenge_acc": "атаку", "challenge_gen": "атаки",
             "challenge_prep": "атаке", "challenger": "атакующий",
             "challenges": "атакует", "challenge_inf": "атаковать",
             "challenge_pf": "атаковать", "challenged_pl": "атакуют",
             "block": "вето", "block_gen": "вето", "block_prep": "вето",
             "blocks": "накладывает вето", "blocks_on": "накладывает вето на",
             "block_inf": "накладывать вето",
             "block_pf": "наложить вето", "block_pf_on": "наложить вето на",
             "blocked": "предотвращено вето",
             "deck": "колода Двора", "deck_acc": "колоду Двора", "deck_gen": "колоды Двора",
             "deck_prep": "колоде Двора"},
        ),
        _edition(
            "ua_steampunk", "Coup: Паропанк (Lelekan)", "ua_steampunk", "uk",
            ["Герцог", "Вбивця", "Капітан", "Посол", "Графиня", "Інквізитор"],
            ["Дохід", "Іноземна допомога", "Викриття", "Податок", "Вбивство", "Крадіжка",
             "Обмін", "Допит", "Навернення", "Розтрата"],
            ["Лоялісти", "Реформісти"],
            {},
            {},  # the Ukrainian language's own words are this box's (app/glossary.py)
        ),
        _edition(
            "bga_pt", "Coup (Board Game Arena, português)", "bga", "pt-BR",
            ["Duque", "Assassino", "Capitão", "Embaixador", "Condessa", "Inquisidor"],
            ["Renda", "Ajuda externa", "Golpe de Estado", "Cobrar imposto", "Assassinar",
             "Roubar", "Trocar influências", "Examinar", "Converter", "Desfalcar"],
            ["Monarquistas", "Populistas"],
            {"exchange:inquisitor": "Trocar influência"},  # BGA's singular: one card
            {},  # Brazilian Portuguese's own words are BGA's (app/glossary.py)
        ),
        _edition(
            "ja", "クー (日本語版)", "official", "ja",
            ["公爵", "刺客", "船長", "大使", "女伯", "審問官"],
            ["収入", "援助", "クー", "徴税", "暗殺", "強奪", "交換", "尋問", "改宗", "横領"],
            ["カトリック", "プロテスタント"],
            {},
            # The Japanese summary names the Reformation's reserve only by the English word
            # printed on its card (「Almshouse」); a Japanese screen says it in Japanese, with
            # the language's own word, 救貧院 (app/glossary.py).
            {},
        ),
    )
}
DEFAULT_EDITION = "official"

# The box a player reading each language most likely owns: the start page offers it first.
USUAL_EDITION = {"en": "official", "ru": "la_mame_ru_2015", "uk": "ua_steampunk",
                 "pt-BR": "bga_pt", "ja": "ja"}


def edition(key: str | None) -> Edition:
    return EDITIONS.get(key or DEFAULT_EDITION, EDITIONS[DEFAULT_EDITION])


def usual_edition(language: str) -> str:
    return USUAL_EDITION.get(language, DEFAULT_EDITION)


def edition_of_rules(rules: dict[str, object], language: str) -> str:
    """The box a game record was played with, as its rules tell it: the app's download writes
    the box's own preset (FORMAT.md has no key for the box, and a reader refuses a key it does
    not define), and each Russian, Ukrainian and Portuguese box has a preset of its own. The
    official rules are the English and the Japanese box's alike, and a record may give no
    preset: then the box is the reader's, the usual one of the tablet's language."""
    preset = rules.get("preset")
    boxes = [key for key, box in EDITIONS.items() if box.preset == preset]
    return boxes[0] if len(boxes) == 1 else usual_edition(language)
