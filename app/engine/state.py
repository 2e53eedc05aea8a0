"""The state of a game: frozen records. `apply` never changes a state; it builds the next one.

Physical cards make the engine simple: it never shuffles or draws. It only knows which cards
*could* be in the court deck (`unseen`: the deck plus every untracked hand) and refuses a hand,
a draw or a proof that would need a card that cannot be there.

The turn under way, and what it waits on, is in turn.py.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from .cards import Pool
from .rules import Rules
from .rulings import Ruling
from .turn import Turn

_T = TypeVar("_T")


_new = object.__new__
_set = object.__setattr__


def evolve(obj: _T, **changes: Any) -> _T:
    """A copy of a frozen record with some fields changed (`dataclasses.replace`, without the
    per-field checks that make it several times slower on every step)."""
    new = _new(obj.__class__)
    fields = obj.__dict__.copy()
    fields.update(changes)
    _set(new, "__dict__", fields)
    return new


@dataclass(frozen=True)
class Player:
    name: str
    coins: int
    hand: tuple[str, ...] | None  # face-down cards; None when the hand is not tracked (no phone)
    face_down: int
    revealed: tuple[str, ...] = ()
    faction: str | None = None
    out: bool = False

    @property
    def tracked(self) -> bool:
        return self.hand is not None


# --- steps -------------------------------------------------------------------------------


class Step(NamedTuple):
    """One step of a game record (FORMAT.md), checked against the table of step kinds.

    A named tuple rather than a dataclass: one is made for every step of every replay."""

    do: str
    by: str | None = None
    target: str | None = None
    as_: str | None = None
    card: str | None = None
    cards: tuple[str, ...] | None = None

    def as_record(self) -> dict[str, Any]:
        """The step as a record writes it."""
        out: dict[str, Any] = {}
        if self.by is not None:
            out["by"] = self.by
        out["do"] = self.do
        if self.target is not None:
            out["target"] = self.target
        if self.as_ is not None:
            out["as"] = self.as_
        if self.card is not None:
            out["card"] = self.card
        if self.cards is not None:
            out["cards"] = list(self.cards)
        return out


# --- the game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    rules: Rules
    players: tuple[Player, ...]
    treasury: int
    reserve: int
    deck_size: int
    unseen: Pool  # cards that may be in the deck or an untracked hand
    current: str  # whose turn it is, or whose turn is next
    setup_json: str  # the record's set-up, for export
    turn: Turn | None = None
    winner: str | None = None
    history: tuple[Step, ...] = ()  # the accepted steps, in order
    log: tuple[Ruling, ...] = ()  # the public rulings, in order
    out_this_turn: tuple[str, ...] = field(default=())
    seats: Mapping[str, int] = field(default_factory=dict)  # name -> place; never changes

    @property
    def setup(self) -> dict[str, Any]:
        """The record's set-up (a fresh copy each time: the state itself is never changed)."""
        value: dict[str, Any] = json.loads(self.setup_json)
        return value

    @property
    def steps(self) -> list[dict[str, Any]]:
        """The accepted steps as a record writes them."""
        return [s.as_record() for s in self.history]

    def player(self, name: str) -> Player:
        return self.players[self.seats[name]]

    def has(self, name: object) -> bool:
        return isinstance(name, str) and name in self.seats

    def next_living_after(self, name: str) -> str:
        players, i = self.players, self.seats[name]
        for k in range(1, len(players) + 1):
            p = players[(i + k) % len(players)]
            if not p.out:
                return p.name
        return name

    @property
    def over(self) -> bool:
        return self.winner is not None

    def one_side(self) -> bool:
        """Reformation: every living player is on the same side (restrictions lifted, E-32)."""
        return len({p.faction for p in self.players if not p.out}) <= 1

    def same_side(self, a: str, b: str) -> bool:
        """Reformation forbids hostility between a and b (false outside Reformation)."""
        if not self.rules.reformation or self.player(a).faction != self.player(b).faction:
            return False
        return not self.one_side()


# --- small builders used by the flow and the handlers ------------------------------------


def with_player(game: Game, name: str, **changes: Any) -> Game:
    i = game.seats[name]
    players = game.players
    return evolve(game, players=(*players[:i], evolve(players[i], **changes), *players[i + 1:]))


def with_turn(game: Game, **changes: Any) -> Game:
    """The game with its turn changed (written out: it runs several times a step)."""
    assert game.turn is not None
    turn = _new(Turn)
    fields = game.turn.__dict__.copy()
    fields.update(changes)
    _set(turn, "__dict__", fields)
    new = _new(Game)
    fields = game.__dict__.copy()
    fields["turn"] = turn
    _set(new, "__dict__", fields)
    return new


def with_step(game: Game, step: Step) -> Game:
    """The game with one more accepted step in its history (written out: it runs on every
    step)."""
    new = _new(Game)
    fields = game.__dict__.copy()
    fields["history"] = fields["history"] + (step,)
    _set(new, "__dict__", fields)
    return new


def with_ruling(game: Game, text: str | tuple[str, str], rule: str | None = None,
                count: str | None = None, **params: object) -> Game:
    """The game with one more ruling in its public log; (singular, plural) texts are chosen
    by the value named `count`."""
    ruling = _new(Ruling)
    _set(ruling, "__dict__", {"text": text, "params": MappingProxyType(params), "rule": rule,
                              "count": count})
    new = _new(Game)
    fields = game.__dict__.copy()
    fields["log"] = game.log + (ruling,)
    _set(new, "__dict__", fields)
    return new


def make(cls: type[_T], **fields: Any) -> _T:
    """A frozen record from all its fields, without the dataclass `__init__` (which sets each
    field through `object.__setattr__`): for the records made on every step."""
    new = _new(cls)
    _set(new, "__dict__", fields)
    return new
