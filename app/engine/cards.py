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
    cost: int = 0
    claim: str | None = None  # the character claimed; EXCHANGER = the game's exchanger
    targeted: bool = False
    blocked_by: tuple[str, ...] = ()  # characters a block may claim; EXCHANGER as above
    blockers: str = ""  # "" nobody, "anyone" any other player, "target" only the target
    needs: str = ""  # "", "inquisitor" (Inquisitor games only), "reformation"
    inverted: bool = False  # Embezzle: claims NOT to hold the character


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        Action("income"),
        Action("foreign_aid", blocked_by=(DUKE,), blockers="anyone"),
        Action("coup", cost=7, targeted=True),
        Action("tax", claim=DUKE),
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
