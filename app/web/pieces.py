"""The small pieces every screen repeats (a step's button, a form's hidden fields, a card's face
and back, a rule's tag, the screen's own refresh), as plain functions the templates call.

They were Jinja macros; a macro call costs some 15 Python calls of Jinja's before its first byte
(its arguments matched, a new frame, its output joined), and a tablet's screen calls them a few
dozen times. Each function gives the bytes the macro gave: every value escaped with markupsafe,
the same spaces and line breaks. They are template globals, added while the app is built
(:func:`install`), as :mod:`app.web.templating` needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from math import ceil
from typing import Any, Final
from unicodedata import east_asian_width

from flask import Flask
from jinja2.runtime import Context
from jinja2.utils import pass_context
from markupsafe import Markup

from app.web.i18n import escaped, voice_of

#: Each character's own simple sign (our own drawing, no scanned art), beside its name.
CARD_ICONS: Final = {
    "duke": "M2 19 4 6l5 6 3-8 3 8 5-6 2 13z",
    "assassin": "M12 1l2.2 13-2.2 2.2L9.8 14zM6.5 15h11v2.2h-11zM10.8 17.2h2.4V23h-2.4z",
    "captain": "M12 1.5a3 3 0 1 1 0 6 3 3 0 1 1 0-6zM10.8 7.5h2.4V20h-2.4zM7 10h10v2.2H7zM3 "
               "13.5h2.6c.6 3.6 3.4 5.6 6.4 5.6s5.8-2 6.4-5.6H21c-.7 5-4.6 8-9 8s-8.3-3-9-8z",
    "ambassador": "M5 3h12a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2zM8 7v1.8h8V7zm0 "
                  "4v1.8h8V11zm0 4v1.8h5V15z",
    "contessa": "M12 21.5 3.6 13A5.2 5.2 0 0 1 12 6.3 5.2 5.2 0 0 1 20.4 13z",
    "inquisitor": "M1 12c4.5-7.5 17.5-7.5 22 0-4.5 7.5-17.5 7.5-22 0zm11-4.2a4.2 4.2 0 1 0 0 "
                  "8.4 4.2 4.2 0 1 0 0-8.4z",
}
ICON_SVG: Final = {
    name: ('<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">'
           f'<path fill-rule="evenodd" d="{path}"/></svg>')
    for name, path in CARD_ICONS.items()
}
NO_FIELDS: Final[Mapping[str, Any]] = {}
DISABLED: Final = 'disabled aria-disabled="true"'


def field(name: Any, value: Any) -> str:
    """One hidden field of a form."""
    return f'<input type="hidden" name="{escaped(name)}" value="{escaped(value)}">'


@lru_cache(maxsize=64, typed=True)
def token_fields(csrf: Any, version: Any, indent: str = "") -> str:
    """The two fields every form of a screen sends, its form token and the version it shows:
    the same for every form of a screen, so made once."""
    return f'{field("csrf", csrf)}\n{indent}{field("version", version)}'


def hidden(csrf: Any, version: Any) -> Markup:
    """The form token and version fields of a form."""
    return Markup(token_fields(csrf, version))


def step_button(label: Any, do: Any, post: Any, csrf: Any, version: Any, by: Any = None,
                fields: Mapping[str, Any] = NO_FIELDS, cls: Any = "", disabled: Any = False,
                note: Any = None) -> Markup:
    """A form of one button that posts the step ``do`` (by ``by``, with ``fields``) to
    ``post``. The form inherits hx-target, hx-swap and hx-sync from its screen's root."""
    post = escaped(post)
    extra = "".join([field(k, v) for k, v in fields.items()])
    return Markup(
        f'<form class="step" method="post" action="{post}" hx-post="{post}">\n'
        f'  {token_fields(csrf, version, "  ")}\n'
        f'  <input type="hidden" name="do" value="{escaped(do)}">\n'
        f'  {field("by", by) if by else ""}\n'
        f'  {extra}\n'
        f'  <button type="submit" class="{escaped(cls)}" '
        f'{DISABLED if disabled else ""}>{escaped(label)}'
        f'{f"<small>{escaped(note)}</small>" if note else ""}</button>\n'
        '</form>')


def refresher(url: Any, root: Any, pushed: Any = False) -> Markup:
    """The screen's own fetch: on a reconnect, after 10 s with no event (app.js) and, unless
    the stream's event brings the screen itself (``pushed``: sse-swap on the root), on each
    event. A fetch while a tap is on its way is dropped: the tap's answer is the fresh
    screen."""
    on_event = "" if pushed else "sse:changed, "
    return Markup(f'<span hidden data-refresh hx-get="{escaped(url)}" '
                  f'hx-trigger="{on_event}refresh" hx-sync="#{escaped(root)}:drop"></span>')


LONG_NAME: Final = 8
"""A card's name longer than this many characters ("Ambassador", "Следователь") is marked
``long``: the seats draw it smaller where they are narrow, so no name breaks inside a word."""


def card_face(name: Any, label: Any, cls: Any = "") -> Markup:
    """A card face up: its character's sign (if it has one) and its name."""
    long = " long" if len(str(label)) > LONG_NAME else ""
    return Markup(f'<span class="card card-{escaped(name)} {escaped(cls)}{long}">'
                  f'{ICON_SVG.get(name, "")}<span class="name">{escaped(label)}</span></span>')


LONGEST_CARD_NAME: Final = 16


def name_len(label: Any) -> str:
    """The class ``len-N`` a card's name carries on the TV's seats: N is how many letters wide
    it is, a wide character (公爵) counted as 4/3 of one, so the seat draws the name as large as
    the room beside a face-down card lets it be (tablet.css), never broken inside a word."""
    wide = sum(1 for ch in str(label) if east_asian_width(ch) in "WF")
    return f"len-{min(ceil(len(str(label)) + wide / 3), LONGEST_CARD_NAME)}"


@pass_context
def card_back(context: Context, n: int) -> Markup:
    """``n`` face-down cards, each named for a screen reader in the screen's language."""
    label = escaped(voice_of(context).gettext("face-down card"))
    return Markup(f'<span class="card back" role="img" aria-label="{label}"></span>' * n)


SHORT_PLAYER_NAME: Final = 8
LONGEST_FITTED: Final = 16


def seat_name(name: Any) -> Markup:
    """A player's name on a seat. A name longer than ``SHORT_PLAYER_NAME`` characters carries
    its length (``len-N``, up to ``LONGEST_FITTED``): the seat draws it small enough to fit its
    width on one line, so it never breaks inside a word ("Bartholome|w")."""
    length = len(str(name))
    fit = f" len-{min(length, LONGEST_FITTED)}" if length > SHORT_PLAYER_NAME else ""
    return Markup(f'<span class="who{fit}">{escaped(name)}</span>')


def rule_tag(code: Any, rules_url: Any) -> Markup:
    """A rule's code (E-13) as a link to its plain-words explanation; nothing without one."""
    if not code:
        return Markup("")
    code = escaped(code)
    return Markup(f'<a class="rule" href="{escaped(rules_url)}#{code}">{code}</a>')


PIECES: Final = {piece.__name__: piece for piece in (
    hidden, step_button, refresher, card_face, name_len, card_back, seat_name, rule_tag)}


def install(app: Flask) -> None:
    """The pieces as globals of every template."""
    app.jinja_env.globals.update(PIECES)
