"""How a turn moves on once a step is accepted: windows, losses, resolution, the end of a turn.

Every function takes a game and returns the next one. The turn waits while anyone owes
something (a loss, a draw, an answer to what is open); when nothing is owed, `advance` runs the
turn's next part (`Turn.next`), as far as it goes without anyone's input.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import ACTIONS
from .legality import may_block
from .rulings import N_, NP_, action, card
from .state import (
    BlockWindow,
    ChallengeWindow,
    Draw,
    Examine,
    Game,
    Loss,
    Next,
    Player,
    Turn,
    evolve,
    say,
    with_player,
    with_turn,
)


def turn_of(game: Game) -> Turn:
    assert game.turn is not None
    return game.turn


# --- coins -------------------------------------------------------------------------------


def with_coins(game: Game, name: str, delta: int, treasury: int = 0, reserve: int = 0) -> Game:
    """Coins move: `delta` to the player, and the treasury's and reserve's changes with it."""
    i = game.seats[name]
    players = game.players
    moved = (*players[:i], evolve(players[i], coins=players[i].coins + delta), *players[i + 1:])
    return evolve(game, players=moved, treasury=game.treasury + treasury,
                  reserve=game.reserve + reserve)


def pay_out(game: Game, name: str, amount: int) -> Game:
    """Coins from the treasury; a payout it cannot cover pays what it has (E-26)."""
    paid = min(amount, game.treasury)
    if paid < amount:
        game = say(game, NP_("The treasury holds only %(paid)s of the %(amount)s coin due; "
                             "%(name)s takes what is there.",
                             "The treasury holds only %(paid)s of the %(amount)s coins due; "
                             "%(name)s takes what is there."),
                   "E-26", "amount", paid=paid, amount=amount, name=name)
    return with_coins(game, name, paid, treasury=-paid)


def return_coins(game: Game, player: Player) -> Game:
    """An eliminated player's coins go back to the treasury (E-20, E-39)."""
    if not player.coins:
        return game
    game = say(game, NP_("%(name)s's %(coins)s coin goes back to the treasury.",
                         "%(name)s's %(coins)s coins go back to the treasury."),
               "E-20", "coins", name=player.name, coins=player.coins)
    return with_coins(game, player.name, -player.coins, treasury=player.coins)


# --- losing influence --------------------------------------------------------------------


def turn_face_up(game: Game, name: str, which: str) -> Game:
    """Lose an influence (E-28): the card stays face up in front of its owner for good."""
    p = game.player(name)
    if p.hand is not None:
        hand = list(p.hand)
        hand.remove(which)
        game = with_player(game, name, hand=tuple(hand))
    else:
        game = evolve(game, unseen=game.unseen.minus((which,)))
    game = with_player(game, name, face_down=p.face_down - 1, revealed=(*p.revealed, which))
    game = say(game, N_("%(name)s turns the %(card)s face up."), name=name, card=card(which))
    t = game.turn
    if t is not None and p.hand is None and t.proofs:
        # FORMAT.md: an untracked prover who loses the proven card is not replaced for it.
        proofs = tuple(evolve(x, cancelled=True)
                       if x.player == name and which in x.cards else x for x in t.proofs)
        game = with_turn(game, proofs=proofs)
    if p.face_down - 1 == 0:
        game = eliminate(game, name)
    return game


def eliminate(game: Game, name: str) -> Game:
    game = with_player(game, name, out=True)
    game = evolve(game, out_this_turn=(*game.out_this_turn, name))
    game = say(game, N_("%(name)s has no influence left and is out of the game."), name=name)
    if game.rules.elimination_coin_return == "immediate":
        game = return_coins(game, game.player(name))
    if sum(1 for p in game.players if not p.out) == 1:
        game = game_over(game)
    return game


def game_over(game: Game) -> Game:
    """The moment one player is left the game ends; nothing pending resolves (E-7, §1.3)."""
    winner = next(p.name for p in game.players if not p.out)
    for p in game.players:
        if p.out:
            game = return_coins(game, p)
    game = evolve(game, turn=None, winner=winner, current=winner)
    return say(game, N_("%(name)s is the last player with influence and wins the game."),
               name=winner)


def settle_losses(game: Game) -> Game:
    """A tracked player with one face-down card loses it without a step (FORMAT.md); a loss
    owed by a player already out is dropped."""
    while game.turn is not None and game.turn.losses:
        head, *rest = game.turn.losses
        p = game.player(head.player)
        if p.out:
            game = with_turn(game, losses=tuple(rest))
        elif p.hand is not None and p.face_down == 1:
            game = turn_face_up(with_turn(game, losses=tuple(rest)), p.name, p.hand[0])
        else:
            break
    return game


# --- windows -----------------------------------------------------------------------------
# A window opens only when someone may answer it: a claim always has another living player
# to challenge it (else the game is over), and a block window opens only for `may_block`.


def close_window(game: Game) -> Game:
    """Everyone eligible let it stand: the turn goes on (§1.3)."""
    t = turn_of(game)
    w = t.open
    then: Next = "resolve"
    if isinstance(w, ChallengeWindow):
        then = "blocked" if w.on_block else "after_claim"
    return advance(with_turn(game, open=None), then)


# --- the turn's parts --------------------------------------------------------------------

Part = Callable[[Game, Turn], tuple[Game, Next | None]]


def advance(game: Game, then: Next | None = None) -> Game:
    """Run the turn forward as far as it goes without anyone's input, from the part `then`
    (by default the turn's own `next`). Each part returns the game and the part after it."""
    if then is None and game.turn is not None:
        then = game.turn.next
    while True:
        if game.turn is not None and game.turn.losses:
            game = settle_losses(game)
        t = game.turn
        if t is None:
            return game
        if t.waiting or then is None:
            return game if t.next is then else with_turn(game, next=then)
        game, then = PARTS[then](game, t)


def after_claim(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """The action's claim stands: blocks come next, if anyone may block (E-1, E-3)."""
    able = may_block(game) if ACTIONS[t.action].blockers else []
    if able:
        if t.target_lost_challenge and t.target in able:
            game = say(game, N_("%(target)s lost the challenge but may still block the "
                                "%(action)s."), "E-1", target=t.target, action=action(t.action))
        return with_turn(game, open=BlockWindow()), None
    target = game.player(t.target) if t.target else None
    if t.target_lost_challenge and target is not None and not target.out:
        game = say(game, N_("%(target)s lost the challenge and, by this table's rules, may not "
                            "block."), "E-1", target=t.target)
    return game, "resolve"


def blocked(game: Game, t: Turn) -> tuple[Game, Next | None]:
    if t.paid:
        game = say(game, NP_("The %(action)s is blocked; the %(cost)s coin paid stays spent.",
                             "The %(action)s is blocked; the %(cost)s coins paid stay spent."),
                   count="cost", action=action(t.action), cost=t.paid)
    else:
        game = say(game, N_("The %(action)s is blocked."), action=action(t.action))
    return game, "end"


def block_failed(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """One block per action, unless reblock_foreign_aid lets another player try (E-11)."""
    game = with_turn(game, block=None)
    if t.action == "foreign_aid" and game.rules.reblock_foreign_aid and may_block(game):
        game = say(game, N_("The block failed; by this table's rules another player may still "
                            "block."), "E-11")
        return with_turn(game, open=BlockWindow(again=True)), None
    if t.action == "foreign_aid" and not game.rules.reblock_foreign_aid:
        game = say(game, N_("The block failed, so the %(action)s goes ahead: one block per "
                            "action."), "E-11", action=action(t.action))
    return game, "resolve"


def resolve(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """The action takes effect (§1.3 RESOLVE); an eliminated actor's never does (E-6)."""
    if game.player(t.actor).out:
        return game, "end"
    return EFFECTS[t.action](game, t), "end"


def end(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """Replacements owed at the end of the turn (bottom_at_end_of_turn), in the order of the
    proofs. A proven card that left a tracked hand in the meantime is not replaced."""
    if not t.proofs:
        return game, "finish"
    draws = []
    for proof in t.proofs:
        p = game.player(proof.player)
        if p.out or proof.cancelled:
            continue
        if p.hand is not None:
            left = list(p.hand)
            cards = []
            for c in proof.cards:
                if c in left:
                    left.remove(c)
                    cards.append(c)
            count = len(cards)
        else:
            cards, count = [], proof.count
        if count:
            draws.append(Draw(p.name, count, "proof", tuple(cards), to_bottom=True))
    return with_turn(game, proofs=(), draws=(*t.draws, *draws)), "finish"


def finish(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """Coins of players eliminated this turn go back (E-20); play passes clockwise (E-6)."""
    for name in game.out_this_turn:
        game = return_coins(game, game.player(name))
    after = evolve(game, out_this_turn=(), turn=None, current=game.next_living_after(t.actor))
    return after, None


PARTS: dict[str, Part] = {
    "after_claim": after_claim,
    "resolve": resolve,
    "blocked": blocked,
    "block_failed": block_failed,
    "end": end,
    "finish": finish,
}


# --- what each action does when it resolves ----------------------------------------------


def income(game: Game, t: Turn) -> Game:
    return pay_out(game, t.actor, 1)


def foreign_aid(game: Game, t: Turn) -> Game:
    game = pay_out(game, t.actor, 2)
    return say(game, N_("%(name)s takes 2 coins (%(action)s)."), name=t.actor,
               action=action(t.action))


def tax(game: Game, t: Turn) -> Game:
    game = pay_out(game, t.actor, 3)
    return say(game, N_("%(name)s takes 3 coins (%(action)s)."), name=t.actor,
               action=action(t.action))


def steal(game: Game, t: Turn) -> Game:
    """Take min(2, coins); from a target out this turn, before its coins go back (E-21)."""
    target = game.player(str(t.target))
    taken = min(2, target.coins)
    game = with_coins(with_coins(game, target.name, -taken), t.actor, taken)
    if target.out and taken:
        game = say(game, NP_("%(target)s is out, but the %(action)s still takes %(n)s coin "
                             "before the rest go back to the treasury.",
                             "%(target)s is out, but the %(action)s still takes %(n)s coins "
                             "before the rest go back to the treasury."),
                   "E-21", "n", n=taken, target=target.name, action=action(t.action))
    return say(game, NP_("%(name)s steals %(n)s coin from %(target)s.",
                         "%(name)s steals %(n)s coins from %(target)s."),
               count="n", name=t.actor, n=taken, target=target.name)


def take_influence(game: Game, t: Turn) -> Game:
    """Coup and Assassinate: the target loses an influence, unless already out (E-3)."""
    target = game.player(str(t.target))
    if target.out:
        return say(game, N_("%(target)s is already out; the %(action)s has no effect."), "E-3",
                   target=target.name, action=action(t.action))
    rule = None
    if t.action == "assassinate" and t.target_lost_challenge:
        rule = "E-1"
    elif t.action == "assassinate" and t.tried_blockers:
        rule = "E-2"
    game = say(game, N_("The %(action)s goes ahead: %(target)s loses an influence."), rule,
               action=action(t.action), target=target.name)
    loss = Loss(target.name, "coup" if t.action == "coup" else "assassinate")
    return with_turn(game, losses=(*turn_of(game).losses, loss))


def exchange(game: Game, t: Turn) -> Game:
    """Draw 2 (the Inquisitor 1), or what a short deck holds (E-17)."""
    count = min(2 if game.rules.exchanger == "ambassador" else 1, game.deck_size)
    return with_turn(game, draws=(*t.draws, Draw(t.actor, count, "exchange")))


def examine(game: Game, t: Turn) -> Game:
    target = game.player(str(t.target))
    if target.out:
        return say(game, N_("%(target)s is already out; there is nothing to examine."), "E-3",
                   target=target.name)
    shown_by = target.name if game.rules.examine_shown_by == "target" else t.actor
    return with_turn(game, open=Examine("show", shown_by))


def embezzle(game: Game, t: Turn) -> Game:
    """Take every coin on the Treasury Reserve; 0 is allowed (E-37)."""
    taken = game.reserve
    game = with_coins(game, t.actor, taken, reserve=-taken)
    return say(game, NP_("%(name)s takes the %(n)s coin on the Treasury Reserve (%(action)s).",
                         "%(name)s takes the %(n)s coins on the Treasury Reserve (%(action)s)."),
               "E-37" if taken == 0 else None, "n", name=t.actor, n=taken,
               action=action(t.action))


def no_effect(game: Game, t: Turn) -> Game:
    return game  # Convert takes effect when declared


EFFECTS = {
    "income": income,
    "foreign_aid": foreign_aid,
    "coup": take_influence,
    "tax": tax,
    "assassinate": take_influence,
    "steal": steal,
    "exchange": exchange,
    "examine": examine,
    "convert": no_effect,
    "embezzle": embezzle,
}
