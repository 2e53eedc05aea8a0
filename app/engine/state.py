"""The state of a game: plain data, copied before each step so a refused step changes nothing.

Physical cards make the engine simple: it never shuffles or draws. It only knows which cards
*could* be in the court deck (`unseen`: the deck plus every untracked hand) and refuses a hand,
a draw or a proof that would need a card that cannot be there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from .rules import Rules
from .rulings import Ruling


@dataclass
class Player:
    name: str
    coins: int
    hand: list[str] | None  # face-down cards; None when the hand is not tracked (no phone)
    face_down: int
    revealed: list[str] = field(default_factory=list)
    faction: str | None = None
    out: bool = False

    @property
    def tracked(self) -> bool:
        return self.hand is not None

    def copy(self) -> Player:
        return replace(
            self,
            hand=None if self.hand is None else list(self.hand),
            revealed=list(self.revealed),
        )


@dataclass
class Loss:
    """An influence someone must turn face up, in the order losses arose (E-29, E-40)."""

    player: str
    reason: str  # "challenge", "block_challenge", "coup", "assassinate"
    must: str | None = None  # a card the loss must be (embezzle_caught_loses_duke)


@dataclass
class Draw:
    """Cards someone must take from the court deck, and what goes back with them."""

    player: str
    count: int
    reason: str  # "proof", "exchange", "examine"
    returned: list[str] = field(default_factory=list)  # cards that go back into the deck
    to_bottom: bool = False  # bottom_at_end_of_turn: drawn from the top, above the returned


@dataclass
class Proof:
    """A proof awaiting its replacement at the end of the turn (bottom_at_end_of_turn)."""

    player: str
    cards: list[str]  # the cards shown (for an untracked prover: the claimed character)
    count: int  # how many cards are replaced
    cancelled: bool = False


@dataclass
class Turn:
    actor: str
    action: str
    target: str | None = None
    paid: int = 0
    window: str | None = None  # "challenge", "block", "block_challenge" or None
    passed: set[str] = field(default_factory=set)
    claimant: str | None = None  # whose claim is open to challenge or being answered
    claim: str | None = None
    challenger: str | None = None  # set while the challenged claimant must prove or concede
    blocker: str | None = None
    block_as: str | None = None
    tried_blockers: set[str] = field(default_factory=set)
    target_lost_challenge: bool = False
    losses: list[Loss] = field(default_factory=list)
    draws: list[Draw] = field(default_factory=list)
    proofs: list[Proof] = field(default_factory=list)
    then: str | None = None  # what follows once every loss and draw is settled
    stage: str | None = None  # exchange/examine: "keep", "show", "decide"
    exchange_cards: list[str] = field(default_factory=list)  # drawn, not yet kept or returned
    exchange_drawn: int = 0
    shown: str | None = None  # the card shown to the Inquisitor (private)
    shown_by: str | None = None
    ending: bool = False  # the action is over; end-of-turn draws may remain

    def copy(self) -> Turn:
        return replace(
            self,
            passed=set(self.passed),
            tried_blockers=set(self.tried_blockers),
            losses=[replace(x) for x in self.losses],
            draws=[replace(d, returned=list(d.returned)) for d in self.draws],
            proofs=[replace(p, cards=list(p.cards)) for p in self.proofs],
            exchange_cards=list(self.exchange_cards),
        )


@dataclass
class Game:
    rules: Rules
    players: list[Player]
    treasury: int
    reserve: int
    deck_size: int
    unseen: Counter[str]  # cards that may be in the deck or an untracked hand
    current: str  # whose turn it is, or whose turn is next
    setup: dict[str, Any]  # the record's set-up, for export
    turn: Turn | None = None
    winner: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    log: list[Ruling] = field(default_factory=list)
    out_this_turn: list[str] = field(default_factory=list)

    def copy(self) -> Game:
        return replace(
            self,
            players=[p.copy() for p in self.players],
            unseen=Counter(self.unseen),
            turn=None if self.turn is None else self.turn.copy(),
            steps=list(self.steps),
            log=list(self.log),
            out_this_turn=list(self.out_this_turn),
        )

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def has(self, name: object) -> bool:
        return any(p.name == name for p in self.players)

    def living(self) -> list[Player]:
        return [p for p in self.players if not p.out]

    def next_living_after(self, name: str) -> str:
        names = [p.name for p in self.players]
        i = names.index(name)
        for k in range(1, len(names) + 1):
            p = self.players[(i + k) % len(names)]
            if not p.out:
                return p.name
        return name

    @property
    def over(self) -> bool:
        return self.winner is not None

    def one_side(self) -> bool:
        """Reformation: every living player is on the same side (restrictions lifted, E-32)."""
        return len({p.faction for p in self.living()}) <= 1

    def same_side(self, a: str, b: str) -> bool:
        """Reformation forbids hostility between a and b (false outside Reformation)."""
        if not self.rules.reformation or self.one_side():
            return False
        return self.player(a).faction == self.player(b).faction
