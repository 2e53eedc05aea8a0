"""How a turn moves on once a step is accepted: windows, losses, resolution, the end of a turn.

The turn waits while anyone owes something (a loss, a draw, an answer to a challenge, a choice
in an exchange or examine); when nothing is owed, `settle` runs the turn's next part (`then`).
"""

from __future__ import annotations

from collections import Counter

from .cards import ACTIONS
from .legality import blockers, responders
from .rulings import N_, NP_, Ruling, action, card
from .state import Draw, Game, Loss, Player, Turn


def say(game: Game, text: str | tuple[str, str], rule: str | None = None,
        count: str | None = None, **params: object) -> None:
    """Add a ruling to the public log; (singular, plural) texts are chosen by `count`."""
    game.log.append(Ruling(text, params, rule, count))


def pay_out(game: Game, player: Player, amount: int) -> None:
    """Coins from the treasury; a payout it cannot cover pays what it has (E-26)."""
    paid = min(amount, game.treasury)
    if paid < amount:
        say(
            game,
            NP_("The treasury holds only %(paid)s of the %(amount)s coin due; %(name)s takes "
                "what is there.",
                "The treasury holds only %(paid)s of the %(amount)s coins due; %(name)s takes "
                "what is there."),
            "E-26",
            "amount",
            paid=paid,
            amount=amount,
            name=player.name,
        )
    game.treasury -= paid
    player.coins += paid


def return_coins(game: Game, player: Player) -> None:
    """An eliminated player's coins go back to the treasury (E-20, E-39)."""
    if player.coins:
        say(
            game,
            NP_("%(name)s's %(coins)s coin goes back to the treasury.",
                "%(name)s's %(coins)s coins go back to the treasury."),
            "E-20",
            "coins",
            name=player.name,
            coins=player.coins,
        )
        game.treasury += player.coins
        player.coins = 0


def turn_face_up(game: Game, player: Player, which: str) -> None:
    """Lose an influence (E-28): the card stays face up in front of its owner for good."""
    if player.hand is not None:
        player.hand.remove(which)
    else:
        game.unseen[which] -= 1
    player.face_down -= 1
    player.revealed.append(which)
    say(game, N_("%(name)s turns the %(card)s face up."), name=player.name, card=card(which))
    t = game.turn
    if t is not None and player.hand is None:
        for proof in t.proofs:  # FORMAT.md: an untracked prover who loses the proven card
            if proof.player == player.name and which in proof.cards:
                proof.cancelled = True
    if player.face_down == 0:
        player.out = True
        game.out_this_turn.append(player.name)
        say(game, N_("%(name)s has no influence left and is out of the game."), name=player.name)
        if game.rules.elimination_coin_return == "immediate":
            return_coins(game, player)
        if len(game.living()) == 1:
            game_over(game)


def game_over(game: Game) -> None:
    """The moment one player is left the game ends; nothing pending resolves (E-7, §1.3)."""
    winner = game.living()[0]
    for p in game.players:
        if p.out:
            return_coins(game, p)
    game.turn = None
    game.winner = winner.name
    game.current = winner.name
    say(game, N_("%(name)s is the last player with influence and wins the game."), name=winner.name)


def open_window(game: Game, window: str) -> None:
    t = game.turn
    assert t is not None
    t.window = window
    t.passed = set()
    if not responders(game):
        close_window(game)


def close_window(game: Game) -> None:
    t = game.turn
    assert t is not None
    window, t.window = t.window, None
    t.passed = set()
    t.then = {"challenge": "after_claim", "block": "resolve", "block_challenge": "blocked"}[
        str(window)
    ]
    settle(game)


def settle(game: Game) -> None:
    """Run the turn forward as far as it goes without anyone's input."""
    while game.turn is not None:
        t = game.turn
        auto_losses(game)
        if game.turn is None:
            return
        if t.losses or t.draws or t.window or t.challenger or t.stage:
            return
        step, t.then = t.then, None
        if step is None:
            return
        CONTINUATIONS[step](game, t)


def auto_losses(game: Game) -> None:
    """A tracked player with one face-down card loses it without a step (FORMAT.md)."""
    t = game.turn
    while t is not None and t.losses:
        head = t.losses[0]
        p = game.player(head.player)
        if p.out:
            t.losses.pop(0)
            continue
        if p.hand is not None and p.face_down == 1:
            t.losses.pop(0)
            turn_face_up(game, p, p.hand[0])
            t = game.turn
            continue
        return


def after_claim(game: Game, t: Turn) -> None:
    """The action's claim stands: blocks come next, if anyone may block (E-1, E-3)."""
    if ACTIONS[t.action].blockers and blockers(game):
        if t.target_lost_challenge and t.target in blockers(game):
            say(game, N_("%(target)s lost the challenge but may still block the %(action)s."),
                "E-1", target=t.target, action=action(t.action))
        open_window(game, "block")
    else:
        target = game.player(t.target) if t.target else None
        if t.target_lost_challenge and target is not None and not target.out:
            say(game, N_("%(target)s lost the challenge and, by this table's rules, may not "
                         "block."), "E-1", target=t.target)
        t.then = "resolve"


def blocked(game: Game, t: Turn) -> None:
    if t.paid and t.action != "convert":
        say(
            game,
            NP_("The %(action)s is blocked; the %(cost)s coin paid stays spent.",
                "The %(action)s is blocked; the %(cost)s coins paid stay spent."),
            count="cost",
            action=action(t.action),
            cost=t.paid,
        )
    else:
        say(game, N_("The %(action)s is blocked."), action=action(t.action))
    t.then = "end"


def block_failed(game: Game, t: Turn) -> None:
    """One block per action, unless reblock_foreign_aid lets another player try (E-11)."""
    t.blocker = t.block_as = None
    if t.action == "foreign_aid" and game.rules.reblock_foreign_aid and blockers(game):
        say(game, N_("The block failed; by this table's rules another player may still block."),
            "E-11")
        open_window(game, "block")
    else:
        if t.action == "foreign_aid" and not game.rules.reblock_foreign_aid:
            say(game, N_("The block failed, so the %(action)s goes ahead: one block per "
                         "action."), "E-11", action=action(t.action))
        t.then = "resolve"


def cancelled(game: Game, t: Turn) -> None:
    t.then = "end"


def resolve(game: Game, t: Turn) -> None:
    """The action takes effect (§1.3 RESOLVE)."""
    actor = game.player(t.actor)
    t.then = "end"
    if actor.out:  # E-6: an eliminated actor's action never resolves
        return
    name = t.action
    if name == "income":
        pay_out(game, actor, 1)
    elif name == "foreign_aid":
        pay_out(game, actor, 2)
        say(game, N_("%(name)s takes 2 coins (%(action)s)."), name=actor.name,
            action=action(name))
    elif name == "tax":
        pay_out(game, actor, 3)
        say(game, N_("%(name)s takes 3 coins (%(action)s)."), name=actor.name,
            action=action(name))
    elif name == "steal":
        target = game.player(str(t.target))
        taken = min(2, target.coins)
        target.coins -= taken
        actor.coins += taken
        if target.out and taken:
            say(game, NP_("%(target)s is out, but the %(action)s still takes %(n)s coin before "
                          "the rest go back to the treasury.",
                          "%(target)s is out, but the %(action)s still takes %(n)s coins before "
                          "the rest go back to the treasury."),
                "E-21", "n", n=taken, target=target.name, action=action(name))
        say(game, NP_("%(name)s steals %(n)s coin from %(target)s.",
                      "%(name)s steals %(n)s coins from %(target)s."),
            count="n", name=actor.name, n=taken, target=target.name)
    elif name in ("assassinate", "coup"):
        target = game.player(str(t.target))
        if target.out:
            say(game, N_("%(target)s is already out; the %(action)s has no effect."), "E-3",
                target=target.name, action=action(name))
        else:
            rule = None
            if name == "assassinate" and t.target_lost_challenge:
                rule = "E-1"
            elif name == "assassinate" and t.tried_blockers:
                rule = "E-2"
            say(game, N_("The %(action)s goes ahead: %(target)s loses an influence."), rule,
                action=action(name), target=target.name)
            t.losses.append(Loss(target.name, name))
    elif name == "exchange":
        count = min(2 if game.rules.exchanger == "ambassador" else 1, game.deck_size)
        t.draws.append(Draw(actor.name, count, "exchange"))
        t.stage = "keep"
    elif name == "examine":
        target = game.player(str(t.target))
        if target.out:
            say(game, N_("%(target)s is already out; there is nothing to examine."), "E-3",
                target=target.name)
        else:
            t.stage = "show"
            t.shown_by = target.name if game.rules.examine_shown_by == "target" else actor.name
    elif name == "embezzle":
        taken = game.reserve
        game.reserve = 0
        actor.coins += taken
        say(game, NP_("%(name)s takes the %(n)s coin on the Treasury Reserve (%(action)s).",
                      "%(name)s takes the %(n)s coins on the Treasury Reserve (%(action)s)."),
            "E-37" if taken == 0 else None, "n", name=actor.name, n=taken, action=action(name))


def end(game: Game, t: Turn) -> None:
    """Replacements owed at the end of the turn (bottom_at_end_of_turn), in the order of proofs."""
    for proof in t.proofs:
        p = game.player(proof.player)
        if p.out or proof.cancelled:
            continue
        if p.hand is not None:  # a proven card that left the hand is not replaced
            cards = list((Counter(p.hand) & Counter(proof.cards)).elements())
            count = len(cards)
        else:
            cards, count = [], proof.count
        if count:
            t.draws.append(Draw(p.name, count, "proof", cards, to_bottom=True))
    t.proofs = []
    t.then = "finish"


def finish(game: Game, t: Turn) -> None:
    """Coins of players eliminated this turn go back (E-20); play passes clockwise (E-6)."""
    for name in game.out_this_turn:
        return_coins(game, game.player(name))
    game.out_this_turn = []
    game.turn = None
    game.current = game.next_living_after(t.actor)


CONTINUATIONS = {
    "after_claim": after_claim,
    "blocked": blocked,
    "block_failed": block_failed,
    "cancelled": cancelled,
    "resolve": resolve,
    "end": end,
    "finish": finish,
}
