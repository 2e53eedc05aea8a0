"""Rulings: what happened and why, in words a person can read aloud at the table.

A ruling is an English template (`%(name)s` placeholders) plus its values, so a translation
layer can translate the template and the card and action names separately. Templates are
marked with `N_` so that message extraction finds them; `N_` itself does nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


def N_(text: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark a template for extraction; translation happens when it is shown."""
    return text


class CardName(str):
    """A character name inside a ruling's values: shown in the table's edition and language."""


class ActionName(str):
    """An action name inside a ruling's values."""


ENGLISH_CARDS = {
    "duke": "Duke",
    "assassin": "Assassin",
    "captain": "Captain",
    "ambassador": "Ambassador",
    "contessa": "Contessa",
    "inquisitor": "Inquisitor",
}
ENGLISH_ACTIONS = {
    "income": "Income",
    "foreign_aid": "Foreign Aid",
    "coup": "Coup",
    "tax": "Tax",
    "assassinate": "Assassinate",
    "steal": "Steal",
    "exchange": "Exchange",
    "examine": "Examine",
    "convert": "Convert",
    "embezzle": "Embezzle",
}


def english_name(value: str) -> str:
    if isinstance(value, CardName):
        return ENGLISH_CARDS.get(value, value)
    if isinstance(value, ActionName):
        return ENGLISH_ACTIONS.get(value, value)
    return value


def render(
    text: str,
    params: Mapping[str, object],
    name: Callable[[str], str] = english_name,
    translate: Callable[[str], str] = str,
) -> str:
    """Fill a template, naming cards and actions with `name` (English by default).

    A value may itself be a Ruling (rendered the same way) or a list of them (joined with
    "; "), so a sentence can embed another one, e.g. whom the table is waiting for.
    """

    def value(v: object) -> object:
        if isinstance(v, Ruling):
            return render(v.text, v.params, name, translate)
        if isinstance(v, list | tuple) and all(isinstance(x, Ruling) for x in v):
            return "; ".join(str(value(x)) for x in v)
        if isinstance(v, str):
            return name(v)
        return v

    values = {k: value(v) for k, v in params.items()}
    template = translate(text)
    try:
        return template % values
    except (KeyError, TypeError, ValueError):
        return template


@dataclass(frozen=True)
class Ruling:
    """One line of the public log. `rule` names the edge case (E-n) when the ruling was a choice."""

    text: str
    params: dict[str, object] = field(default_factory=dict)
    rule: str | None = None

    def english(self) -> str:
        line = render(self.text, self.params)
        return f"{line} ({self.rule})" if self.rule else line


def card(value: str) -> CardName:
    return CardName(value)


def action(value: str) -> ActionName:
    return ActionName(value)
