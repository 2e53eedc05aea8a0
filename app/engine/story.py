"""The story of a finished game: who claimed what, who bluffed, who challenged and who was
right, each block, each influence lost, and the coins after every turn.

It is read from the game's accepted steps by playing them again, so it says exactly what the
rulings said, plus what only the hands knew: whether a claimant held the card. It shows every
hand, so the web layer shows it only once the game is over.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from .cards import ACTIONS
from .legality import claim_of
from .play import apply
from .setup import new_game
from .state import Game
from .turn import ChallengeWindow

MarkKind = Literal["claim", "action", "block", "challenge", "lose"]


@dataclass(frozen=True)
class Mark:
    """One thing a player did or suffered in a turn.

    ``held`` (a claim or a block): True when the claim was true, False for a bluff, None when
    the hand was not tracked. ``inverted``: an Embezzle's claim to hold *no* such card.
    ``right`` (a challenge): whether the challenger was right; ``caught`` (a claim): it was
    challenged and not proven."""

    kind: MarkKind
    player: str
    card: str | None = None
    action: str | None = None
    other: str | None = None
    held: bool | None = None
    inverted: bool = False
    right: bool | None = None
    caught: bool = False


@dataclass(frozen=True)
class TurnTold:
    """One turn: whose, the action, what each player did in it, and the coins after it."""

    number: int
    actor: str
    action: str
    marks: tuple[Mark, ...]
    coins: dict[str, int]

    def of(self, player: str) -> list[Mark]:
        return [m for m in self.marks if m.player == player]


@dataclass(frozen=True)
class Tally:
    """One player's game in numbers."""

    claims: int = 0
    known_claims: int = 0  # claims of a tracked hand: true or bluff is known
    bluffs: int = 0
    caught: int = 0  # bluffs (or unproven claims) challenged and not proven
    challenges_won: int = 0
    challenges_lost: int = 0
    blocks: int = 0
    lost: int = 0
    claimed: dict[str, int] = field(default_factory=dict)  # card -> times claimed

    @property
    def favourite(self) -> str | None:
        if not self.claimed:
            return None
        return max(self.claimed, key=lambda c: self.claimed[c])


@dataclass(frozen=True)
class Story:
    players: tuple[str, ...]
    start_coins: dict[str, int]
    turns: tuple[TurnTold, ...]
    tallies: dict[str, Tally]
    winner: str | None


class _TurnSoFar:
    """A turn being read."""

    def __init__(self, number: int, actor: str, action: str) -> None:
        self.number = number
        self.actor = actor
        self.action = action
        self.marks: list[Mark] = []


def story(game: Game) -> Story:
    """The story of a game (any game; the web layer asks only for finished ones)."""
    now = new_game(game.setup)
    players = tuple(p.name for p in now.players)
    start = {p.name: p.coins for p in now.players}
    turns: list[TurnTold] = []
    current: _TurnSoFar | None = None
    challenge_at: int | None = None  # index in current.marks of the challenge being answered
    claim_at: int | None = None  # index of the claim it challenges
    for step in game.history:
        before = now
        now = apply(before, step.as_record())
        if step.do in ACTIONS:
            if current is not None:
                turns.append(_close(current, before))
            current = _TurnSoFar(len(turns) + 1, step.by or "", step.do)
            current.marks.append(_declared(before, step.by or "", step.do, step.target))
        elif current is None:
            continue
        elif step.do == "block" and step.by and step.as_:
            current.marks.append(Mark("block", step.by, card=step.as_,
                                      held=_holds(before, step.by, step.as_)))
        elif step.do == "challenge" and step.by:
            window = before.turn.open if before.turn else None
            claimant = window.claimant if isinstance(window, ChallengeWindow) else None
            on_block = isinstance(window, ChallengeWindow) and window.on_block
            claim_at = _last_claim(current.marks, claimant, on_block)
            current.marks.append(Mark("challenge", step.by, other=claimant,
                                      card=window.claim if isinstance(window, ChallengeWindow)
                                      else None))
            challenge_at = len(current.marks) - 1
        elif step.do in ("prove", "concede") and challenge_at is not None:
            right = step.do == "concede"
            current.marks[challenge_at] = _with(current.marks[challenge_at], right=right)
            if right and claim_at is not None:
                current.marks[claim_at] = _with(current.marks[claim_at], caught=True)
            challenge_at = claim_at = None
        for p_before, p_now in zip(before.players, now.players, strict=True):
            for lost in p_now.revealed[len(p_before.revealed):]:
                current.marks.append(Mark("lose", p_now.name, card=lost))
    if current is not None:
        turns.append(_close(current, now))
    return Story(players, start, tuple(turns), _tallies(players, turns), game.winner)


def _declared(game: Game, by: str, action: str, target: str | None) -> Mark:
    claim = claim_of(game.rules, action)
    if claim is None:
        return Mark("action", by, action=action, other=target)
    inverted = ACTIONS[action].inverted
    held = _holds(game, by, claim)
    truth = None if held is None else (not held if inverted else held)
    return Mark("claim", by, card=claim, action=action, other=target, held=truth,
                inverted=inverted)


def _holds(game: Game, name: str, card: str) -> bool | None:
    hand = game.player(name).hand
    return None if hand is None else card in hand


def _last_claim(marks: list[Mark], claimant: str | None, on_block: bool) -> int | None:
    kind = "block" if on_block else "claim"
    for i in range(len(marks) - 1, -1, -1):
        if marks[i].kind == kind and marks[i].player == claimant:
            return i
    return None


def _with(mark: Mark, **changes: object) -> Mark:
    fields = {**mark.__dict__, **changes}
    return Mark(**fields)


def _close(turn: _TurnSoFar, game: Game) -> TurnTold:
    return TurnTold(turn.number, turn.actor, turn.action, tuple(turn.marks),
                {p.name: p.coins for p in game.players})


def _tallies(players: tuple[str, ...], turns: list[TurnTold]) -> dict[str, Tally]:
    counts: dict[str, Counter[str]] = {name: Counter() for name in players}
    claimed: dict[str, Counter[str]] = {name: Counter() for name in players}
    for turn in turns:
        for m in turn.marks:
            c = counts[m.player]
            if m.kind in ("claim", "block"):
                c["claims"] += 1
                if m.card:
                    claimed[m.player][m.card] += 1
                if m.held is not None:
                    c["known_claims"] += 1
                    c["bluffs"] += not m.held
                c["caught"] += m.caught
                c["blocks"] += m.kind == "block"
            elif m.kind == "challenge" and m.right is not None:
                c["challenges_won" if m.right else "challenges_lost"] += 1
            elif m.kind == "lose":
                c["lost"] += 1
    return {name: Tally(**counts[name], claimed=dict(claimed[name])) for name in players}
