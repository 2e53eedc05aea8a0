"""Translations, for the web and the command line alike (nothing here imports Flask).

The catalogues are ``app/translations/<lang>/LC_MESSAGES/messages.po``, kept up to date with
Babel's ``pybabel`` by ``python3 tasks.py catalogs`` (app/catalogs.py). Their ``.mo`` files are
built here whenever one is missing or older than its ``.po`` (a fresh clone needs no build step);
the wheel ships them compiled (setup.py).

A :class:`Voice` speaks one language for one table. It translates a template, fills the
translation's ``{term}`` slots with the words of the table's box when the box is in that
language, else with the language's own words (app/glossary.py), and names cards, actions and
factions as the box prints them. Then the template's ``%(name)s`` values are filled in.
docs/TRANSLATING.md says how translators use the two kinds of slot.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
import tempfile
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from app.editions import DEFAULT_EDITION, edition
from app.engine.rulings import ActionName, CardName, FactionName, Ruling, render
from app.glossary import TERMS
from app.quicklock import quick_lock

LANGUAGES = ("en", "ru", "uk", "pt-BR", "ja")
"""The languages with a catalogue (BCP 47 tags, as <html lang> and browsers write them; the
catalogue's folder is the gettext name: pt_BR); English is the source."""
SOURCE_LANGUAGE = "en"
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"
TERM = re.compile(r"\{(\w+)\}")


def compile_catalogs(path: str | Path = TRANSLATIONS) -> list[Path]:
    """Compile every ``<lang>/LC_MESSAGES/*.po`` under ``path`` whose ``.mo`` is out of date
    (fuzzy entries left out, as ``msgfmt`` and ``pybabel compile`` do); returns the ``.mo``
    files written. Each is written beside its target and renamed into place, so a second
    process starting at the same moment never reads half a catalogue. A folder that can't be
    written (a read-only install) keeps the ``.mo`` files it shipped with."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(Path(path).glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name, domain=po.stem)
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{mo.name}.", dir=mo.parent)
        except OSError:
            continue
        try:
            with os.fdopen(handle, "wb") as target:
                write_mo(target, catalog, use_fuzzy=False)
            os.replace(temporary, mo)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        written.append(mo)
    return written


@cache
def catalog(language: str) -> _gettext.NullTranslations:
    """A language's compiled catalogue, loaded once (English, or a language we lack: the
    source strings themselves)."""
    if language not in LANGUAGES or language == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    from babel.support import Translations

    po = TRANSLATIONS / folder(language) / "LC_MESSAGES" / f"{DOMAIN}.po"
    mo = po.with_suffix(".mo")
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        compile_catalogs(TRANSLATIONS)
    return Translations.load(str(TRANSLATIONS), [folder(language)], DOMAIN)


def folder(language: str) -> str:
    """A language's catalogue folder: its gettext locale name (pt-BR → pt_BR)."""
    return language.replace("-", "_")


# Older tables and seats remember Brazilian Portuguese as "pt".
ALIASES = {"pt": "pt-BR"}


def known(code: object) -> str | None:
    """``code`` as one of LANGUAGES (an old alias mapped), or None."""
    found = ALIASES.get(str(code), str(code))
    return found if found in LANGUAGES else None


def terms(language: str, edition_key: str) -> Mapping[str, str]:
    """The words for the ``{term}`` slots of ``language``'s sentences at a table with this box:
    the box's own where its rulebook is in that language, the language's default elsewhere."""
    return _terms(language if language in LANGUAGES else SOURCE_LANGUAGE,
                  edition(edition_key).key)


@cache
def _terms(language: str, edition_key: str) -> Mapping[str, str]:
    words = dict(TERMS.get(language, {}))
    box = edition(edition_key)
    if box.language == language:
        words.update(box.terms)
    return words


def fill_terms(template: str, words: Mapping[str, str]) -> str:
    """``{deck_gen}`` → the word; ``{Deck}`` → the word with a capital (a sentence's start).
    A slot the glossary lacks stays as it is (the catalogue tests report it)."""
    if "{" not in template:
        return template

    def word(match: re.Match[str]) -> str:
        key = match.group(1)
        base = key[:1].lower() + key[1:]
        found = words.get(base)
        if found is None:
            return match.group(0)
        return found[:1].upper() + found[1:] if key[:1].isupper() else found

    return TERM.sub(word, template)


@dataclass(frozen=True)
class Voice:
    """One language at one table: its box (the edition's key) and who exchanges cards there
    (the Inquisitor's exchange may have its own name)."""

    language: str = SOURCE_LANGUAGE
    edition: str = DEFAULT_EDITION
    exchanger: str = "ambassador"

    def gettext(self, text: str) -> str:
        """The translated template, its terms filled in, its ``%(name)s`` values not yet."""
        return _translated(self.language, self.edition, text)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return fill_terms(catalog(self.language).ngettext(singular, plural, n),
                          terms(self.language, self.edition))

    def name(self, value: str) -> str:
        """A card, action or faction as this box prints it; any other value as it is."""
        box = edition(self.edition)
        if isinstance(value, CardName):
            return box.cards.get(value, value)
        if isinstance(value, ActionName):
            return box.action(value, self.exchanger if value == "exchange" else None)
        if isinstance(value, FactionName):
            return box.factions.get(value, value)
        return value

    def card(self, key: str) -> str:
        return self.name(CardName(key))

    def action(self, key: str) -> str:
        return self.name(ActionName(key))

    def faction(self, key: str) -> str:
        return self.name(FactionName(key))

    def say(self, text: str | tuple[str, str], params: Mapping[str, object],
            count: str | None = None) -> str:
        """A template (a ruling, an error) with its values: translated, terms and names
        filled; a value may itself be a ruling (rulings.render)."""
        return render(text, params, self.name, self.gettext, count, self.ngettext)

    def ruling(self, r: Ruling) -> str:
        """A ruling in this voice. Worded once per voice: rulings are frozen, and a game's log
        keeps the same ones from version to version, on every screen of the table."""
        return _worded(self, r)

    def ruling_to(self, r: Ruling, you: str, adapt: Callable[[Ruling, str], Ruling]) -> str:
        """``adapt(r, you)`` in this voice: a ruling as one player reads it on their own phone
        ("you may block" rather than their name; ``adapt`` gives ``r`` itself when it doesn't
        concern them). Worded once per voice, ruling, player and ``adapt`` (a pure function of
        the two): ``adapt`` makes a new ruling at each call, which the memo by identity would
        never find again."""
        mine = adapt(r, you)
        return _worded(self, r) if mine is r else _worded(self, r, (adapt, you), mine)

    def format(self, text: str, **values: object) -> str:
        """``text`` translated and filled with ``values`` (a broken translation: the English)."""
        return fill(self.gettext(text), text, values)

    def nformat(self, singular: str, plural: str, num: int, **values: object) -> str:
        values.setdefault("num", num)
        return fill(self.ngettext(singular, plural, num), singular if num == 1 else plural,
                    values)


@lru_cache(maxsize=16384)
def _translated(language: str, edition: str, text: str) -> str:
    """Remembered: the catalogues and the glossary don't change while the app runs, and a
    screen says the same few dozen sentences on every draw. Keyed by the voice's words, which
    hash in C (a ``Voice``'s hash is a Python call: ~20 a tap here)."""
    return fill_terms(catalog(language).gettext(text), terms(language, edition))


def fill(translated: str, english: str, values: Mapping[str, object]) -> str:
    if not values:
        return translated
    try:
        return translated % values
    except (KeyError, TypeError, ValueError):  # a broken translation: say it in English
        return english % values


WORDED: Final = 16384  # rulings worded, per voice: the logs on show at 300 tables, and more


class _Held(weakref.ref):  # type: ignore[type-arg]
    """A worded ruling's weak reference, knowing its place in the memo. The memo does not keep
    a ruling alive: most are made for one version (a prompt's question, a waiting line) and
    would otherwise stay as long as the memo's bound allows, a few hundred per table."""

    __slots__ = ("key",)
    key: WordedKey


Adapted = tuple[Callable[[Ruling, str], Ruling], str] | None  # (adapt, you) of ruling_to
WordedKey = tuple[tuple[str, str, str], int, Adapted]  # the voice's words, id(ruling), adapted
_worded_lock = quick_lock()
_worded_memo: OrderedDict[WordedKey, tuple[_Held, str]] = OrderedDict()
_gone: list[_Held] = []  # references whose ruling is gone: their entries go, a batch at a time
GONE_KEPT: Final = 256  # entries of gone rulings left until the next batch (a few KiB)


def _worded(voice: Voice, r: Ruling, adapted: Adapted = None, said: Ruling | None = None
            ) -> str:
    """``voice.say`` of a ruling (or of ``said``, its ``adapted`` form), remembered by the
    ruling's identity while it lives (an entry is known to be its own by its live reference,
    so a reused id can't find another's). The key holds the voice as its three words, which
    hash in C (a ``Voice``'s hash is a Python call, three a ruling worded)."""
    key = ((voice.language, voice.edition, voice.exchanger), id(r), adapted)
    with _worded_lock:
        hit = _worded_memo.get(key)
        if hit is not None and hit[0]() is r:
            _worded_memo.move_to_end(key)
            return hit[1]
    said = r if said is None else said
    text = voice.say(said.text, said.params, said.count)
    held = _Held(r, _gone.append)  # the callback is C code: no Python call when r goes
    held.key = key
    with _worded_lock:
        _worded_memo[key] = (held, text)
        if len(_gone) > GONE_KEPT:
            _forget_gone()
        while len(_worded_memo) > WORDED:
            _worded_memo.popitem(last=False)
    return text


def _forget_gone() -> None:
    """Drop the entries of rulings that are gone (under the lock). A reference the collector
    adds meanwhile may be cleared unseen: its entry stays until the bound drops it (it can't
    be found: its ruling is gone)."""
    for ref in _gone:
        hit = _worded_memo.pop(ref.key, None)
        if hit is not None and hit[0] is not ref:  # the id was reused: a live ruling's entry
            _worded_memo[ref.key] = hit
    _gone.clear()
