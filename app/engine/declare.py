"""Declaring an action: its checks (legality.py), its cost paid now, its claim opened to
challenge, or its effect at once (Income, Coup, Convert)."""

from __future__ import annotations

from .cards import ACTIONS, DUKE, FACTIONS
from .coins import with_coins
from .errors import RuleError
from .flow import advance
from .legality import (
    cost_of,
    declaration_problem,
    resolve_character,
)
from .now import by, not_now
from .rulings import N_, NP_, action, card, faction
from .state import Game, Step, evolve, make, with_player, with_ruling
from .steps import handles
from .turn import ChallengeWindow, Turn


@handles(*ACTIONS)
def declare(game: Game, step: Step) -> Game:
    if game.turn is not None:
        raise not_now(game)
    actor, name, target = by(step), step.do, step.target
    if actor != game.current:
        # TRANSLATORS: error. current, name: players' names.
        raise RuleError("not_your_turn", N_("It is %(current)s’s turn, not %(name)s’s."),
                        current=game.current, name=actor)
    problem = declaration_problem(game, actor, name, target)
    if problem:
        raise problem
    cost = cost_of(name, actor, target)
    if name == "convert":
        return convert(game, actor, str(target), cost)
    spec = ACTIONS[name]
    claim = resolve_character(game.rules, spec.claim)
    window = None if claim is None else make(ChallengeWindow, claimant=actor, claim=claim,
                                             on_block=False, passed=())
    turn = new_turn(actor, name, target, cost, window)
    if cost:
        game = with_coins(game, actor, -cost, treasury=cost)
    game = evolve(game, turn=turn, out_this_turn=())
    game = with_ruling(game, announcement(name), count="cost", name=actor, target=target,
                       action=action(name), card=card(claim or ""), cost=cost, duke=card(DUKE))
    if claim is not None:
        return game
    return advance(game, "after_claim" if spec.blockers else "resolve")


def new_turn(actor: str, action_name: str, target: str | None, paid: int,
             window: ChallengeWindow | None) -> Turn:
    """A turn as it is declared (every field given: one is made on every declaration)."""
    return make(Turn, actor=actor, action=action_name, target=target, paid=paid, open=window,
                next=None, block=None, tried_blockers=frozenset(), target_lost_challenge=False,
                losses=(), draws=(), proofs=())


def convert(game: Game, actor: str, target: str, cost: int) -> Game:
    """Pay onto the Treasury Reserve and flip an allegiance; no response (E-38, E-39)."""
    them = game.player(target)
    side = FACTIONS[1 - FACTIONS.index(str(them.faction))]
    turn = new_turn(actor, "convert", target, cost, None)
    game = evolve(with_coins(game, actor, -cost, reserve=cost), turn=turn, out_this_turn=())
    game = with_player(game, target, faction=side)
    game = with_ruling(
        # TRANSLATORS: log. name, target: players' names; cost: a number of coins; faction: a
        # faction name as the box prints it (a plural in some boxes).
        game, NP_("%(name)s pays %(cost)s coin to the Treasury Reserve and converts "
                  "%(target)s to the %(faction)s side.",
                  "%(name)s pays %(cost)s coins to the Treasury Reserve and converts "
                  "%(target)s to the %(faction)s side."), "E-38", "cost",
        name=actor, cost=cost, target=target, faction=faction(side))
    return advance(game, "end")


# TRANSLATORS: log. name, target: players' names; card: a card name (nominative); action: an
# action name.
CLAIMED_AGAINST = N_("%(name)s claims the %(card)s: %(action)s against %(target)s.")
ANNOUNCEMENTS: dict[str, str | tuple[str, str]] = {
    # TRANSLATORS: log. name: a player's name; action: an action name.
    "income": N_("%(name)s takes 1 coin (%(action)s)."),
    # TRANSLATORS: log. name: a player's name; action: an action name; duke: a card name
    # (nominative).
    "foreign_aid": N_("%(name)s declares the %(action)s; it can be blocked by claiming the "
                      "%(duke)s."),
    # TRANSLATORS: log. name, target: players' names; cost: a number of coins; action: an
    # action name.
    "coup": NP_("%(name)s pays %(cost)s coin: %(action)s against %(target)s.",
                "%(name)s pays %(cost)s coins: %(action)s against %(target)s."),
    # TRANSLATORS: log. name, target: players' names; cost: a number of coins; card: a card
    # name (nominative).
    "assassinate": NP_(
        "%(name)s pays %(cost)s coin and claims the %(card)s to assassinate %(target)s.",
        "%(name)s pays %(cost)s coins and claims the %(card)s to assassinate %(target)s.",
    ),
    # TRANSLATORS: log. name: a player's name; card: a card name (nominative).
    "embezzle": N_(
        "%(name)s claims to hold no %(card)s and embezzles the Treasury Reserve."
    ),
    "steal": CLAIMED_AGAINST,
    "examine": CLAIMED_AGAINST,
}
# TRANSLATORS: log. name: a player's name; card: a card name (nominative); action: an action
# name.
CLAIMED = N_("%(name)s claims the %(card)s: %(action)s.")


def announcement(name: str) -> str | tuple[str, str]:
    """What the table hears when an action is declared (Tax, Exchange: the claim alone)."""
    return ANNOUNCEMENTS.get(name, CLAIMED)
