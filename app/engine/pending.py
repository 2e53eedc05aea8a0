"""What happens now: who may or must do what. The screens are drawn from this alone.

`pending(game)` lists one Prompt per person the table is waiting for (or who may speak up in
an open window). A prompt's `options` may hold that person's hidden cards: the web layer
shows a prompt's options only to its owner, and the public view lists just who and what.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import ACTIONS
from .legality import (
    available,
    block_characters,
    blockers,
    challengers,
    declaration_problem,
)
from .rulings import N_, Ruling, card
from .setup import characters_in_play
from .state import Game

# Steps a phone takes for its own seat: they involve or reveal that seat's hidden cards.
PRIVATE_KINDS = frozenset({"answer", "lose", "draw", "keep", "show", "decide"})


@dataclass(frozen=True)
class Prompt:
    player: str
    kind: str  # declare, respond, block, answer, lose, draw, keep, show, decide
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def private(self) -> bool:
        return self.kind in PRIVATE_KINDS


def pending(game: Game) -> list[Prompt]:
    if game.over:
        return []
    t = game.turn
    if t is None:
        return [Prompt(game.current, "declare", {"actions": declarations(game, game.current)})]
    prompts: list[Prompt] = []
    if t.window in ("challenge", "block_challenge"):
        for name in challengers(game):
            prompts.append(Prompt(name, "respond", {"claimant": t.claimant, "claim": t.claim}))
    elif t.window == "block":
        chars = block_characters(game, t.action)
        for name in blockers(game):
            prompts.append(Prompt(name, "block", {"as": list(chars)}))
    if t.challenger is not None:
        claimant = game.player(str(t.claimant))
        prompts.append(Prompt(claimant.name, "answer", answer_options(game)))
    if t.losses:
        head = t.losses[0]
        p = game.player(head.player)
        # For an untracked hand every character is offered: filtering by what is unseen
        # would tell the tablet something about the other players' hidden cards.
        cards = list(p.hand) if p.hand is not None else list(characters_in_play(game.rules))
        prompts.append(Prompt(p.name, "lose", {"cards": cards, "must": head.must}))
    for i, d in enumerate(t.draws):
        if i == 0 or (d.reason == "proof" and not d.to_bottom):
            p = game.player(d.player)
            prompts.append(
                Prompt(
                    d.player,
                    "draw",
                    {"count": d.count, "reason": d.reason, "tracked": p.tracked,
                     "choices": list(characters_in_play(game.rules))},
                )
            )
    if t.stage == "keep" and not t.draws:
        p = game.player(t.actor)
        offered = None if p.hand is None else list(p.hand) + list(t.exchange_cards)
        prompts.append(Prompt(p.name, "keep", {"count": p.face_down, "offered": offered,
                                               "max_swap": game.rules.ambassador_max_swap}))
    elif t.stage == "show":
        target = game.player(str(t.target))
        blind = t.shown_by != target.name
        prompts.append(
            Prompt(
                str(t.shown_by),
                "show",
                {
                    "target": target.name,
                    "blind": blind,
                    "cards": None if blind or target.hand is None else list(target.hand),
                    "face_down": target.face_down,
                    "tracked": target.tracked,
                },
            )
        )
    elif t.stage == "decide":
        mandatory = game.rules.examine_swap == "mandatory" and game.deck_size > 0
        prompts.append(
            Prompt(
                t.actor,
                "decide",
                {"target": t.target, "shown": t.shown, "can_swap": game.deck_size > 0,
                 "can_return": not mandatory},
            )
        )
    return prompts


def answer_options(game: Game) -> dict[str, Any]:
    t = game.turn
    assert t is not None
    p = game.player(str(t.claimant))
    inverted = ACTIONS[t.action].inverted and t.blocker is None
    claim = str(t.claim)
    if p.hand is None:  # the referee's word; the engine still refuses an impossible proof
        holds = None
        can_prove = True
    else:
        holds = claim in p.hand
        can_prove = not holds if inverted else holds
    return {"claim": claim, "inverted": inverted, "holds": holds, "can_prove": can_prove,
            "challenger": t.challenger}


def declarations(game: Game, actor: str) -> list[dict[str, Any]]:
    """Every action of this game, with its legal targets or the reason it can't be taken now."""
    out = []
    others = [p.name for p in game.living() if p.name != actor]
    for name, spec in ACTIONS.items():
        if not available(game, name):
            continue
        if spec.targeted:
            candidates = others + ([actor] if name == "convert" else [])
            problems = {q: declaration_problem(game, actor, name, q) for q in candidates}
            targets = [q for q, e in problems.items() if e is None]
            reason = None
            if not targets:
                first = next(iter(problems.values()), None)
                reason = first.args[0] if first else None
            out.append({"action": name, "targets": targets, "reason": reason,
                        "error": None if targets else next(iter(problems.values()), None)})
        else:
            problem = declaration_problem(game, actor, name, None)
            out.append({"action": name, "targets": None,
                        "reason": problem.args[0] if problem else None, "error": problem})
    return out


WAITING_TEXTS = {
    "declare": N_("%(names)s to declare an action"),
    "respond": N_("%(names)s to challenge or let it stand"),
    "block": N_("%(names)s to block or let it stand"),
    "answer": N_("%(names)s to prove the %(card)s or concede"),
    "lose": N_("%(names)s to turn a card face up"),
    "draw": N_("%(names)s to draw from the court deck"),
    "keep": N_("%(names)s to choose the cards to keep"),
    "show": N_("%(names)s to choose the card to be shown"),
    "decide": N_("%(names)s to swap or return the shown card"),
}


def waiting(game: Game, prompts: list[Prompt] | None = None) -> Ruling:
    """One public sentence: whom the table is waiting for, grouped by what they may do."""
    if game.over:
        return Ruling(N_("The game is over: %(name)s won."), {"name": str(game.winner)})
    groups: dict[str, list[Prompt]] = {}
    for p in pending(game) if prompts is None else prompts:
        groups.setdefault(p.kind, []).append(p)
    parts = []
    for kind, prompts in groups.items():
        params: dict[str, object] = {"names": ", ".join(p.player for p in prompts)}
        if kind == "answer":
            params["card"] = card(str(prompts[0].options["claim"]))
        parts.append(Ruling(WAITING_TEXTS[kind], params))
    return Ruling(N_("Waiting for %(who)s."), {"who": parts})
