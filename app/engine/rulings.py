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


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802
    """Mark a template with plural forms (`ngettext`); the count is a named value."""
    return singular, plural


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


ENGLISH_FACTIONS = {"loyalist": "Loyalist", "reformist": "Reformist"}


def english_name(value: str) -> str:
    if isinstance(value, FactionName):
        return ENGLISH_FACTIONS.get(value, value)
    if isinstance(value, CardName):
        return ENGLISH_CARDS.get(value, value)
    if isinstance(value, ActionName):
        return ENGLISH_ACTIONS.get(value, value)
    return value


Translate = Callable[[str], str]
# TRANSLATORS: joins the parts of one sentence ("Ann to declare an action; Bob to draw...").
SEPARATOR = N_("; ")
# TRANSLATORS: joins a list: players' names ("Ann, Bob"), the totals of `check`.
LIST_SEPARATOR = N_(", ")


class Names(tuple[str, ...]):
    """Players' names as one value of a sentence, joined the reader's way ("Ann, Bob";
    Japanese 「Ann、Bob」). Names are never translated."""

    __slots__ = ()
NTranslate = Callable[[str, str, int], str]


def english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def render(
    text: str | tuple[str, str],
    params: Mapping[str, object],
    name: Callable[[str], str] = english_name,
    translate: Translate = str,
    count: str | None = None,
    ntranslate: NTranslate = english_plural,
) -> str:
    """Fill a template, naming cards and actions with `name` (English by default).

    `text` is a template, or (singular, plural) whose form is picked by the value named `count`.
    A value may itself be a Ruling (rendered the same way), a list of Rulings (joined with
    "; "), players' Names (joined with ", ") or a list of card names (joined with " / "), so a
    sentence can embed another one.
    """

    values = {k: _value(v, name, translate, ntranslate) for k, v in params.items()}
    if isinstance(text, tuple):
        n = params.get(count or "n", 0)
        template = ntranslate(text[0], text[1], n if isinstance(n, int) else 0)
    else:
        template = translate(text)
    try:
        return template % values
    except (KeyError, TypeError, ValueError):
        return template


def _value(v: object, name: Callable[[str], str], translate: Translate,
           ntranslate: NTranslate) -> object:
    """One value of a template as :func:`render` fills it in. A function of its own, not a
    closure inside ``render``: a closure that calls itself is a reference cycle, left for the
    garbage collector at every ruling worded (with everything it held)."""
    kind = v.__class__
    if kind is str:  # the usual value (a player's name): named at once, not after four checks
        return name(v)  # type: ignore[arg-type]
    if kind is int:
        return v
    if isinstance(v, Ruling):
        return render(v.text, v.params, name, translate, v.count, ntranslate)
    if isinstance(v, Names):
        return translate(LIST_SEPARATOR).join(v)
    if isinstance(v, list | tuple) and v and all(isinstance(x, Ruling) for x in v):
        return translate(SEPARATOR).join([str(_value(x, name, translate, ntranslate))
                                          for x in v])
    if isinstance(v, list | tuple) and all(isinstance(x, str) for x in v):
        return " / ".join([name(x) for x in v])
    if isinstance(v, str):
        return name(v)
    return v


@dataclass(frozen=True)
class Ruling:
    """One line of the public log. `rule` names the edge case (E-n) when the ruling was a choice."""

    text: str | tuple[str, str]  # a template, or (singular, plural) chosen by `count`
    params: Mapping[str, object] = field(default_factory=dict)  # read-only in the log
    rule: str | None = None
    count: str | None = None  # the value that picks the plural form

    def english(self) -> str:
        line = render(self.text, self.params, count=self.count)
        return f"{line} ({self.rule})" if self.rule else line


# Every card and action name a ruling may hold, made once (they are immutable strings).
_CARDS = {c: CardName(c) for c in ENGLISH_CARDS}
_ACTIONS = {a: ActionName(a) for a in ENGLISH_ACTIONS}


def card(value: str) -> CardName:
    known = _CARDS.get(value)
    return known if known is not None else CardName(value)


def action(value: str) -> ActionName:
    known = _ACTIONS.get(value)
    return known if known is not None else ActionName(value)


class FactionName(str):
    """A faction name inside a ruling's values (Loyalist/Reformist, or the edition's words)."""


def faction(value: str) -> FactionName:
    return FactionName(value)
