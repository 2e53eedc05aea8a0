"""Every translation of a language's catalogue, for the checks that read them all
(tests/i18n/test_native_reading*.py): what a native reader found wrong, kept from coming back.

Named ``catalogkit`` (not ``conftest``/``helpers``): test folders have no ``__init__.py``, so a
module name must be unique across ``tests/``.
"""

from __future__ import annotations

import re

from babel.messages.catalog import Message

from app.catalogs import load, po_path, strings
from app.i18n import TRANSLATIONS


def messages(language: str) -> list[Message]:
    """The language's messages, the catalogue's header left out."""
    return [message for message in load(po_path(language, TRANSLATIONS)) if message.id]


def english_of(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def translations(language: str) -> list[tuple[str, str]]:
    """(the English, a translation) for every form of every message."""
    return [(english_of(message), text) for message in messages(language)
            for text in strings(message)]


def assert_none_match(language: str, wrong: re.Pattern[str]) -> None:
    """No translation in ``language`` says what ``wrong`` finds (each found one is listed)."""
    problems = [(english, text) for english, text in translations(language)
                if wrong.search(text)]
    assert not problems, problems
