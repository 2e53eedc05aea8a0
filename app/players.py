"""Player names: the rule a table's names follow, whether typed on the set-up form or imported
from a game record, so that a table made either way shows the same on every screen.

Each name is 1 to :data:`MAX_NAME` characters once trimmed, and no two are the same ignoring
case ("Ann" and "ANN" would be told apart by nobody at the table). The engine checks the rest
(2 to 10 players, no empty name, no exact duplicate).

:func:`name_problem` answers with a message (a :class:`~app.engine.Ruling` template and its
values) that each screen shows in its own language: the command line with
:func:`app.cli_i18n.message`, a page with the web app's ``words.say``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from app.engine.rulings import N_, Ruling

MAX_NAME: Final = 24
SHOWN: Final = 24  # a name in a message is cut to this many characters


def _shown(name: str) -> str:
    return name if len(name) <= SHOWN else name[:SHOWN] + "…"


def name_problem(names: Sequence[str]) -> Ruling | None:
    """What is wrong with these player names under the set-up form's rule, or None."""
    seen: dict[str, str] = {}
    for name in names:
        trimmed = name.strip()
        if not trimmed:
            return Ruling(N_("a player's name is empty"))
        if len(trimmed) > MAX_NAME:
            return Ruling(N_("the name %(name)s is longer than %(n)s characters"),
                          {"name": _shown(trimmed), "n": MAX_NAME})
        key = trimmed.casefold()
        if key in seen:
            return Ruling(N_("%(first)s and %(second)s are the same name; add an initial to "
                             "tell them apart"), {"first": seen[key], "second": trimmed})
        seen[key] = trimmed
    return None
