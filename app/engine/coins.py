"""Coins on the move: paid, taken, returned. The treasury is the coins in the box that no
player holds and that are not on the Reserve (E-26, E-39)."""

from __future__ import annotations

from .rulings import NP_
from .state import Game, Player, evolve, with_ruling


def with_coins(game: Game, name: str, delta: int, treasury: int = 0, reserve: int = 0) -> Game:
    """Coins move: `delta` to the player, and the treasury's and reserve's changes with it."""
    i = game.seats[name]
    players = game.players
    moved = (*players[:i], evolve(players[i], coins=players[i].coins + delta), *players[i + 1:])
    return evolve(game, players=moved, treasury=game.treasury + treasury,
                  reserve=game.reserve + reserve)


def hand_over(game: Game, giver: str, taker: str, n: int) -> Game:
    """`n` coins pass from one player to another (a Steal); the treasury is not involved."""
    if not n:
        return game
    players = list(game.players)
    for name, delta in ((giver, -n), (taker, n)):
        i = game.seats[name]
        players[i] = evolve(players[i], coins=players[i].coins + delta)
    return evolve(game, players=tuple(players))


def pay_out(game: Game, name: str, amount: int) -> Game:
    """Coins from the treasury; a payout it cannot cover pays what it has (E-26)."""
    paid = min(amount, game.treasury)
    if paid < amount:
        game = with_ruling(
            # TRANSLATORS: log. paid, amount: numbers of coins; name: a player's name.
            game, NP_("The treasury holds only %(paid)s of the %(amount)s coin due; "
                      "%(name)s takes what is there.",
                      "The treasury holds only %(paid)s of the %(amount)s coins due; "
                      "%(name)s takes what is there."),
            "E-26", "amount", paid=paid, amount=amount, name=name)
    return with_coins(game, name, paid, treasury=-paid)


def return_coins(game: Game, player: Player) -> Game:
    """An eliminated player's coins go back to the treasury (E-20, E-39)."""
    if not player.coins:
        return game
    # TRANSLATORS: log. name: a player's name; coins: a number of coins.
    game = with_ruling(game, NP_("%(name)s’s %(coins)s coin goes back to the treasury.",
                                 "%(name)s’s %(coins)s coins go back to the treasury."),
                       "E-20", "coins", name=player.name, coins=player.coins)
    return with_coins(game, player.name, -player.coins, treasury=player.coins)
