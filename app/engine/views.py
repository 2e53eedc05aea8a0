"""What each screen may know. Templates never see the Game itself.

`table_view` holds no hidden card at all; `seat_view` adds that one seat's own cards and its
private prompts. The examined card is in the examiner's view and the target's, nobody else's.
"""

from __future__ import annotations

from typing import Any

from .pending import Prompt, pending, waiting
from .state import Game


def table_view(game: Game, prompts: list[Prompt] | None = None) -> dict[str, Any]:
    """The public view. `prompts` may be passed in when the caller already has `pending`."""
    t = game.turn
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
        "turn": None
        if t is None
        else {
            "actor": t.actor,
            "action": t.action,
            "target": t.target,
            "claimant": t.claimant,
            "claim": t.claim,
            "window": t.window,
            "challenger": t.challenger,
            "blocker": t.blocker,
            "block_as": t.block_as,
            "stage": t.stage,
        },
        "waiting": [(p.player, p.kind) for p in prompts],
        "waiting_ruling": waiting(game, prompts),
        "public_prompts": [p for p in prompts if not p.private],
        "log": list(game.log),
        "rules": game.rules,
        "steps": len(game.steps),
    }


def seat_view(game: Game, seat: str) -> dict[str, Any]:
    prompts = pending(game)
    view = table_view(game, prompts)
    me = game.player(seat)
    t = game.turn
    shown = None
    if t is not None and t.stage in ("decide", "swap") and seat in (t.actor, t.target):
        shown = t.shown
    view.update(
        {
            "me": seat,
            "hand": None if me.hand is None else list(me.hand),
            "prompts": [p for p in prompts if p.player == seat],
            "shown": shown,
        }
    )
    return view
