"""Which version each device was just given in the answer to its own tap.

A tap's answer is the tapping device's fresh screen. The same version is then published, and
that device's stream would carry the same screen again: one drawing and one send of 4-10 KB
for nothing, on every tap. So a tap's answer is noted here by (table, device), and that
device's stream sends only the version number for it (:data:`app.live.HELD`).

Nothing here is trusted for correctness: a device whose answer never arrived (the Wi-Fi
dropped it) sees, in the event, a version newer than its screen and fetches its screen
(``static/app.js``), and the poll every 10 s is still there. A second tab of the same browser
does the same. Bounded: the oldest notes go first.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from app.quicklock import quick_lock

ANSWERS: Final = 4096  # devices remembered: 300 tables of 7, twice over


class Answered:
    """The newest version each (table, device) got in a tap's answer."""

    def __init__(self, size: int = ANSWERS) -> None:
        self._size = size
        self._given: OrderedDict[tuple[str, str], int] = OrderedDict()
        self._lock = quick_lock()

    def note(self, table_id: str, device: str, version: int) -> None:
        with self._lock:
            key = (table_id, device)
            if self._given.get(key, -1) < version:
                self._given[key] = version
            self._given.move_to_end(key)
            while len(self._given) > self._size:
                self._given.popitem(last=False)

    def holds(self, table_id: str, device: str, version: int) -> bool:
        """Was ``device`` answered with ``version`` of ``table_id`` (or a newer one)?"""
        with self._lock:
            return self._given.get((table_id, device), -1) >= version

    def __len__(self) -> int:
        return len(self._given)
