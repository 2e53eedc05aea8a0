"""Each screen is drawn once per version: the rendered fragments, remembered.

A table's state at a version never changes (:mod:`app.web.state`), so neither does a screen
drawn from it: the referee's screen is the same for every referee device, a seat's screen the
same for each of its refreshes. A fragment is remembered by what it is drawn from: the table,
the audience (the tablet, or one seat's link), the language, and whatever else it shows (the
base of the links, a referee code on show); only the newest version of each is kept, so the
memory follows the open screens, not the history.

What differs per device is the form token (:func:`~app.web.security.csrf_token` is bound to
the device), so a fragment is drawn with :data:`CSRF_SLOT` in its place and each answer fills
in its own. A screen with a message (a refusal, a flash) is drawn fresh every time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Final

CSRF_SLOT: Final = "\x1eform-token\x1e"
"""Where a remembered fragment holds the device's form token. Control characters can't be in a
name or anything else a screen shows (names with hidden characters are refused), so the slot
can't be forged by what players type."""

FRAGMENTS: Final = 8192  # screens and parts: a tablet, 6 phones, their parts at 300 tables, twice


class Fragments:
    """The newest fragment of each screen, by (table id, screen) and version."""

    def __init__(self, size: int = FRAGMENTS) -> None:
        self._size = size
        self._drawn: OrderedDict[tuple[str, Hashable], tuple[int, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str, screen: Hashable, version: int, draw: Callable[[], str],
            csrf: str) -> str:
        """The fragment of ``screen`` at ``version``, drawn by ``draw`` (with
        :data:`CSRF_SLOT` for the form token) unless it was drawn before; ``csrf`` filled in."""
        return self.part(table_id, screen, version, draw).replace(CSRF_SLOT, csrf)

    def part(self, table_id: str, screen: Hashable, version: int, draw: Callable[[], str]
             ) -> str:
        """``screen`` at ``version`` as ``draw`` gives it, drawn once: a whole screen with its
        slots, or a part that several screens of the table share."""
        key = (table_id, screen)
        with self._lock:
            hit = self._drawn.get(key)
            if hit is not None and hit[0] == version:
                self._drawn.move_to_end(key)
                return hit[1]
        html = draw()
        with self._lock:
            newest = self._drawn.get(key)
            if newest is None or newest[0] <= version:
                self._drawn[key] = (version, html)
                self._drawn.move_to_end(key)
            while len(self._drawn) > self._size:
                self._drawn.popitem(last=False)
        return html

    def held(self, table_id: str) -> list[tuple[Hashable, int, str]]:
        """(screen, version, html) of each fragment and part remembered for ``table_id``."""
        with self._lock:
            return [(screen, version, html) for (table, screen), (version, html)
                    in self._drawn.items() if table == table_id]

    def __len__(self) -> int:
        return len(self._drawn)
