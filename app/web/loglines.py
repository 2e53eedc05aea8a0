"""A log's lines, each drawn once: a ruling at its number is worded and drawn the same on
every screen of the table, version after version, so a screen's log is a join of remembered
lines plus the one or two new ones. The tablet shows the newest 30, each phone the newest 8.

A line is remembered by its voice (language, box and exchanger), its number, the frozen ruling's
identity (the memo holds the ruling, so the identity can't be reused) and, for a step the
referee undid, its words. Each line holds :data:`RULES_SLOT` where its rule code links to the
screen's own Rules page (a seat's carries the seat's token), filled in by :func:`log_html`.
Lines hold only what the log says, which is public.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Final

from markupsafe import Markup

from app.i18n import Voice
from app.quicklock import quick_lock
from app.web.i18n import escaped, say
from app.web.pieces import rule_tag
from app.web.views import LogLine

RULES_SLOT: Final = "\x1erules-link\x1e"
"""Where a drawn line holds the screen's Rules link. A control character can't be in a name or
anything else a screen shows, so what players type can't forge it."""

LINES: Final = 16384  # lines remembered: the logs on show at 300 tables, in a few languages

_lock = quick_lock()
_drawn: OrderedDict[Hashable, tuple[LogLine, str]] = OrderedDict()


def log_html(lines: Sequence[LogLine], voice: Voice, rules_url: str) -> Markup:
    """The lines as the log_line macro draws them, one after the other, linking to
    ``rules_url``. The remembered lines are looked up together, under one lock, by keys
    that hash in C (the voice as its three words, not the dataclass, whose hash is a Python
    call): a screen shows 8 or 30 lines and a tap brings one or two new ones."""
    spoken = (voice.language, voice.edition, voice.exchanger)
    keys = [(spoken, line.number, id(line.ruling), line.undone, line.time_up)
            for line in lines]
    with _lock:
        held = [_drawn.get(key) for key in keys]
        for key, hit in zip(keys, held, strict=True):
            if hit is not None:
                _drawn.move_to_end(key)
    html = "".join([hit[1] if hit is not None and hit[0].ruling is line.ruling else
                    _drawn_anew(key, line, voice)
                    for key, line, hit in zip(keys, lines, held, strict=True)])
    return Markup(html.replace(RULES_SLOT, escaped(rules_url)))


def _drawn_anew(key: Hashable, line: LogLine, voice: Voice) -> str:
    """``line`` drawn, and remembered under ``key``."""
    html = line_html(line, voice)
    with _lock:
        _drawn[key] = (line, html)
        while len(_drawn) > LINES:
            _drawn.popitem(last=False)
    return html


def line_html(line: LogLine, voice: Voice) -> str:
    """The log_line macro of _macros.html (as _logline.html draws it), in Python: a template's
    run imported the macros' module for each new line, some 130 Python calls a line. The
    macro stays the reference: tests/web/test_shared_parts.py compares both."""
    if line.undone:
        said = say(voice, "Undone by the referee: %(step)s", step=line.undone)
        return f'\n\n<li class="undone"><span class="n" aria-hidden="true">↶</span> {said}</li>\n'
    ruling = line.ruling
    assert ruling is not None
    tag = f" {rule_tag(ruling.rule, RULES_SLOT)}" if ruling.rule else ""
    return (f'\n<li><span class="n">{line.number}.</span> {time_up_html(voice, line.time_up)}'
            f"{escaped(voice.ruling(ruling))}{tag}</li>\n")


def time_up_html(voice: Voice, time_up: bool) -> str:
    """The time_up macro of _macros.html: the clock decided this ruling's step."""
    return f'<span class="time-up">{say(voice, "Time is up.")}</span> ' if time_up else ""
