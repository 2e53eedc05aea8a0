"""Small helpers for scenario tests: a game from a compact set-up, steps written as strings."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine import Game, RuleError, apply, new_game, pending
from app.records import export

ABC = ["A", "B", "C"]


def game(hands: dict[str, Any], **setup: Any) -> Game:
    return new_game({"players": list(hands), "hands": hands, **setup})


def step(text: str) -> dict[str, Any]:
    """'A tax', 'B block contessa', 'A assassinate B', 'B lose duke', 'A draw duke captain',
    'pass' (the table), 'B pass'. Names are single capital letters or capitalised words."""
    words = text.split()
    if words == ["pass"]:
        return {"do": "pass"}
    by, do, *rest = words
    s: dict[str, Any] = {"by": by, "do": do}
    if do in ("coup", "assassinate", "steal", "examine", "convert"):
        s["target"] = rest[0]
    elif do == "block":
        s["as"] = rest[0]
    elif do in ("lose", "show") and rest:
        s["card"] = rest[0]
    elif do in ("draw", "keep") and rest != ["-"]:
        s["cards"] = [] if rest == ["none"] else rest
    return s


def run(g: Game, *steps: str) -> Game:
    for text in steps:
        g = apply(g, step(text))
    return g


def refused(g: Game, text: str, match: str | None = None) -> RuleError:
    """The step is refused, and the game given is exactly as it was (it is frozen: a refused
    step can't have changed it, but a handler that built a new game by mistake would show)."""
    before = export(g), g.players, g.treasury, g.deck_size, g.turn, g.log
    with pytest.raises(RuleError, match=match) as info:
        apply(g, step(text))
    assert (export(g), g.players, g.treasury, g.deck_size, g.turn, g.log) == before
    return info.value


def coins(g: Game) -> dict[str, int]:
    return {p.name: p.coins for p in g.players}


def hand(g: Game, name: str) -> list[str]:
    return sorted(g.player(name).hand or [])


def kinds(g: Game, name: str | None = None) -> list[tuple[str, str]]:
    """What ``pending`` asks of whom: (player, kind), of everyone or of ``name`` only."""
    return [(p.player, p.kind) for p in pending(g) if name is None or p.player == name]
