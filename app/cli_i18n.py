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

The catalogues are the web app's (``app/translations/<lang>/LC_MESSAGES/messages.po``), read with
Babel's :class:`~babel.support.Translations` and no Flask app or request. Nothing here imports
Flask: ``serve`` must monkey-patch gevent before Flask is imported, and ``check`` and ``explain``
should start fast.

Messages are marked with the names ``babel.cfg`` extracts (``_``, ``gettext``, ``ngettext``,
``N_``, ``NP_``), so ``python3 tasks.py catalogs`` finds them.
"""

from __future__ import annotations

import gettext as _gettext
import importlib.util
import os
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from app.engine.rulings import Ruling

# Babel and the engine are imported when first needed: `--help` and English need neither.

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"
LANGUAGES = ("en", "ru", "uk", "pt", "ja")
"""The languages with a catalogue (the same as the web app's); English is the source."""
DEFAULT = "en"
VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _code(value: str) -> str | None:
    """The language of one locale name: ``ru_RU.UTF-8`` -> ``ru``; None if we have none.

    ``C`` and ``POSIX`` are the untranslated locale, that is English."""
    name = value.split(".", 1)[0].split("@", 1)[0].strip()
    if name in ("C", "POSIX"):
        return DEFAULT
    code = name.replace("-", "_").split("_", 1)[0].lower()
    return code if code in LANGUAGES else None


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


def _up_to_date(code: str) -> bool:
    po = TRANSLATIONS / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    mo = po.with_suffix(".mo")
    try:
        return not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime
    except OSError:  # no .mo yet
        return False


def _compile() -> None:
    """Build the missing or stale ``.mo`` files with the web app's own
    :func:`app.web.i18n.compile_catalogs`. That module needs only Babel, but importing it as
    ``app.web.i18n`` would run ``app/web/__init__.py``, which imports Flask (and ssl) before
    ``serve`` has patched gevent; so, unless it is loaded already, it is loaded from its file."""
    module = sys.modules.get("app.web.i18n")
    if module is None:
        path = Path(__file__).resolve().parent / "web" / "i18n.py"
        spec = importlib.util.spec_from_file_location("_coup_referee_catalogs", path)
        if spec is None or spec.loader is None:
            return
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    module.compile_catalogs(TRANSLATIONS)


@cache
def _load(code: str) -> _gettext.NullTranslations:
    if code == DEFAULT:
        return _gettext.NullTranslations()  # the source strings are the English
    from babel.support import Translations

    if not _up_to_date(code):
        _compile()
    found = Translations.load(str(TRANSLATIONS), [code], DOMAIN)
    # Without a readable .mo, Babel gives its NullTranslations: the English.
    return found


def translations() -> _gettext.NullTranslations:
    """The catalogue of the environment's language (read each time: cheap, and tests change
    the environment between commands; each catalogue is loaded once)."""
    return _load(language())


def _fill(translated: str, english: str, values: Mapping[str, object]) -> str:
    if not values:
        return translated
    try:
        return translated % values
    except (KeyError, TypeError, ValueError):  # a broken translation: say it in English
        return english % values


def gettext(text: str, **values: object) -> str:
    """``text`` translated, its ``%(name)s`` placeholders filled from ``values`` (if any)."""
    return _fill(translations().gettext(text), text, values)


_ = gettext


def ngettext(singular: str, plural: str, num: int, **values: object) -> str:
    """The plural form for ``num``, translated and filled; ``%(num)s`` is the number."""
    values.setdefault("num", num)
    english = singular if num == 1 else plural
    return _fill(translations().ngettext(singular, plural, num), english, values)


def say(text: str | tuple[str, str], params: Mapping[str, object],
        count: str | None = None) -> str:
    """A template with values (a ruling, a rule error, a record error), translated, with the
    official English box's card and action names (a terminal has no table, so no edition)."""
    from app.engine.rulings import english_name, render

    t = translations()
    return render(text, params, english_name, t.gettext, count, t.ngettext)


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
