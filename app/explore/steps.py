"""Every legal step the engine offers now, with every card choice the table could make; the
steps card counting refuses; near misses one field away from a legal step."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations_with_replacement
from typing import Any

from app.engine import (
    STEPS,
    Game,
    Prompt,
    pending,
)
from app.engine.cards import CHARACTERS
from app.engine.turn import BlockWindow, ChallengeWindow, Draw

from .setups import Chooser, Step


def legal_steps(game: Game) -> list[Step]:
    """Every step the engine offers now, with every card choice the table could make."""
    steps: list[Step] = []
    t = game.turn
    if t is not None and isinstance(t.open, ChallengeWindow | BlockWindow):
        steps.append({"do": "pass"})
    for prompt in pending(game):
        steps += PROMPT_STEPS[prompt.kind](game, prompt)
    return steps


def declare_steps(game: Game, p: Prompt) -> list[Step]:
    steps: list[Step] = []
    for a in p.options["actions"]:
        if a["targets"] is None and a["error"] is None:
            steps.append({"by": p.player, "do": a["action"]})
        for target in a["targets"] or []:
            steps.append({"by": p.player, "do": a["action"], "target": target})
    return steps


def respond_steps(game: Game, p: Prompt) -> list[Step]:
    return [{"by": p.player, "do": "challenge"}, {"by": p.player, "do": "pass"}]


def block_steps(game: Game, p: Prompt) -> list[Step]:
    return [*({"by": p.player, "do": "block", "as": c} for c in p.options["as"]),
            {"by": p.player, "do": "pass"}]


def prove_steps(game: Game, p: Prompt) -> list[Step]:
    steps = []
    claim = p.options["claim"]
    possible = p.options["inverted"] or p.options["holds"] is not None or game.unseen[claim] > 0
    if p.options["can_prove"] and possible:
        steps.append({"by": p.player, "do": "prove"})
    return [*steps, {"by": p.player, "do": "concede"}]


def lose_steps(game: Game, p: Prompt) -> list[Step]:
    player = game.player(p.player)
    must = p.options["must"]
    cards = sorted(set(p.options["cards"]))
    if player.hand is None:
        cards = [c for c in cards if game.unseen[c] > 0]
    return [{"by": p.player, "do": "lose", "card": c} for c in cards if must in (None, c)]


def draw_pool(game: Game, d: Draw) -> Counter[str]:
    """The cards the deck can hand this drawer (as `check_draw` reckons it)."""
    pool = Counter(game.unseen.items())
    if (d.reason == "proof" and not d.to_bottom) or (d.to_bottom and game.deck_size < d.count):
        pool.update(d.returned)
    return pool


def owed_draw(game: Game, name: str) -> Draw:
    assert game.turn is not None
    return next(d for d in game.turn.draws if d.player == name)


def draw_steps(game: Game, p: Prompt) -> list[Step]:
    if not p.options["tracked"]:
        return [{"by": p.player, "do": "draw"}]
    pool = draw_pool(game, owed_draw(game, p.player))
    return [{"by": p.player, "do": "draw", "cards": list(combo)}
            for combo in multisets(sorted(pool), p.options["count"])
            if not Counter(combo) - pool]


def multisets(kinds: list[str], n: int) -> Iterator[tuple[str, ...]]:
    return combinations_with_replacement(kinds, n)


def keep_steps(game: Game, p: Prompt) -> list[Step]:
    offered = p.options["offered"]
    if offered is None:
        return [{"by": p.player, "do": "keep"}]
    hand = Counter(game.player(p.player).hand or ())
    steps = []
    for combo in sorted(set(combinations_with_replacement(sorted(offered), p.options["count"]))):
        kept = Counter(combo)
        if not kept - Counter(offered) and sum((kept - hand).values()) <= p.options["max_swap"]:
            steps.append({"by": p.player, "do": "keep", "cards": list(combo)})
    return steps


def show_steps(game: Game, p: Prompt) -> list[Step]:
    target = game.player(p.options["target"])
    if target.hand is None:
        return [{"by": p.player, "do": "show"}]
    return [{"by": p.player, "do": "show", "card": c} for c in sorted(set(target.hand))]


def decide_steps(game: Game, p: Prompt) -> list[Step]:
    steps = []
    if p.options["can_swap"]:
        steps.append({"by": p.player, "do": "swap"})
    if p.options["can_return"]:
        steps.append({"by": p.player, "do": "return"})
    return steps


PROMPT_STEPS: dict[str, Callable[[Game, Prompt], list[Step]]] = {
    "declare": declare_steps,
    "respond": respond_steps,
    "block": block_steps,
    "prove": prove_steps,
    "lose": lose_steps,
    "draw": draw_steps,
    "keep": keep_steps,
    "show": show_steps,
    "decide": decide_steps,
}


def counted_out(game: Game) -> list[Step]:
    """Steps `pending` offers but card counting refuses: a card every copy of which is seen."""
    steps: list[Step] = []
    for p in pending(game):
        player = game.player(p.player)
        if p.kind == "lose" and player.hand is None:
            steps += [{"by": p.player, "do": "lose", "card": c} for c in p.options["cards"]
                      if game.unseen[c] == 0 and p.options["must"] in (None, c)]
        elif p.kind == "draw" and p.options["tracked"]:
            pool = draw_pool(game, owed_draw(game, p.player))
            steps += [{"by": p.player, "do": "draw", "cards": [c] * p.options["count"]}
                      for c in p.options["choices"] if pool[c] < p.options["count"]]
        elif p.kind == "prove" and player.hand is None and not p.options["inverted"]:
            if game.unseen[p.options["claim"]] == 0:
                steps.append({"by": p.player, "do": "prove"})
    return steps


# --- near misses -------------------------------------------------------------------------


def near_misses(game: Game, legal: list[Step], choose: Chooser[Any], count: int) -> list[Step]:
    """Steps one field away from a legal one (another player, step, target or card), and a
    few with no player or an unknown one."""
    names = [p.name for p in game.players]
    values: dict[str, list[Any]] = {
        "by": [*names, "Nobody"],
        "do": list(STEPS),
        "target": [*names, "Nobody"],
        "as": [*CHARACTERS, "joker"],
        "card": [*CHARACTERS, "joker"],
        "cards": [[], [CHARACTERS[0]], list(CHARACTERS[:2]), list(CHARACTERS[1:4])],
    }
    misses: list[Step] = []
    for _ in range(count):
        base = dict(choose(legal, "base")) if legal else {"do": choose(list(STEPS), "do")}
        key = choose(sorted(values), "field")
        value = choose(values[key], "value")
        if key in ("by", "target") and choose([False, True], "drop"):
            base.pop(key, None)
        else:
            base[key] = value
        misses.append(base)
    return misses
