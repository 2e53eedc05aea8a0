"""Card and action names as printed in each edition (RULES.md §4).

The edition decides the names on every screen; the language of the sentences is a separate
choice (a Ukrainian table may own the Russian box). Names are the box's own words, so they are
not translated. Where an edition's rulebook has no word (the Japanese seed names no Inquisitor,
the Ukrainian box has none), we use the nearest term a player of that edition would expect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.engine import ActionName, CardName
from app.engine.rulings import ENGLISH_ACTIONS, ENGLISH_CARDS, FactionName


@dataclass(frozen=True)
class Edition:
    key: str
    title: str  # the box, as a person would name it
    preset: str  # the rule preset it offers (FORMAT.md)
    cards: dict[str, str]
    actions: dict[str, str]
    factions: dict[str, str]


def _edition(key: str, title: str, preset: str, cards: list[str], actions: list[str],
             factions: dict[str, str] | None = None) -> Edition:
    return Edition(key, title, preset, dict(zip(ENGLISH_CARDS, cards, strict=True)),
                   dict(zip(ENGLISH_ACTIONS, actions, strict=True)),
                   factions or {"loyalist": "Loyalist", "reformist": "Reformist"})


EDITIONS: dict[str, Edition] = {
    e.key: e
    for e in (
        Edition("official", "Coup (Indie Boards & Cards, English)", "official",
                dict(ENGLISH_CARDS), dict(ENGLISH_ACTIONS),
                {"loyalist": "Loyalist", "reformist": "Reformist"}),
        _edition(
            "la_mame_ru_2015", "Переворот (La Mame, 2015)", "la_mame_ru_2015",
            ["Губернатор", "Убийца", "Полицейский", "Советник", "Княжна", "Следователь"],
            ["Доход", "Иностранная помощь", "Переворот", "Налог", "Убийство", "Воровство",
             "Обмен", "Допрос", "Обращение", "Растрата"],
            {"loyalist": "Лоялисты", "reformist": "Реформисты"},
        ),
        _edition(
            "mosigra_ru", "Переворот (Мосигра)", "mosigra_ru",
            ["Губернатор", "Убийца", "Полицейский", "Советник", "Княжна", "Следователь"],
            ["Доход", "Помощь извне", "Переворот", "Налог", "Убийство", "Воровство", "Обмен",
             "Допрос", "Обращение", "Растрата"],
            {"loyalist": "Лоялисты", "reformist": "Реформисты"},
        ),
        _edition(
            "ua_steampunk", "Coup: Паропанк (Lelekan)", "ua_steampunk",
            ["Герцог", "Вбивця", "Капітан", "Посол", "Графиня", "Інквізитор"],
            ["Дохід", "Іноземна допомога", "Викриття", "Податок", "Вбивство", "Крадіжка",
             "Обмін", "Допит", "Навернення", "Розтрата"],
            {"loyalist": "Лоялісти", "reformist": "Реформісти"},
        ),
        _edition(
            "bga_pt", "Coup (Board Game Arena, português)", "bga",
            ["Duque", "Assassino", "Capitão", "Embaixador", "Condessa", "Inquisidor"],
            ["Renda", "Ajuda externa", "Golpe de Estado", "Cobrar imposto", "Assassinar",
             "Roubar", "Trocar influências", "Examinar", "Converter", "Desfalcar"],
            {"loyalist": "Monarquistas", "reformist": "Populistas"},
        ),
        _edition(
            "ja", "クー (日本語版)", "official",
            ["公爵", "刺客", "船長", "大使", "女伯", "審問官"],
            ["収入", "援助", "クー", "徴税", "暗殺", "強奪", "交換", "尋問", "改宗", "横領"],
            {"loyalist": "カトリック", "reformist": "プロテスタント"},
        ),
    )
}
DEFAULT_EDITION = "official"


def edition(key: str | None) -> Edition:
    return EDITIONS.get(key or DEFAULT_EDITION, EDITIONS[DEFAULT_EDITION])


def namer(key: str | None) -> Callable[[str], str]:
    """A function naming CardName/ActionName values in this edition (for `render`)."""
    ed = edition(key)

    def name(value: str) -> str:
        if isinstance(value, CardName):
            return ed.cards.get(value, value)
        if isinstance(value, ActionName):
            return ed.actions.get(value, value)
        if isinstance(value, FactionName):
            return ed.factions.get(value, value)
        return value

    return name
