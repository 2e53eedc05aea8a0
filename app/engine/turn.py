"""A turn under way: what it may wait on, and what it owes (frozen records, like the game's).

A turn waits on at most one open thing (`Turn.open`: a challenge window, a claim challenged
and not yet proven or conceded, a block window, an exchange, an examine) and on the losses
and draws it owes. When nothing is open or owed, the turn's next part (`Turn.next`) runs (see
`flow.advance`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class ChallengeWindow:
    """A claim is open to challenge: the action's (`on_block` false) or a block's."""

    claimant: str
    claim: str
    on_block: bool
    passed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Challenged:
    """A claim was challenged: the claimant must prove or concede (one challenge per claim)."""

    claimant: str
    claim: str
    on_block: bool
    challenger: str


@dataclass(frozen=True)
class BlockWindow:
    """Players may block the action; `again` after a failed Foreign Aid block (E-11)."""

    passed: tuple[str, ...] = ()
    again: bool = False


@dataclass(frozen=True)
class Exchange:
    """The actor holds the drawn cards (named for a tracked hand) and must choose what to keep."""

    drawn: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class Examine:
    """The Inquisitor's Examine: a card is shown (`show`), then swapped or returned (`decide`)."""

    stage: Literal["show", "decide"]
    shown_by: str
    shown: str | None = None  # the card shown (private); None for an untracked target


Open = ChallengeWindow | Challenged | BlockWindow | Exchange | Examine


# The turn's next part, run once nothing is open or owed (RULES.md §1.3): "after_claim" (the
# action's claim stands: blocks, if anyone may block), "resolve", "blocked", "block_failed",
# "end" (replacements owed at the end of the turn), "finish" (coins of the eliminated go
# back; play passes on).
Next = Literal["after_claim", "resolve", "blocked", "block_failed", "end", "finish"]


LossReason = Literal["challenge", "block_challenge", "coup", "assassinate"]


@dataclass(frozen=True)
class Loss:
    """An influence someone must turn face up, in the order losses arose (E-29, E-40)."""

    player: str
    reason: LossReason
    must: str | None = None  # a card the loss must be (embezzle_caught_loses_duke)


@dataclass(frozen=True)
class Draw:
    """Cards someone must take from the court deck, and what goes back with them."""

    player: str
    count: int
    reason: Literal["proof", "exchange", "examine"]
    returned: tuple[str, ...] = ()  # cards that go back into the deck
    to_bottom: bool = False  # drawn from the top, the returned cards put at the bottom
    rule: str | None = None  # the edge case the replacement's ruling names (E-13 for a block)


@dataclass(frozen=True)
class Proof:
    """A proof awaiting its replacement at the end of the turn (bottom_at_end_of_turn)."""

    player: str
    cards: tuple[str, ...]  # the cards shown (for an untracked prover: the claimed character)
    count: int  # how many cards are replaced
    cancelled: bool = False


@dataclass(frozen=True)
class Block:
    blocker: str
    character: str


@dataclass(frozen=True)
class Turn:
    actor: str
    action: str
    target: str | None = None
    paid: int = 0
    open: Open | None = None
    next: Next | None = None
    block: Block | None = None
    tried_blockers: frozenset[str] = frozenset()
    target_lost_challenge: bool = False
    losses: tuple[Loss, ...] = ()
    draws: tuple[Draw, ...] = ()
    proofs: tuple[Proof, ...] = ()

    @property
    def waiting(self) -> bool:
        """Whether someone owes something: a loss, a draw, or a move on what is open."""
        return bool(self.losses or self.draws or self.open)
