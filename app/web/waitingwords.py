"""The waiting line as a player reads it on their own phone ("You may challenge or let it
stand.", "Waiting for you and Cy to block or let it stand."), worded once per line, player and
voice.

The public view makes a new waiting line at every version, and :meth:`app.i18n.Voice.ruling_to`
remembers a wording by the ruling's identity, so each of the six phones worded its own line
afresh at every tap. Yet a game's waiting lines say one of a few things (who is asked, and to
do what), so the wording is remembered here by the line's value: its ``repr``. A waiting line
is made by :func:`app.engine.waiting.waiting` alone, whose values are of one kind for each
name of each template (the players as ``Names``, a card as a ``CardName``), so two lines of the
same ``repr`` are worded alike (tests/web/test_waiting_words.py compares every line of random
games in every language with its wording afresh).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from app.engine import Ruling
from app.engine.waiting import waiting_to_you
from app.i18n import Voice
from app.quicklock import quick_lock

LINES: Final = 4096  # lines worded (a few dozen per table: its players, windows and voices)

_worded: OrderedDict[tuple[Voice, str, str], str] = OrderedDict()
_lock = quick_lock()


def waiting_words(voice: Voice, line: Ruling, you: str) -> str:
    """``line``, the public view's waiting line, as the player ``you`` reads it in ``voice``."""
    key = (voice, you, repr(line))
    with _lock:
        said = _worded.get(key)
        if said is not None:
            _worded.move_to_end(key)
            return said
    said = voice.ruling_to(line, you, waiting_to_you)
    with _lock:
        _worded[key] = said
        while len(_worded) > LINES:
            _worded.popitem(last=False)
    return said
