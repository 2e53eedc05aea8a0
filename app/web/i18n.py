"""The web's language: which one a request speaks, and the translation functions the routes and
templates use. All of them go through app/i18n.py, as the command line's do.

A request speaks the phone's own choice or the table's language (``g.language``, set by the
routes), else the browser's preference. A screen of a table translates with that table's
:class:`~app.i18n.Voice` (its box's names and words), which the view hands the template as
``voice``; a page of no table (the start page, an error) speaks with the language's usual box.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

from flask import Flask, request
from flask.globals import _cv_app, _cv_request
from jinja2.runtime import Context
from jinja2.utils import pass_context
from markupsafe import Markup, escape

from app.editions import usual_edition
from app.engine.rulings import LIST_SEPARATOR
from app.i18n import LANGUAGES, SOURCE_LANGUAGE, Voice, known


def language() -> str:
    """This request's language. Asked some 30 times a tap, so it reads Flask's context
    variables itself: through ``has_request_context`` and ``g``'s proxy, each asking was
    six Python calls (``g`` is the app context's; a request context always has one)."""
    if _cv_request.get(None) is None:
        return SOURCE_LANGUAGE
    chosen = _cv_app.get().g.__dict__.get("language")  # g.get("language")
    if chosen.__class__ is str and chosen in SPOKEN:  # the usual case: a route set it
        return chosen
    chosen = known(chosen)
    if chosen is not None:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or SOURCE_LANGUAGE


SPOKEN: Final = frozenset(LANGUAGES)


def say(voice: Voice, text: str, **values: Any) -> Markup:
    """``_(text, **values)`` as a screen's template says it, for the parts drawn in Python
    (app/web/phoneframe.py and its kin): in ``voice``, trusted as markup, the values escaped
    into it (:func:`_template_say` is the template's own, with no voice to pass)."""
    said = voice.gettext(text)
    if values:
        return _filled(said, values)
    return Markup(said) % values if "%" in said else Markup(said)


def nsay(voice: Voice, singular: str, plural: str, num: int, **values: Any) -> Markup:
    """``ngettext(singular, plural, num, **values)`` as a template says it (:func:`say`)."""
    values.setdefault("num", num)
    return _filled(voice.ngettext(singular, plural, num), values)


def _filled(said: str, values: dict[str, Any]) -> Markup:
    """``Markup(said) % values``: where every value is a plain string or an int (a name, a
    card's word, a count), each escaped here and the sentence filled as a string, the same
    bytes for the ``%(name)s`` a sentence holds (Markup's own ``%`` wraps each value in a
    helper object, ~15 Python calls a sentence); any other value, by Markup's own."""
    plain: dict[str, Any] = {}
    for name, value in values.items():
        kind = value.__class__
        if kind is str:
            plain[name] = escaped(value)
        elif kind is int:
            plain[name] = value
        else:
            return Markup(said) % values
    return Markup(said % plain)


def escaped(value: Any) -> str:
    """``str(escape(value))`` in one Python call where ``value`` is a plain string with nothing
    to escape (most are: names, links, words). markupsafe's ``escape`` makes a ``Markup`` of
    every value, ~5 Python calls, and a screen escapes a few dozen values each time it is
    drawn; anything else (a string to escape, markup, a number) is still its. Compared with
    it in tests/web/test_pieces.py."""
    if value.__class__ is str and not (
            "&" in value or "<" in value or ">" in value or '"' in value or "'" in value):
        return value
    return str(escape(value))


def voice(edition: str | None = None, exchanger: str = "ambassador") -> Voice:
    """This request's language with a table's box (default: the language's usual one): one
    object for the same three words, so the memos keyed by a voice (the regions' keys, the
    prompt's parts) find it by identity instead of calling the dataclass's ``__eq__``."""
    speaking = language()
    return _voice(speaking, edition or usual_edition(speaking), exchanger)


VOICES_KEPT: Final = 256  # languages x boxes x exchangers: a few dozen can be asked for
_voice: Final = lru_cache(maxsize=VOICES_KEPT)(Voice)  # a Voice is frozen: safe to share


def gettext(text: str, **values: Any) -> str:
    """For the routes: ``text`` in the request's language, filled with ``values``."""
    return voice().format(text, **values)


_ = gettext


def ngettext(singular: str, plural: str, num: int, **values: Any) -> str:
    return voice().nformat(singular, plural, num, **values)


def voice_of(context: Context) -> Voice:
    """The voice a template's screen speaks in: its ``voice``, else the request's."""
    found = context.get("voice")
    return found if isinstance(found, Voice) else voice()


@pass_context
def _template_gettext(context: Context, text: str) -> str:
    return voice_of(context).gettext(text)


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, n: int) -> str:
    return voice_of(context).ngettext(singular, plural, n)


@pass_context
def _template_say(context: Context, text: str, **values: Any) -> str:
    """``_()`` and ``gettext()`` in a template: what Jinja's i18n extension does with
    ``newstyle`` (translate, escape the values into the sentence), in one call instead of its
    four, since a screen says several dozen of them."""
    said = voice_of(context).gettext(text)
    if not values and "%" not in said:
        return Markup(said) if context.eval_ctx.autoescape else said  # nothing to fill
    return (Markup(said) if context.eval_ctx.autoescape else said) % values


@pass_context
def _template_nsay(context: Context, singular: str, plural: str, num: int, **values: Any
                   ) -> str:
    """``ngettext()`` in a template, as :func:`_template_say`; ``num`` fills ``%(num)s``."""
    values.setdefault("num", num)
    said = voice_of(context).ngettext(singular, plural, num)
    return (Markup(said) if context.eval_ctx.autoescape else said) % values


@pass_context
def _template_listed(context: Context, items: Any) -> str:
    """A list of names (or turns) joined the reader's way: "Ann, Bob"; Japanese "Ann、Bob"."""
    return voice_of(context).gettext(LIST_SEPARATOR).join(str(item) for item in items)


def install(app: Flask) -> None:
    """``_``, ``gettext`` and ``ngettext`` in every template, speaking the screen's voice, and
    ``get_locale()`` for ``<html lang>``. (Jinja fills the values in after the call.) The
    extension stays for ``{% trans %}``; the calls themselves are our lighter ones."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _template_gettext, _template_ngettext, newstyle=True)
    app.jinja_env.globals.update(_=_template_say, gettext=_template_say,
                                 ngettext=_template_nsay, get_locale=language,
                                 listed=_template_listed)
