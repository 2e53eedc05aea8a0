"""What each action does when it resolves (§1.3 RESOLVE): the action table's payouts, the
influence a Coup or an Assassinate takes, the cards an exchange draws, an examination, the
Reserve an Embezzle empties."""

from __future__ import annotations

from .cards import ACTIONS
from .coins import hand_over, pay_out, with_coins
from .rulings import N_, NP_, action
from .state import Game, with_ruling, with_turn
from .turn import Draw, Examine, Loss, Turn


def collect(game: Game, t: Turn) -> Game:
    """Income, Foreign Aid, Tax: the coins the action table says, from the treasury (E-26).
    Income was said when it was declared: it resolves at once."""
    gain = ACTIONS[t.action].gain
    game = pay_out(game, t.actor, gain)
    if t.action == "income":
        return game
    # TRANSLATORS: log. name: a player's name; n: a number; action: an action name.
    return with_ruling(game, NP_("%(name)s takes %(n)s coin (%(action)s).",
                                 "%(name)s takes %(n)s coins (%(action)s)."),
                       count="n", name=t.actor, n=gain, action=action(t.action))


def steal(game: Game, t: Turn) -> Game:
    """Take min(2, coins); from a target out this turn, before its coins go back (E-21)."""
    target = game.player(str(t.target))
    taken = min(2, target.coins)
    game = hand_over(game, target.name, t.actor, taken)
    if target.out and taken:
        game = with_ruling(
            # TRANSLATORS: log. target: a player's name; action: an action name; n: a number.
            game, NP_("%(target)s is out, but the %(action)s still takes %(n)s coin "
                      "before the rest go back to the treasury.",
                      "%(target)s is out, but the %(action)s still takes %(n)s coins "
                      "before the rest go back to the treasury."),
            "E-21", "n", n=taken, target=target.name, action=action(t.action))
    # TRANSLATORS: log. name, target: players' names; n: a number.
    return with_ruling(game, NP_("%(name)s steals %(n)s coin from %(target)s.",
                                 "%(name)s steals %(n)s coins from %(target)s."),
                       count="n", name=t.actor, n=taken, target=target.name)


def take_influence(game: Game, t: Turn) -> Game:
    """Coup and Assassinate: the target loses an influence, unless already out (E-3)."""
    target = game.player(str(t.target))
    if target.out:
        return with_ruling(
            # TRANSLATORS: log. target: a player's name; action: an action name.
            game, N_("%(target)s is already out; the %(action)s has no effect."), "E-3",
            target=target.name, action=action(t.action))
    rule = None
    if t.action == "assassinate" and t.target_lost_challenge:
        rule = "E-1"
    elif t.action == "assassinate" and t.tried_blockers:
        rule = "E-2"
    # TRANSLATORS: log. action: an action name; target: a player's name.
    game = with_ruling(game, N_("The %(action)s goes ahead: %(target)s loses an influence."), rule,
                       action=action(t.action), target=target.name)
    loss = Loss(target.name, "coup" if t.action == "coup" else "assassinate")
    return with_turn(game, losses=(*t.losses, loss))


def exchange(game: Game, t: Turn) -> Game:
    """Draw 2 (the Inquisitor 1), or what a short deck holds (E-17)."""
    count = min(2 if game.rules.exchanger == "ambassador" else 1, game.deck_size)
    return with_turn(game, draws=(*t.draws, Draw(t.actor, count, "exchange")))


def examine(game: Game, t: Turn) -> Game:
    target = game.player(str(t.target))
    if target.out:
        return with_ruling(
            # TRANSLATORS: log. target: a player's name.
            game, N_("%(target)s is already out; there is nothing to examine."), "E-3",
            target=target.name)
    shown_by = target.name if game.rules.examine_shown_by == "target" else t.actor
    return with_turn(game, open=Examine("show", shown_by))


def embezzle(game: Game, t: Turn) -> Game:
    """Take every coin on the Treasury Reserve; 0 is allowed (E-37)."""
    taken = game.reserve
    game = with_coins(game, t.actor, taken, reserve=-taken)
    return with_ruling(
        # TRANSLATORS: log. name: a player's name; n: a number; action: an action name.
        game, NP_("%(name)s takes the %(n)s coin on the Treasury Reserve (%(action)s).",
                  "%(name)s takes the %(n)s coins on the Treasury Reserve (%(action)s)."),
        "E-37" if taken == 0 else None, "n", name=t.actor, n=taken,
        action=action(t.action))


def no_effect(game: Game, t: Turn) -> Game:
    return game  # Convert takes effect when declared


EFFECTS = {
    "income": collect,
    "foreign_aid": collect,
    "coup": take_influence,
    "tax": collect,
    "assassinate": take_influence,
    "steal": steal,
    "exchange": exchange,
    "examine": examine,
    "convert": no_effect,
    "embezzle": embezzle,
}
