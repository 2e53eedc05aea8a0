"""The game's vocabulary as data: characters, actions, who may block them.

Names are the ones a game record uses (`coup-record/1`). Everything a handler needs to know
about an action (its cost, the character it claims, whether it needs a target, who may block it
and as what) is read from ACTIONS, so variants change this table, never the shape of the code.
"""

from __future__ import annotations

from dataclasses import dataclass

DUKE = "duke"
ASSASSIN = "assassin"
CAPTAIN = "captain"
AMBASSADOR = "ambassador"
CONTESSA = "contessa"
INQUISITOR = "inquisitor"

CHARACTERS = (DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA, INQUISITOR)

LOYALIST = "loyalist"
REFORMIST = "reformist"
FACTIONS = (LOYALIST, REFORMIST)

EXCHANGER = "exchanger"  # placeholder in ACTIONS: the Ambassador or the Inquisitor, per rules


@dataclass(frozen=True)
class Action:
    name: str
    cost: int = 0  # paid when declared
    gain: int = 0  # coins from the treasury when it resolves
    claim: str | None = None  # the character claimed; EXCHANGER = the game's exchanger
    targeted: bool = False
    blocked_by: tuple[str, ...] = ()  # characters a block may claim; EXCHANGER as above
    blockers: str = ""  # "" nobody, "anyone" any other player, "target" only the target
    needs: str = ""  # "", "inquisitor" (Inquisitor games only), "reformation"
    inverted: bool = False  # Embezzle: claims NOT to hold the character


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        Action("income", gain=1),
        Action("foreign_aid", gain=2, blocked_by=(DUKE,), blockers="anyone"),
        Action("coup", cost=7, targeted=True),
        Action("tax", gain=3, claim=DUKE),
        Action(
            "assassinate",
            cost=3,
            claim=ASSASSIN,
            targeted=True,
            blocked_by=(CONTESSA,),
            blockers="target",
        ),
        Action(
            "steal",
            claim=CAPTAIN,
            targeted=True,
            blocked_by=(CAPTAIN, EXCHANGER),
            blockers="target",
        ),
        Action("exchange", claim=EXCHANGER),
        Action("examine", claim=INQUISITOR, targeted=True, needs="inquisitor"),
        Action("convert", targeted=True, needs="reformation"),
        Action("embezzle", claim=DUKE, needs="reformation", inverted=True),
    )
}

# Actions that the Reformation allegiance rule forbids against your own side.
HOSTILE = frozenset({"coup", "assassinate", "steal", "examine"})

FORCED_COUP_AT = 10
CONVERT_SELF_COST = 1
CONVERT_OTHER_COST = 2
STARTING_COINS = 2


_INDEX = {c: i for i, c in enumerate(CHARACTERS)}


@dataclass(frozen=True)
class Pool:
    """An immutable multiset of characters: how many of each may still be unseen."""

    counts: tuple[int, ...] = (0,) * len(CHARACTERS)

    @classmethod
    def of(cls, cards: dict[str, int]) -> Pool:
        return cls(tuple(cards.get(c, 0) for c in CHARACTERS))

    def __getitem__(self, card: str) -> int:
        return self.counts[_INDEX[card]]

    def plus(self, cards: tuple[str, ...] | list[str]) -> Pool:
        if not cards:
            return self
        counts = list(self.counts)
        for c in cards:
            counts[_INDEX[c]] += 1
        return Pool(tuple(counts))

    def minus(self, cards: tuple[str, ...] | list[str]) -> Pool:
        if not cards:
            return self
        counts = list(self.counts)
        for c in cards:
            counts[_INDEX[c]] -= 1
        return Pool(tuple(counts))

    def holds(self, cards: tuple[str, ...] | list[str]) -> bool:
        """Whether every card named (with repeats) is in the pool."""
        counts = list(self.counts)
        for c in cards:
            counts[_INDEX[c]] -= 1
            if counts[_INDEX[c]] < 0:
                return False
        return True

    def items(self) -> dict[str, int]:
        return {c: n for c, n in zip(CHARACTERS, self.counts, strict=True) if n}
