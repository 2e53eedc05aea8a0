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

VERSION_SLOT: Final = "\x1eversion\x1e"
"""Where a region remembered by what it shows (:meth:`Fragments.alike`) holds the table's
version (every form carries it, for the stale-tap guard): the screen that places the region
fills it in once per version, so a region that did not change is not drawn again."""

FRAGMENTS: Final = 8192  # screens and parts: a tablet, 6 phones, their parts at 300 tables, twice
FRAGMENT_BYTES: Final = 48 * 2**20
"""The most the remembered fragments may take, as UTF-8. 300 open tables hold some 7,500 of
them, 3.5 KB each on average (26 MiB, ``bench/memory.py``); the oldest go first beyond it."""


class Fragments:
    """The newest fragment of each screen, by (table id, screen) and version. Each is kept as
    UTF-8: a screen's text is mostly ASCII, and one curly quote makes a Python string two
    bytes a character, so the bytes take half the memory (decoding one costs microseconds)."""

    def __init__(self, size: int = FRAGMENTS, budget: int = FRAGMENT_BYTES) -> None:
        self._size = size
        self._budget = budget
        self._bytes = 0  # what the kept fragments take
        self._drawn: OrderedDict[tuple[str, Hashable], tuple[Hashable, bytes]] = OrderedDict()
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
        return self._remembered((table_id, screen), version, draw,
                                lambda held: not isinstance(held, int) or held <= version)

    def alike(self, table_id: str, screen: Hashable, shows: Hashable, draw: Callable[[], str]
              ) -> str:
        """``screen`` as ``draw`` gives it, drawn again only when what it shows (``shows``)
        differs from the last time: a region that changes a few times a game, not with every
        version (a seat's own coins and cards). Only the newest is kept per screen."""
        return self._remembered((table_id, screen), shows, draw, lambda _newest: True)

    def _remembered(self, key: tuple[str, Hashable], mark: Hashable, draw: Callable[[], str],
                    replaces: Callable[[Hashable], bool]) -> str:
        """The html remembered under ``key`` if it was drawn for ``mark``, else ``draw()``,
        kept if ``replaces`` says so of the mark held (a newer version is not replaced)."""
        with self._lock:
            hit = self._drawn.get(key)
            if hit is not None and hit[0] == mark:
                self._drawn.move_to_end(key)
                return hit[1].decode()
        html = draw()
        with self._lock:
            newest = self._drawn.get(key)
            if newest is None or replaces(newest[0]):
                self._keep(key, mark, html.encode())
        return html

    def _keep(self, key: tuple[str, Hashable], mark: Hashable, html: bytes) -> None:
        """Remember ``html`` under ``key`` (the lock held), the oldest let go beyond the
        bounds: as many fragments as ``size``, as many bytes as ``budget``."""
        replaced = self._drawn.pop(key, None)
        if replaced is not None:
            self._bytes -= len(replaced[1])
        self._drawn[key] = (mark, html)
        self._bytes += len(html)
        while len(self._drawn) > self._size or self._bytes > self._budget:
            _key, (_mark, oldest) = self._drawn.popitem(last=False)
            self._bytes -= len(oldest)

    def held(self, table_id: str) -> list[tuple[Hashable, Hashable, str]]:
        """(screen, version or what it shows, html) of each fragment and part remembered for
        ``table_id``."""
        with self._lock:
            return [(screen, version, html.decode()) for (table, screen), (version, html)
                    in self._drawn.items() if table == table_id]

    def __len__(self) -> int:
        return len(self._drawn)

    @property
    def size_in_bytes(self) -> int:
        """What the remembered fragments take, as UTF-8."""
        return self._bytes
