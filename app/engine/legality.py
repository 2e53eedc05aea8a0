"""Who may declare what, and who may respond: the questions both `apply` and `pending` ask."""

from __future__ import annotations

from .cards import (
    ACTIONS,
    CONVERT_OTHER_COST,
    CONVERT_SELF_COST,
    EXCHANGER,
    FORCED_COUP_AT,
    HOSTILE,
)
from .errors import RuleError
from .rulings import N_, NP_, action, card
from .state import Game


def cost_of(action_name: str, actor: str, target: str | None) -> int:
    if action_name == "convert":
        return CONVERT_SELF_COST if target == actor else CONVERT_OTHER_COST
    return ACTIONS[action_name].cost


def resolve_character(game: Game, character: str | None) -> str | None:
    return game.rules.exchanger if character == EXCHANGER else character


def available(game: Game, action_name: str) -> bool:
    needs = ACTIONS[action_name].needs
    if needs == "inquisitor":
        return game.rules.exchanger == "inquisitor"
    if needs == "reformation":
        return game.rules.reformation
    return True


def declaration_problem(
    game: Game, actor: str, action_name: str, target: str | None
) -> RuleError | None:
    """Why `actor` may not declare this now, or None. Checked in the order a person would ask.

    Rulings that were choices: the forced Coup is checked at the start of the turn, which is
    when a declaration is made (E-14); a Steal from a player with no coins is refused unless
    steal_from_zero allows it (E-16); Reformation forbids hostile actions within a side until
    everyone is on one side (E-32)."""
    if action_name not in ACTIONS or not available(game, action_name):
        return RuleError(N_("'%(action)s' is not an action in this game."), action=action_name)
    spec = ACTIONS[action_name]
    me = game.player(actor)
    if me.coins >= FORCED_COUP_AT and action_name != "coup":
        return RuleError(
            NP_("%(name)s started the turn with %(coins)s coin, so %(coup)s is the only choice "
                "(E-14).",
                "%(name)s started the turn with %(coins)s coins, so %(coup)s is the only choice "
                "(E-14)."),
            NP_("%(coins)s coin: %(coup)s only", "%(coins)s coins: %(coup)s only"),
            "coins",
            name=actor,
            coins=me.coins,
            coup=action("coup"),
        )
    if spec.targeted and target is None:
        return RuleError(N_("%(action)s needs a target."), action=action(action_name))
    if not spec.targeted and target is not None:
        return RuleError(N_("%(action)s takes no target."), action=action(action_name))
    if target is not None:
        if not game.has(target):
            return RuleError(N_("There is no player named '%(name)s'."), name=str(target))
        if target == actor and action_name != "convert":
            return RuleError(N_("%(name)s can't target themselves."), name=actor)
        if game.player(target).out:
            return RuleError(N_("%(name)s is out of the game."), name=target)
        if action_name in HOSTILE and game.same_side(actor, target):
            return RuleError(
                N_(
                    "%(name)s and %(target)s are on the same side: no %(action)s between them "
                    "while both sides are in the game (E-32)."
                ),
                N_("no one on the other side"),
                name=actor,
                target=target,
                action=action(action_name),
            )
    cost = cost_of(action_name, actor, target)
    if me.coins < cost:
        return RuleError(
            NP_("%(name)s can't %(action)s: it costs %(cost)s coin and %(name)s has %(coins)s "
                "(E-15).",
                "%(name)s can't %(action)s: it costs %(cost)s coins and %(name)s has %(coins)s "
                "(E-15)."),
            NP_("needs %(cost)s coin", "needs %(cost)s coins"),
            "cost",
            name=actor,
            action=action(action_name),
            coins=me.coins,
            cost=cost,
        )
    if (
        action_name == "steal"
        and target is not None
        and game.player(target).coins == 0
        and game.rules.steal_from_zero == "forbid"
    ):
        return RuleError(
            N_("%(target)s has no coins to steal (E-16)."),
            N_("nobody has coins to steal"),
            target=target,
        )
    return None


def block_characters(game: Game, action_name: str) -> tuple[str, ...]:
    chars = ACTIONS[action_name].blocked_by
    return tuple(c for c in (resolve_character(game, x) for x in chars) if c)


def challengers(game: Game) -> list[str]:
    """Players who may still challenge the open claim (any living player but the claimant)."""
    t = game.turn
    assert t is not None
    return [p.name for p in game.living() if p.name != t.claimant and p.name not in t.passed]


def blockers(game: Game) -> list[str]:
    """Players who may block the current action now (E-9, E-1, E-11, E-34)."""
    t = game.turn
    assert t is not None
    spec = ACTIONS[t.action]
    target_alive = bool(t.target) and not game.player(str(t.target)).out
    if spec.blockers == "anyone":
        names = [p.name for p in game.living() if p.name != t.actor]
    elif spec.blockers == "target" and target_alive:  # E-3: no block window for a dead target
        if game.rules.anyone_may_block_targeted:
            names = [p.name for p in game.living() if p.name != t.actor]
        else:
            names = [str(t.target)]
    else:
        names = []
    if t.target_lost_challenge and not game.rules.target_who_challenged_may_block:
        names = [n for n in names if n != t.target]
    return [
        n
        for n in names
        if n not in t.tried_blockers and n not in t.passed and not game.same_side(n, t.actor)
    ]


def responders(game: Game) -> list[str]:
    """Who may still respond in the open window."""
    t = game.turn
    if t is None or t.window is None:
        return []
    return blockers(game) if t.window == "block" else challengers(game)


def claim_card(game: Game) -> str:
    t = game.turn
    assert t is not None and t.claim is not None
    return card(t.claim)
