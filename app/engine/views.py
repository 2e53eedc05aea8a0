"""What each screen may know. Templates never see the Game itself.

`table_view` holds no hidden card at all; `seat_view` adds that one seat's own cards and its
private prompts. The examined card is in the examiner's view and the target's, nobody else's.
"""

from __future__ import annotations

from typing import Any

from .legality import claim_of, claim_words
from .prompts import Prompt, pending
from .rulings import Ruling, card
from .state import Game
from .turn import BlockWindow, Challenged, ChallengeWindow, Examine, Exchange, Turn
from .waiting import waiting


def table_view(game: Game, prompts: list[Prompt] | None = None) -> dict[str, Any]:
    """The public view. `prompts` may be passed in when the caller already has `pending`."""
    if prompts is None:
        prompts = pending(game)
    return {
        "players": [
            {
                "name": p.name,
                "coins": p.coins,
                "face_down": p.face_down,
                "revealed": list(p.revealed),
                "out": p.out,
                "faction": p.faction,
                "tracked": p.tracked,
                "current": p.name == game.current and not game.over,
            }
            for p in game.players
        ],
        "treasury": game.treasury,
        "reserve": game.reserve,
        "deck_size": game.deck_size,
        "current": None if game.over else game.current,
        "winner": game.winner,
        "turn": None if game.turn is None else turn_view(game, game.turn),
        "waiting": [(p.player, p.kind) for p in prompts],
        "waiting_ruling": waiting(game, prompts),
        "public_prompts": [p for p in prompts if not p.private],
        "log": list(game.log),
        "rules": game.rules,
        "steps": len(game.history),
    }


def turn_view(game: Game, t: Turn) -> dict[str, Any]:
    """What the table knows of the turn: the claim still standing on the table, the window,
    the stage. A block that lost its challenge no longer stands while its blocker chooses a
    card to lose (the action goes ahead); an action whose claim was conceded is
    ``cancelled``: the tablet's headline shows no claim the table has settled."""
    w = t.open
    claimant, claim = t.actor, claim_of(game.rules, t.action)
    block = None if t.next == "block_failed" else t.block
    if block is not None:
        claimant, claim = block.blocker, block.character
    window = None
    if isinstance(w, ChallengeWindow):
        window = "block_challenge" if w.on_block else "challenge"
    elif isinstance(w, BlockWindow):
        window = "block"
    stage = None
    if isinstance(w, Exchange) or any(d.reason == "exchange" for d in t.draws):
        stage = "keep"
    elif isinstance(w, Examine):
        stage = w.stage
    elif any(d.reason == "examine" for d in t.draws):
        stage = "swap"
    return {
        "actor": t.actor,
        "action": t.action,
        "target": t.target,
        "claimant": claimant if claim else None,
        "claim": claim,
        "claim_words": claim_words(game.rules, t.action) if block is None else
        Ruling("%(card)s", {"card": card(claim or "")}),
        "window": window,
        "challenger": w.challenger if isinstance(w, Challenged) else None,
        "blocker": block.blocker if block else None,
        "block_as": block.character if block else None,
        "cancelled": conceded(t),
        "stage": stage,
    }


def conceded(t: Turn) -> bool:
    """Whether the actor conceded the action's claim: the action is cancelled and the actor
    owes the loss of a card (the only loss of theirs a challenge of that claim gives)."""
    return any(loss.player == t.actor and loss.reason == "challenge" for loss in t.losses)


def seat_view(game: Game, seat: str, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """``seat``'s view: the public one with that seat's own cards and prompts added.
    ``public``: ``table_view(game)`` if the caller has it already (it is copied, not changed:
    every seat's view can be made from one)."""
    prompts = pending(game)
    view = table_view(game, prompts) if public is None else dict(public)
    me = game.player(seat)
    t = game.turn
    shown = None
    if t is not None and isinstance(t.open, Examine) and seat in (t.actor, t.target):
        shown = t.open.shown
    view.update(
        {
            "me": seat,
            "hand": None if me.hand is None else list(me.hand),
            "prompts": [p for p in prompts if p.player == seat],
            "shown": shown,
        }
    )
    return view
