"""A phone's answers (phone/_answer.html) drawn in Python: the same bytes as the partial. Where
phones may answer, the player to move gets a new turn's buttons every turn, each action and
each target a form, the costliest region of a phone to draw.

Drawn from the region's scope alone (what the partial reads, cut as
:mod:`app.web.screenregions` cuts it), with the form token and version slots the partial is
drawn with, so it is keyed and remembered as the partial was. The partial stays the
reference: tests/web/test_phone_answer.py compares both at every step of random games in
every language, and tests/web/test_regions_never_stale.py each answer placed with the partial
drawn from the whole screen's view. A change to one needs the same change to the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from markupsafe import escape

from app.engine import Prompt
from app.web.fragments import CSRF_SLOT, VERSION_SLOT
from app.web.i18n import say
from app.web.links import link_for
from app.web.pieces import step_button

Scope = Mapping[str, Any]
BUTTONS: Final = 4096  # answers' buttons remembered (a turn has a dozen or so)
POST_SLOT: Final = "\x1epost\x1e"
"""Where a remembered button holds the seat's link it posts to (a control character: no name
or link can hold one)."""


def answer_html(scope: Scope) -> str:
    """phone/_answer.html drawn from ``scope``."""
    shown = [p for p in scope["prompts"] if not p.private] if scope["answers"] == "both" \
        else None
    if not shown:
        return nothing_to_answer(shown is not None)
    post = link_for("phone.step", token=scope["token"])
    return _box("\n{}\n".format("".join(_prompt(scope, post, p) for p in shown)))


def nothing_to_answer(phones_answer: bool) -> str:
    """The region when the seat has no question to answer: its empty box, the same for every
    seat (where phones answer, the partial's empty loop leaves its two line ends in it)."""
    return _box("\n\n" if phones_answer else "")


def _box(inside: str) -> str:
    return f'\n\n<div id="answer" class="region">\n{inside}\n</div>'


def _prompt(scope: Scope, post: str, p: Prompt) -> str:
    """One question's buttons."""
    voice, o = scope["voice"], p.options
    buttons = ""
    if p.kind == "declare":
        actions = "".join(_action(scope, post, a) for a in o["actions"])
        buttons = f'\n  <div class="actions">\n  {actions}\n  </div>\n  '
    elif p.kind == "respond":
        buttons = ('\n  <div class="choices">\n    '
                   f"{_button(say(voice, 'Challenge'), 'challenge', post, cls='challenge big')}"
                   f"\n    {_let_it_stand(scope, post)}\n  </div>\n  ")
    elif p.kind == "block":
        blocks = "".join(_button(say(voice, "Block with the %(card)s", card=scope["card"](c)),
                                 "block", post, fields={"as": c}, cls="block big")
                         for c in o["as"])
        buttons = (f'\n  <div class="choices">\n    \n    {blocks}\n    '
                   f"{_let_it_stand(scope, post)}\n  </div>\n  ")
    return f'\n\n<section class="prompt answer {escape(p.kind)}">\n  {buttons}\n</section>\n'


def _action(scope: Scope, post: str, a: Mapping[str, Any]) -> str:
    """An action's button on the player's turn, or its targets' buttons under it."""
    note = _note(scope, a)
    if not a["targets"]:
        button = _button(scope["act"](a["action"]), a["action"], post, cls="action",
                         disabled=a["reason"] is not None or a["targets"] is not None,
                         note=note)
        return f"\n    \n    \n    {button}\n    \n  "
    name, own = scope["name"], say(scope["voice"], "Own side")
    targets = "".join(_button(t if t != name else own, a["action"], post,
                              fields={"target": t}, cls="target") for t in a["targets"])
    small = f"<small>{escape(note)}</small>" if note else ""
    return (f'\n    \n    \n    <details class="targets" data-keep="targets-'
            f'{escape(a["action"])}-{escape(scope["turn_no"])}">\n      <summary class="button '
            f'action">{escape(scope["act"](a["action"]))}&nbsp;▸{small}</summary>\n      '
            f'<div class="choices">\n      {targets}\n      </div>\n    </details>\n    \n  ')


def _note(scope: Scope, a: Mapping[str, Any]) -> Any:
    """What an action's button says under its name: why it can't be taken, or its claim."""
    if a["error"]:
        return scope["brief"](a["error"])
    if scope["claim_of"](a["action"]):
        return scope["ruling"](scope["claim_words"](a["action"]))
    return None


def _let_it_stand(scope: Scope, post: str) -> str:
    return _button(say(scope["voice"], "Let it stand"), "pass", post, cls="big let-stand")


def _button(label: Any, do: str, post: str, **options: Any) -> str:
    """A step's button with the screen's form token and version slots."""
    fields = options.pop("fields", None)
    drawn = _slotted(label, do, tuple(fields.items()) if fields else (), **options)
    return drawn.replace(POST_SLOT, str(escape(post)))


@lru_cache(maxsize=BUTTONS, typed=True)
def _slotted(label: Any, do: str, fields: tuple[tuple[str, Any], ...], **options: Any) -> str:
    """:func:`_button`'s with :data:`POST_SLOT` for where it posts, remembered by what it shows
    (its label's type too: a ``Markup`` label is not escaped again): a turn's buttons are the
    last turn's, and every seat's "Let it stand" is the same but for its link."""
    return str(step_button(label, do, POST_SLOT, CSRF_SLOT, VERSION_SLOT, fields=dict(fields),
                           **options))
