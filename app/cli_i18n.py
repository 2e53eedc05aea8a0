"""The command line's language: chosen from the environment, read from the web app's catalogues.

A command-line program speaks the language of its user's locale, not of a table or a browser.
:func:`language` reads the same variables as GNU gettext and Python's :mod:`gettext`:
``LANGUAGE`` (a ``:``-separated list of preferences), then ``LC_ALL``, ``LC_MESSAGES`` and
``LANG``. A value such as ``ru_RU.UTF-8``, ``pt_BR`` or ``uk_UA@euro`` names its language before
the ``_``; the first language we have a catalogue for wins, and anything else (unset, empty,
``C``, ``POSIX``, a language we lack) means English. As in GNU gettext, ``LANGUAGE`` is ignored
when the locale is exactly ``C`` or ``POSIX`` (``LC_ALL=C`` asks for the plain output scripts
rely on; ``C.UTF-8`` does not). Unlike GNU, ``LANGUAGE`` still counts when no locale variable is
set at all, as on Windows.

Translations come from app/i18n.py, which the web app shares; nothing here imports Flask:
``serve`` must monkey-patch gevent before Flask is imported, and ``check`` and ``explain``
should start fast. A terminal has no table, so the official English box names the cards and
the language's own words fill the terms.

Messages are marked with the names ``babel.cfg`` extracts (``_``, ``gettext``, ``ngettext``,
``N_``, ``NP_``), so ``python3 tasks.py catalogs`` finds them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from app.engine.rulings import Ruling
    from app.i18n import Voice

# app/i18n.py (and with it Babel and the engine) is imported when first needed: `--help` and
# English need neither.

LANGUAGES = ("en", "ru", "uk", "pt-BR", "ja")
"""The languages with a catalogue (app.i18n.LANGUAGES, which a test holds equal to this)."""
# A locale names its language before the "_": any Portuguese one reads our Brazilian catalogue.
BY_LANGUAGE = {code.split("-")[0]: code for code in LANGUAGES}
DEFAULT = "en"
VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _code(value: str) -> str | None:
    """The language of one locale name: ``ru_RU.UTF-8`` -> ``ru``; None if we have none.

    ``C`` and ``POSIX`` are the untranslated locale, that is English."""
    name = value.split(".", 1)[0].split("@", 1)[0].strip()
    if name in ("C", "POSIX"):
        return DEFAULT
    return BY_LANGUAGE.get(name.replace("-", "_").split("_", 1)[0].lower())


def language(environ: Mapping[str, str] | None = None) -> str:
    """The language the command line speaks, from ``environ`` (default: ``os.environ``)."""
    env = os.environ if environ is None else environ
    locale = next((env[k] for k in VARIABLES[1:] if env.get(k, "").strip()), "").strip()
    wanted = env.get("LANGUAGE", "").strip()
    if not wanted or locale in ("C", "POSIX"):
        wanted = locale
    for entry in wanted.split(":"):
        code = _code(entry) if entry.strip() else None
        if code is not None:
            return code
    return DEFAULT


def voice() -> Voice:
    """The environment's language, with the official box's names (a terminal has no table)."""
    from app.i18n import Voice

    return Voice(language())


def _fill(english: str, values: Mapping[str, object]) -> str:
    return english % values if values else english


def gettext(text: str, **values: object) -> str:
    """``text`` translated, its ``%(name)s`` placeholders filled from ``values`` (if any)."""
    if language() == DEFAULT:  # no catalogue to load: the source strings are the English
        return _fill(text, values)
    return voice().format(text, **values)


_ = gettext


def ngettext(singular: str, plural: str, num: int, **values: object) -> str:
    """The plural form for ``num``, translated and filled; ``%(num)s`` is the number."""
    if language() == DEFAULT:
        values.setdefault("num", num)
        return _fill(singular if num == 1 else plural, values)
    return voice().nformat(singular, plural, num, **values)


def say(text: str | tuple[str, str], params: Mapping[str, object],
        count: str | None = None) -> str:
    """A template with values (a ruling, a rule error, a record error), translated, with the
    official English box's card and action names."""
    return voice().say(text, params, count)


class _Message(Protocol):
    @property
    def text(self) -> str | tuple[str, str]: ...

    @property
    def params(self) -> Mapping[str, object]: ...

    @property
    def count(self) -> str | None: ...


def message(error: _Message) -> str:
    """A :class:`~app.engine.RuleError`, :class:`~app.records.RecordError` or message
    :class:`~app.engine.Ruling` or :class:`~app.engine.RuleError`, in the user's
    language."""
    return say(error.text, error.params, error.count)


def ruling(r: Ruling) -> str:
    """A ruling as a line of ``explain``, with the rule it follows (E-n) when it names one."""
    line = say(r.text, r.params, r.count)
    return f"{line} ({r.rule})" if r.rule else line
