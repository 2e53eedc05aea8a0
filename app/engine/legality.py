"""Who may declare what, and who may respond: the questions both `apply` and `pending` ask.

A declaration is checked in one fixed order, the order a person would ask in: is the action in
this game; must the actor Coup (E-14); can the actor pay at all (E-15: a Coup with 2 coins
"needs 7 coins" before it needs a target); is the target given; is it a living other
player; is it on the actor's side (E-32); can the actor pay for this target (Convert); has the
target coins to steal (E-16). The first problem is the reason, on a refused step and on a
greyed-out button alike.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cards import (
    ACTIONS,
    CONVERT_OTHER_COST,
    CONVERT_SELF_COST,
    EXCHANGER,
    FORCED_COUP_AT,
    HOSTILE,
)
from .errors import RuleError
from .rules import Rules
from .rulings import N_, NP_, Ruling, action, card
from .state import Game
from .turn import BlockWindow, ChallengeWindow


def cost_of(action_name: str, actor: str, target: str | None) -> int:
    if action_name == "convert":
        return CONVERT_SELF_COST if target == actor else CONVERT_OTHER_COST
    return ACTIONS[action_name].cost


def least_cost(action_name: str) -> int:
    return CONVERT_SELF_COST if action_name == "convert" else ACTIONS[action_name].cost


def resolve_character(rules: Rules, character: str | None) -> str | None:
    return rules.exchanger if character == EXCHANGER else character


def claim_of(rules: Rules, action_name: str) -> str | None:
    """The character an action claims in this game (the exchanger depends on the variant)."""
    return resolve_character(rules, ACTIONS[action_name].claim)


@lru_cache(maxsize=1024)
def claim_words(rules: Rules, action_name: str) -> Ruling | None:
    """What an action claims, in words for a screen: "Duke", or for an Embezzle "no Duke"
    (it claims NOT to hold one, §1.5); None for an action that claims nothing. The same
    ruling each time for the same rules (remembered), so a screen's memo of worded rulings
    finds it again at the next version."""
    claim = claim_of(rules, action_name)
    if claim is None:
        return None
    if ACTIONS[action_name].inverted:
        # TRANSLATORS: what an Embezzle claims, shown after the action's name: "Embezzle (no
        # Duke)". card: a card name (nominative).
        return Ruling(N_("no %(card)s"), {"card": card(claim)})
    return Ruling("%(card)s", {"card": card(claim)})


def available(rules: Rules, action_name: str) -> bool:
    needs = ACTIONS[action_name].needs
    if needs == "inquisitor":
        return rules.exchanger == "inquisitor"
    if needs == "reformation":
        return rules.reformation
    return True


def actor_problem(game: Game, actor: str, action_name: str) -> RuleError | None:
    """Why `actor` may not take this action now whoever the target (E-14, E-15), or None."""
    me = game.player(actor)
    if me.coins >= FORCED_COUP_AT and action_name != "coup":
        return RuleError(
            "forced_coup",
            # TRANSLATORS: error. name: a player's name; coins: a number of coins; coup: an action
            # name.
            NP_("%(name)s started the turn with %(coins)s coin, so %(coup)s is the only choice "
                "(E-14).",
                "%(name)s started the turn with %(coins)s coins, so %(coup)s is the only choice "
                "(E-14)."),
            # TRANSLATORS: a button's short note (why it is greyed out). coins: a number of
            # coins; coup: an action name.
            NP_("%(coins)s coin: %(coup)s only", "%(coins)s coins: %(coup)s only"),
            "coins", name=actor, coins=me.coins, coup=action("coup"))
    cost = least_cost(action_name)
    if me.coins < cost:
        return cannot_pay(actor, action_name, me.coins, cost)
    return None


def cannot_pay(actor: str, action_name: str, coins: int, cost: int) -> RuleError:
    return RuleError(
        "cannot_pay",
        # TRANSLATORS: error. name: a player's name; action: an action name; cost, coins: numbers
        # of coins (the plural form follows cost).
        NP_("%(name)s can’t declare the %(action)s: it costs %(cost)s coin and %(name)s has "
            "%(coins)s (E-15).",
            "%(name)s can’t declare the %(action)s: it costs %(cost)s coins and %(name)s has "
            "%(coins)s (E-15)."),
        # TRANSLATORS: a button's short note (why it is greyed out). cost: a number of coins.
        NP_("needs %(cost)s coin", "needs %(cost)s coins"),
        "cost", name=actor, action=action(action_name), coins=coins, cost=cost)


def target_problem(game: Game, actor: str, action_name: str, target: str) -> RuleError | None:
    """Why `actor` may not aim this action at `target`, or None (E-32, E-15, E-16)."""
    if not game.has(target):
        # TRANSLATORS: error. name: a player's name.
        return RuleError("no_such_player", N_("There is no player named ‘%(name)s’."),
                         name=str(target))
    if target == actor and action_name != "convert":
        # TRANSLATORS: error. name: a player's name.
        return RuleError("self_target", N_("%(name)s can’t target themselves."), name=actor)
    them = game.player(target)
    if them.out:
        # TRANSLATORS: error. name: a player's name.
        return RuleError("player_out", N_("%(name)s is out of the game."), name=target)
    if action_name in HOSTILE and game.same_side(actor, target):
        return RuleError(
            "same_side",
            # TRANSLATORS: error. name, target: players' names; action: an action name.
            N_("%(name)s and %(target)s are on the same side: while both sides are in the game, "
               "the %(action)s can’t be aimed at a player of one’s own side (E-32)."),
            # TRANSLATORS: a button's short note (why it is greyed out).
            N_("no one on the other side"),
            name=actor, target=target, action=action(action_name))
    cost = cost_of(action_name, actor, target)
    coins = game.player(actor).coins
    if coins < cost:
        return cannot_pay(actor, action_name, coins, cost)
    if action_name == "steal" and them.coins == 0 and game.rules.steal_from_zero == "forbid":
        # TRANSLATORS: a button's short note (why it is greyed out), as is the next one.
        brief = (N_("no one on the other side has coins")
                 if game.rules.reformation and not game.one_side()
                 else N_("nobody has coins to steal"))
        # TRANSLATORS: error. target: a player's name.
        return RuleError("no_coins_to_steal", N_("%(target)s has no coins to steal (E-16)."),
                         brief, target=target)
    return None


def declaration_problem(
    game: Game, actor: str, action_name: str, target: str | None
) -> RuleError | None:
    """Why `actor` may not declare this now, or None, in the order of the module docstring."""
    if action_name not in ACTIONS or not available(game.rules, action_name):
        # TRANSLATORS: error. action: an action name.
        return RuleError("not_in_game", N_("‘%(action)s’ is not an action in this game."),
                         action=action_name)
    spec = ACTIONS[action_name]
    problem = actor_problem(game, actor, action_name)
    if problem is not None:
        return problem
    if spec.targeted and target is None:
        # TRANSLATORS: error. action: an action name.
        return RuleError("needs_target", N_("The %(action)s needs a target."),
                         action=action(action_name))
    if not spec.targeted and target is not None:
        # TRANSLATORS: error. action: an action name.
        return RuleError("takes_no_target", N_("The %(action)s takes no target."),
                         action=action(action_name))
    return None if target is None else target_problem(game, actor, action_name, target)


def block_characters(rules: Rules, action_name: str) -> tuple[str, ...]:
    chars = ACTIONS[action_name].blocked_by
    return tuple(c for c in (resolve_character(rules, x) for x in chars) if c)


def challengers(game: Game) -> list[str]:
    """Players who may still challenge the open claim (any living player but the claimant)."""
    t = game.turn
    if t is None or not isinstance(t.open, ChallengeWindow):
        return []
    spoken = (t.open.claimant, *t.open.passed)  # the claimant, and who let it stand
    return [p.name for p in game.players if not p.out and p.name not in spoken]


def may_block(game: Game) -> list[str]:
    """Players who may block the current action, passes aside (E-1, E-3, E-9, E-11, E-34).

    A targeted action is blocked only while its target is alive (E-3), by the target alone
    unless `anyone_may_block_targeted`; Foreign Aid by anyone. Nobody blocks twice, nor
    blocks an action of their own side while both sides are in the game (§1.2)."""
    t = game.turn
    assert t is not None
    spec = ACTIONS[t.action]
    if spec.blockers == "anyone":
        names = [p.name for p in game.players if not p.out and p.name != t.actor]
    elif spec.blockers == "target" and t.target and not game.player(t.target).out:
        if game.rules.anyone_may_block_targeted:
            names = [p.name for p in game.players if not p.out and p.name != t.actor]
        else:
            names = [t.target]
    else:
        names = []
    if t.target_lost_challenge and not game.rules.target_who_challenged_may_block:
        names = [n for n in names if n != t.target]
    if t.tried_blockers:
        names = [n for n in names if n not in t.tried_blockers]
    if game.rules.reformation:
        names = [n for n in names if not game.same_side(n, t.actor)]
    return names


def blockers(game: Game) -> list[str]:
    """Players who may still block in the open block window."""
    t = game.turn
    if t is None or not isinstance(t.open, BlockWindow):
        return []
    passed = t.open.passed
    return [n for n in may_block(game) if n not in passed]


# -- every action's buttons ----------------------------------------------------------------

# The order of a declaration's checks (legality.py); a later check is a better reason.
CHECK_ORDER = ("no_such_player", "self_target", "player_out", "same_side", "cannot_pay",
               "no_coins_to_steal")


def declarations(game: Game, actor: str) -> list[dict[str, Any]]:
    """Every action of this game, with its legal targets or the reason it can't be taken now.

    A reason about the actor (a forced Coup, too few coins) comes before any about targets, so
    a greyed-out button says what really stands in the way."""
    out = []
    others = [p.name for p in game.players if not p.out and p.name != actor]
    for name, spec in ACTIONS.items():
        if not available(game.rules, name):
            continue
        problem = actor_problem(game, actor, name)
        targets: list[str] | None = None
        if spec.targeted:
            targets = []
            if problem is None:
                candidates = others + ([actor] if name == "convert" else [])
                problems = []
                for q in candidates:
                    why = target_problem(game, actor, name, q)
                    if why is None:
                        targets.append(q)
                    else:
                        problems.append(why)
                if not targets and problems:
                    problem = max(problems, key=lambda e: CHECK_ORDER.index(e.code))
        elif problem is None:
            problem = declaration_problem(game, actor, name, None)
        out.append({"action": name, "targets": targets,
                    "reason": None if problem is None else str(problem), "error": problem})
    return out
