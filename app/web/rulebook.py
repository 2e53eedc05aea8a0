"""The Rules page's content: every rule code (E-1 to E-40) explained in plain words.

Rulings, refusals and prompts cite a code where the rulebooks left a choice or are easily
misread; a player taps the tag and reads the rule here, in their own language, with the card
and action names of the table's box. The texts name cards and actions only through
placeholders (``%(duke)s``, ``%(steal)s``: every key of the engine's cards and actions), so
each edition fills in its own names. Where a rule setting changes the answer, the page also
shows what this table chose. ``docs/RULES.md`` says the same at more length, in English.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine.rulings import ENGLISH_ACTIONS, ENGLISH_CARDS
from app.i18n import Voice
from app.web import views, words
from app.web.rule_texts import RULES, Rule
from app.web.state import TableState


@dataclass(frozen=True)
class Explained:
    """A rule as this table's page shows it."""

    code: str
    title: str
    text: str
    settings: list[tuple[str, str, str]]  # (key, explanation, this table's value)


def names(voice: Voice) -> dict[str, str]:
    """Every card and action, named as the table's box names it (the texts' placeholders)."""
    return {**{key: voice.card(key) for key in ENGLISH_CARDS},
            **{key: voice.action(key) for key in ENGLISH_ACTIONS},
            # The card whose exchange this table plays: an Inquisitor game has no Ambassador.
            "exchanger": voice.card(voice.exchanger)}


def explain(rule: Rule, voice: Voice) -> tuple[str, str]:
    """The rule's title and text in the reader's language, with the box's names and words."""
    named = names(voice)
    return voice.format(rule.title, **named), voice.format(rule.text, **named)


def explained(state: TableState, rows: list[tuple[str, str, str]]) -> list[Explained]:
    """Every rule code, with what this table chose (``rows``: ``views.rules_summary``) for the
    settings that change it."""
    settings = {row[0]: row for row in rows}
    voice = words.table_voice(state)
    found = []
    for rule in RULES:
        title, text = explain(rule, voice)
        found.append(Explained(rule.code, title, text, [settings[k] for k in rule.settings]))
    return found


def page(state: TableState) -> dict[str, Any]:
    """What the Rules page shows besides the names every screen has: this table's settings
    and every rule code."""
    rows = views.rules_summary(state)
    return {"rows": rows, "codes": explained(state, rows)}
