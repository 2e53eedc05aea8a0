"""The referee's screen in a game, put together in Python: what tablet/_tablet.html draws in
the usual case, byte for byte, without a template's run (its includes, its ``place()`` calls
through Jinja, its escapes and generator steps: ~0.1 ms a screen, drawn on every tap).

The usual case is a game under way (or just won) with no message and no countdown on show.
The screen is then its regions, each drawn and remembered by :mod:`app.web.regions` (the
referee's tools, the undo, each seat, the prompt, the log, the night's tools and the rulings
to read aloud), joined by a frame of a few lines: the refresher, whose turn it is (or who
won), the bank. Any other case is the template's (:func:`frame` says None), and
tests/web/test_tablet_frame.py checks that both draw the same bytes at every step of random
games.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final

from markupsafe import Markup

from app.web.i18n import say
from app.web.links import link_for
from app.web.pieces import refresher

UNUSUAL: Final = ("message", "lobby", "countdown")
"""What the template alone draws: a screen showing any of these is not put together here."""


def frame(view: dict[str, Any]) -> str | None:
    """``view``'s screen (:func:`app.web.tablet.context`) as tablet/_tablet.html draws it, or
    None where the template must draw it."""
    if any(view.get(name) for name in UNUSUAL) or "view" not in view:
        return None
    place, version = view["place_html"], view["version"]
    since = f"{link_for('tablet.fragment', table_id=view['table_id'])}?since={version}"
    return "".join((
        "\n\n\n\n\n"
        f'<section id="tablet" class="tablet" data-version="{version}" sse-swap="changed"'
        ' hx-target="this" hx-swap="outerHTML" hx-sync="this:replace">\n  ',
        refresher(since, "tablet", pushed=True), "\n  \n  \n", _bar(view), "\n  \n  \n",
        _seats(view), "\n  ", place("prompt"), "\n  ", place("log"),
        '\n  \n  \n\n<section id="night" class="night">', place("night tools"), "\n  ",
        place("spoken"), "\n</section>\n</section>"))


def _bar(view: dict[str, Any]) -> str:
    """tablet/_bar.html in a game: whose turn (or who won), the bank, the tools."""
    v, place = view["view"], view["place_html"]
    if v["winner"]:
        title = f'<h1 class="winner">{_said(view, "%(name)s wins!", name=v["winner"])}'
    else:
        title = f'<h1>{_said(view, "%(name)s’s turn", name=v["current"])}'
    reserve = (f"<span>{_said(view, 'Treasury Reserve')} <b>{v['reserve']}</b></span>"
               if view["rules"].reformation else "")
    return (f'<header id="bar" class="bar">\n  \n  \n  \n  \n  {title}</h1>\n  \n'
            f'  <p class="bank"><span>{_said(view, "Treasury")} <b>{v["treasury"]}</b></span>'
            f"\n    {reserve}\n    <span>{_said(view, 'Court deck')} <b>{v['deck_size']}</b>"
            f'</span></p>\n  <nav class="tools">\n    {place("tools")}\n    {place("undo")}'
            "\n  </nav>\n  \n</header>")


def _seats(view: dict[str, Any]) -> str:
    """tablet/_seats.html: each seat's row, a region of its own."""
    v, place, calls = view["view"], view["place_html"], view["calls"]
    rows = [place("seat row", p["name"], p=p, call=calls.get(p["name"]),
                  won=p["name"] == v["winner"]) for p in v["players"]]
    return (f'<ol id="seats" class="seats n-{len(rows)}">\n  '
            + "".join([f"\n  {row}\n  " for row in rows]) + "\n</ol>")


def _said(view: dict[str, Any], text: str, **values: Any) -> Markup:
    return say(view["voice"], text, **values)


PARTS_KEPT: Final = 1024
"""Parts remembered by :func:`remembered`, the least recently shown let go beyond it (1.3 KB
each, ~1.3 MB at most): a declaration's actions are ~10 a player and coin count, ~40-70 a
table over a game, so a game night's tables keep theirs. With dozens of tables they are let
go before their player's next turn, and each is drawn as before (a miss costs a look-up)."""

_parts: OrderedDict[tuple[Any, ...], Markup] = OrderedDict()


def remembered(*shows: Any, caller: Callable[[], str]) -> Markup:
    """A part of a template drawn once for all it shows, as ``{% call remembered(...) %}``:
    ``shows`` names every value the part reads (a list as its items, trusted markup apart
    from text), and the block is drawn only when they are new. The declaration's buttons (an
    action each, with its targets or why it can't be taken) are the same turn after turn
    until the coins or the players change, and were a third of the tablet's prompt."""
    # A value's class is read before isinstance is asked (a Python-level call): most are
    # plain strings, names and flags.
    key = tuple([value if value.__class__ in PLAIN else tuple(value) if isinstance(value, list)
                 else (value, "markup") if isinstance(value, Markup) else value
                 for value in shows])
    html = _parts.get(key)
    if html is None:
        html = _parts[key] = Markup(caller())
        if len(_parts) > PARTS_KEPT:
            try:
                _parts.popitem(last=False)
            except KeyError:  # another thread let the same part go meanwhile
                pass
    else:
        try:  # not contextlib.suppress: three Python calls at each part found
            _parts.move_to_end(key)
        except KeyError:
            pass
    return html


PLAIN: Final = frozenset({str, bool, int, type(None)})
"""The classes of values :func:`remembered` keys as they are (not a list, not markup)."""
