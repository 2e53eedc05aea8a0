"""The names and words every screen of a table uses (``views.common``): the rules, the voice
that speaks the table's box, the helpers the templates call. Made once per state and language:
a version's screens (the referee's, six phones', the phones' shared rows) all ask for them."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

from app.editions import edition
from app.engine import RuleError, answers_of, claim_of, claim_words, parse_rules
from app.i18n import Voice
from app.quicklock import quick_lock
from app.web import words
from app.web.i18n import language
from app.web.state import TableState

COMMON_KEPT: Final = 256  # (state, language) pairs whose common names are remembered


class _Commons:
    """:func:`common` of the most recent states, by the state's identity and the language:
    a version's screens (the tablet, six phones, their shared parts) ask for the same names.
    The memo holds each state, so its id can't be reused while it is remembered."""

    def __init__(self, size: int = COMMON_KEPT) -> None:
        self._size = size
        self._held: OrderedDict[tuple[int, str], tuple[TableState, list[tuple[str, str]],
                                                       dict[str, Any]]] = OrderedDict()
        self._lock = quick_lock()

    def __call__(self, state: TableState, languages: list[tuple[str, str]]) -> dict[str, Any]:
        key = (id(state), language())
        with self._lock:
            held = self._held.get(key)
            if held is not None and held[0] is state and held[1] == languages:
                self._held.move_to_end(key)
                return dict(held[2])
        view = _common(state, languages)
        with self._lock:
            self._held[key] = (state, languages, view)
            while len(self._held) > self._size:
                self._held.popitem(last=False)
        return dict(view)


def _common(state: TableState, languages: list[tuple[str, str]]) -> dict[str, Any]:
    rules = parse_rules(dict(state.rules))
    voice = words.table_voice(state)
    return {
        "version": state.version,
        "edition": edition(state.edition),
        "rules": rules,
        "languages": languages,
        "voice": voice,  # the templates' _() speaks it: the box's words (app/web/i18n.py)
        "card": voice.card,
        "act": voice.action,
        "faction": voice.faction,
        "ruling": voice.ruling,
        "brief": lambda e: _brief(e, voice),
        "claim_of": lambda a: claim_of(rules, a),
        "card_list": lambda keys: " / ".join(voice.card(k) for k in keys),
        # What an action claims, in words: "Duke", or for an Embezzle "no Duke".
        "claim_words": lambda a: claim_words(rules, a),
        "answers": answers_of(state.table.setup).value,
    }


common: Final = _Commons()
"""The names and words every screen of a table uses (a fresh dict each time: screens add
their own to it)."""


def _brief(error: RuleError, voice: Voice) -> str:
    return voice.say(error.brief or error.text, error.params, error.count)
