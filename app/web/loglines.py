"""A log's lines, each drawn once: a ruling at its number is worded and drawn the same on
every screen of the table, version after version, so a screen's log is a join of remembered
lines plus the one or two new ones. The tablet shows the newest 30, each phone the newest 8.

A line is remembered by its voice (language and box), its number, the frozen ruling's
identity (the memo holds the ruling, so the identity can't be reused) and, for a step the
referee undid, its words. Each line holds :data:`RULES_SLOT` where its rule code links to the
screen's own Rules page (a seat's carries the seat's token), filled in by :func:`log_html`.
Lines hold only what the log says, which is public.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Final

from markupsafe import Markup, escape

from app.i18n import Voice
from app.web.templating import draw
from app.web.views import LogLine

RULES_SLOT: Final = "\x1erules-link\x1e"
"""Where a drawn line holds the screen's Rules link. A control character can't be in a name or
anything else a screen shows, so what players type can't forge it."""

LINES: Final = 16384  # lines remembered: the logs on show at 300 tables, in a few languages

_lock = threading.Lock()
_drawn: OrderedDict[Hashable, tuple[LogLine, str]] = OrderedDict()


def log_html(lines: Sequence[LogLine], voice: Voice, rules_url: str) -> Markup:
    """The lines as the log_line macro draws them, one after the other, linking to
    ``rules_url``."""
    html = "".join(_line(line, voice) for line in lines)
    return Markup(html.replace(RULES_SLOT, str(escape(rules_url))))


def _line(line: LogLine, voice: Voice) -> str:
    key = (voice, line.number, id(line.ruling), line.undone, line.time_up)
    with _lock:
        hit = _drawn.get(key)
        if hit is not None and hit[0].ruling is line.ruling:
            _drawn.move_to_end(key)
            return hit[1]
    html = draw("_logline.html", line=line, voice=voice, ruling=voice.ruling,
                rules_url=RULES_SLOT)
    with _lock:
        _drawn[key] = (line, html)
        while len(_drawn) > LINES:
            _drawn.popitem(last=False)
    return html
