"""What the store holds, as the rest of the referee sees it: tables, seats, log rows and the
errors of a write (frozen values; their JSON read-only), and how a database row becomes one.
The store itself (:mod:`app.store`) reads and writes them."""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from app.frozen import freeze

JSON = Mapping[str, Any]
"""A JSON object as stored: read it, never change it (states built from it are shared)."""


class StoreError(Exception):
    """Base class of the errors this module raises on purpose."""


class StaleVersion(StoreError):
    """The log moved since the caller read it: someone acted first. Refresh, don't retry blindly."""

    def __init__(self, table_id: str, expected: int, actual: int) -> None:
        super().__init__(f"table {table_id}: expected version {expected}, it is {actual}")
        self.expected = expected
        self.actual = actual


class UnknownTable(StoreError):
    """No table has this id."""


class SeatGone(StoreError):
    """The seat's link was re-issued (or it is held by another device) since it was read."""


@dataclass(frozen=True, slots=True)
class Table:
    """One game table. ``id`` appears in URLs; ``referee_token`` unlocks the referee screen."""

    id: str
    created: str
    referee_token: str
    setup: JSON
    language: str


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat (player) at a table, numbered 0.. clockwise. ``token`` unlocks that phone's hand."""

    seat: int
    name: str
    token: str
    device: str | None
    hand: tuple[str, ...] | None
    tracked: bool
    language: str | None


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of a table's log, as stored. ``undoes`` is the seq an undo row cancelled;
    ``created`` is when it was written (ISO 8601, the laptop's clock in UTC)."""

    seq: int
    kind: Literal["step", "undo"]
    step: JSON | None
    undoes: int | None
    created: str = ""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table as one transaction saw it: the row, the seats and the log."""

    table: Table
    seats: tuple[Seat, ...]
    rows: tuple[LogRow, ...]


def new_token() -> str:
    """An unguessable URL-safe token: 24 random bytes = 192 bits."""
    return secrets.token_urlsafe(24)


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of any text, non-ASCII included: compared as UTF-8 bytes
    (``hmac.compare_digest`` raises on non-ASCII ``str``)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- rows ---------------------------------------------------------------------------------


def table_from_row(row: Mapping[str, Any]) -> Table:
    return Table(id=row["id"], created=row["created"], referee_token=row["referee_token"],
                 setup=freeze(json.loads(row["setup"])), language=row["language"])


def seat_from_row(row: Mapping[str, Any]) -> Seat:
    hand = row["hand"]
    return Seat(seat=row["seat"], name=row["name"], token=row["token"], device=row["device"],
                hand=None if hand is None else tuple(json.loads(hand)),
                tracked=bool(row["tracked"]), language=row["language"])


def log_row(row: Mapping[str, Any]) -> LogRow:
    step = row["step"]
    return LogRow(seq=row["seq"], kind=row["kind"],
                  step=None if step is None else freeze(json.loads(step)), undoes=row["undoes"],
                  created=row.get("created") or "")


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat of a table being created: its name, and its hand when one is known already."""

    name: str
    hand: tuple[str, ...] | None = None
    tracked: bool = True


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game's numbers for the players' page (issue 14): its winner and each
    player's tallies. ``settled``: no undo can reopen the game any more, so the numbers that
    tell hidden cards (uncaught bluffs) may count too."""

    game: int
    winner: str | None
    tallies: JSON
    settled: bool
