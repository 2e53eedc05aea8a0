"""The seams between the service and the storage: what the service reads and writes of a
table (:class:`TableLog`) and of the players' page (:class:`PlayerLog`), and all of it.
:class:`app.store.Store` is the SQLite one; docs/SCALING.md swaps it for PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from app.rows import JSON, GameResult, NewSeat, Snapshot, Table

if TYPE_CHECKING:  # the store implements these; only its type is needed here
    from app.store import Known, Writing


@runtime_checkable
class TableLog(Protocol):
    """What the service reads and writes, and all of it: the seam where another store (the
    log in PostgreSQL, docs/SCALING.md) plugs in. :class:`Store` is the SQLite one."""

    def version(self, table_id: str) -> int | None:
        """The table's number of log rows, or None for no such table."""

    def read(self, table_id: str, after: int = 0) -> Snapshot | None:
        """The table, its seats and its log rows after ``after``, in one read."""

    def table_of_seat(self, token: str) -> str | None:
        """The table a seat link belongs to."""

    def create_table(self, setup: JSON, seats: Sequence[NewSeat], language: str,
                     log: Sequence[JSON] = (), result: GameResult | None = None) -> Table:
        """A new table with fresh tokens and its first log rows (and the result of the game
        they finish, if they do)."""
        raise NotImplementedError

    def write(self, table_id: str, expected_version: int, *, seat_token: str | None = None,
              seat_device: str | None = None, known: Known | None = None
              ) -> AbstractContextManager[Writing]:
        """One transaction at ``expected_version`` that ends in one log row (:class:`Writing`),
        refused with :class:`StaleVersion`, :class:`SeatGone` or :class:`UnknownTable`.
        ``known``: the table and seats at that version, not read back if left unchanged."""
        raise NotImplementedError


Naming = Callable[[list[GameResult], dict[str, str]], tuple[Sequence[str], str]]
"""A rename's or merge's decision (:meth:`PlayerLog.name_people`): given every finished game's
numbers and the names as they are, the keys of the names that become whose."""


@runtime_checkable
class PlayerLog(Protocol):
    """The players' page's reads and its one write (renames and merges); each game's numbers
    are written by the transaction of its table's row (:meth:`Writing.keep_result`)."""

    def results(self) -> list[GameResult]:
        """Every finished game's numbers on this laptop, oldest first."""
        raise NotImplementedError

    def aliases(self) -> dict[str, str]:
        """Each renamed or merged name's key (as the eye reads it) -> the player it is now."""
        raise NotImplementedError

    def language_of_device(self, device: str) -> str | None:
        """The language of the latest seat this device holds (its own choice, else its
        table's), or None for a device that holds no seat."""
        raise NotImplementedError

    def name_people(self, decide: Naming) -> None:
        """In one write transaction: ``decide`` is given the games and the names as they are
        under the write lock and answers which names' keys are whose from now on; what it
        answers is written. If it raises (a refusal), nothing is written."""
