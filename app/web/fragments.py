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

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Final

from app.quicklock import quick_lock

CSRF_SLOT: Final = "\x1eform-token\x1e"
"""Where a remembered fragment holds the device's form token. Control characters can't be in a
name or anything else a screen shows (names with hidden characters are refused), so the slot
can't be forged by what players type."""

CSRF_SLOT_BYTES: Final = CSRF_SLOT.encode()  # the slot in the bytes kept

VERSION_SLOT: Final = "\x1eversion\x1e"
"""Where a region remembered by what it shows (:meth:`Fragments.alike`) holds the table's
version (every form carries it, for the stale-tap guard): the screen that places the region
fills it in once per version, so a region that did not change is not drawn again."""

FRAGMENTS: Final = 32768
"""Screens, parts and regions remembered (a region's few drawings count once): a table holds
about 60 (a tablet and 6 phones, their shared parts, 6 regions of the tablet's and 5 of each
seat's), so 300 tables fit twice over."""

ALIKE_KEPT: Final = 3  # drawings kept per region remembered by what it shows

FRAGMENT_BYTES: Final = 48 * 2**20
"""The most the remembered fragments may take, as UTF-8; the oldest go first beyond it
(``bench/memory.py`` prints what 300 tables hold)."""


class Fragments:
    """The newest fragment of each screen, by (table id, screen) and version. Each is kept as
    UTF-8: a screen's text is mostly ASCII, and one curly quote makes a Python string two
    bytes a character, so the bytes take half the memory (decoding one costs microseconds)."""

    def __init__(self, size: int = FRAGMENTS, budget: int = FRAGMENT_BYTES) -> None:
        self._size = size
        self._budget = budget
        self._bytes = 0  # what the kept fragments take
        self._drawn: OrderedDict[tuple[str, Hashable], tuple[tuple[object, bytes], ...]] = \
            OrderedDict()
        self._lock = quick_lock()

    def get(self, table_id: str, screen: Hashable, version: int, draw: Callable[[], str],
            csrf: str, now: object = None) -> str:
        """The fragment of ``screen`` at ``version``, drawn by ``draw`` (with
        :data:`CSRF_SLOT` for the form token) unless it was drawn before; ``csrf`` filled in.
        ``now``: what else it shows that changes between versions (a countdown's seconds),
        compared as a value (never hashed)."""
        return self.part(table_id, screen, version, draw, now).replace(CSRF_SLOT, csrf)

    def get_encoded(self, table_id: str, screen: Hashable, version: int,
                    draw: Callable[[], str], csrf: str, now: object = None) -> bytes:
        """:meth:`get` as the UTF-8 bytes an answer sends: the bytes kept, the form token
        filled in, neither decoded nor encoded again (a tablet's screen is ~45,000
        characters, and one curly quote in it makes encoding it a walk character by
        character: the answer to a tap encoded it once to keep it, and again to send it)."""
        kept, drawn = self._found_or_drawn(
            (table_id, screen), (version, now), draw,
            lambda held: isinstance(held, tuple) and held[0] <= version)
        if kept is None:  # drawn, and a newer version was kept meanwhile
            assert drawn is not None
            kept = drawn.encode()
        return kept.replace(CSRF_SLOT_BYTES, csrf.encode())

    def part(self, table_id: str, screen: Hashable, version: int, draw: Callable[[], str],
             now: object = None) -> str:
        """``screen`` at ``version`` (and ``now``) as ``draw`` gives it, drawn once: a whole
        screen with its slots, or a part that several screens of the table share. One is
        kept per screen: the newest version's, as it was last drawn."""
        return self._remembered((table_id, screen), (version, now), draw,
                                lambda held: isinstance(held, tuple) and held[0] <= version)

    def alike(self, table_id: str, screen: Hashable, shows: Hashable, draw: Callable[[], str],
              kept: int = ALIKE_KEPT) -> str:
        """``screen`` as ``draw`` gives it, drawn again only when what it shows (``shows``)
        differs from the last few times: a region that changes a few times a game, not with
        every version (a seat's own coins and cards), or that comes back to what it was (a
        seat's answers: none, then a challenge's buttons, then none again). The newest
        ``kept`` drawings are kept per screen (one for a region that never comes back to what
        it showed before)."""
        return self._remembered((table_id, screen), shows, draw, lambda _newest: True, kept)

    def _remembered(self, key: tuple[str, Hashable], mark: object, draw: Callable[[], str],
                    replaces: Callable[[object], bool], kept: int = 1) -> str:
        """The html remembered under ``key`` if it was drawn for ``mark``, else ``draw()``,
        kept (with the ``kept - 1`` drawn before it) if ``replaces`` says so of the newest
        mark held (a newer version is not replaced)."""
        with self._lock:
            for seen, kept_html in self._drawn.get(key, ()):
                if seen == mark:
                    self._drawn.move_to_end(key)
                    return kept_html.decode()
        html = draw()
        self._keep_drawn(key, mark, html, replaces, kept)
        return html

    def _found_or_drawn(self, key: tuple[str, Hashable], mark: object,
                        draw: Callable[[], str], replaces: Callable[[object], bool],
                        kept: int = 1) -> tuple[bytes | None, str | None]:
        """(the bytes remembered, None) if drawn for ``mark``; else (the bytes kept of it or
        None, ``draw()``), as :meth:`_remembered` keeps it (the same look-up, without the
        decoding: a separate function would be one more Python call at every look-up)."""
        with self._lock:
            for seen, kept_html in self._drawn.get(key, ()):
                if seen == mark:
                    self._drawn.move_to_end(key)
                    return kept_html, None
        html = draw()
        return self._keep_drawn(key, mark, html, replaces, kept), html

    def _keep_drawn(self, key: tuple[str, Hashable], mark: object, html: str,
                    replaces: Callable[[object], bool], kept: int) -> bytes | None:
        """Keep ``html`` drawn for ``mark`` (with the ``kept - 1`` drawn before it) if
        ``replaces`` says so of the newest mark held; its bytes if kept."""
        with self._lock:
            held = self._drawn.get(key, ())
            if not held or replaces(held[-1][0]):
                encoded = html.encode()
                self._keep(key, (*held[max(0, len(held) - kept + 1):], (mark, encoded)))
                return encoded
        return None

    def _keep(self, key: tuple[str, Hashable], drawings: tuple[tuple[object, bytes], ...]
              ) -> None:
        """Remember ``drawings`` under ``key`` (the lock held), the oldest screens let go
        beyond the bounds: as many as ``size``, as many bytes as ``budget``."""
        self._bytes -= _size_of(self._drawn.pop(key, ()))
        self._drawn[key] = drawings
        self._bytes += _size_of(drawings)
        while len(self._drawn) > self._size or self._bytes > self._budget:
            _key, oldest = self._drawn.popitem(last=False)
            self._bytes -= _size_of(oldest)

    def held(self, table_id: str) -> list[tuple[Hashable, object, str]]:
        """(screen, version or what it shows, html) of each fragment and part remembered for
        ``table_id``."""
        with self._lock:
            return [(screen, version, html.decode())
                    for (table, screen), held in self._drawn.items() if table == table_id
                    for version, html in held]

    def __len__(self) -> int:
        return len(self._drawn)

    @property
    def size_in_bytes(self) -> int:
        """What the remembered fragments take, as UTF-8."""
        return self._bytes


def _size_of(drawings: tuple[tuple[object, bytes], ...]) -> int:
    # A list, not a generator: each step of a generator is a Python call (twice per drawing
    # kept, a dozen times a tap).
    return sum([len(html) for _mark, html in drawings])
