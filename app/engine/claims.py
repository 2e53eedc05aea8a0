"""A challenged claim: proven or conceded, the losses and replacement that follow, and the
refund of a successfully challenged action (E-8, E-13, E-15, E-35, E-36)."""

from __future__ import annotations

from typing import Any

from .cards import ACTIONS, DUKE
from .coins import with_coins
from .errors import CARD_ACCOUNTED_FOR, RuleError
from .flow import advance
from .now import turn_of
from .rulings import N_, NP_, action, card
from .state import Game, Player, Step, with_ruling, with_turn
from .steps import handles
from .turn import Challenged, Draw, Loss, Proof, Turn
from .waiting import waiting as waiting_text


def challenged_claim(game: Game, step: Step) -> tuple[Turn, Challenged]:
    t = turn_of(game)
    if not isinstance(t.open, Challenged):
        # TRANSLATORS: error (a refused step). waiting: a sentence, whom the table waits for.
        raise RuleError("nothing_to_prove", N_("Nobody has challenged; there is nothing to "
                                                "prove or concede. %(waiting)s"),
                        waiting=waiting_text(game))
    if step.by != t.open.claimant:
        # TRANSLATORS: error. name: a player's name.
        raise RuleError("not_challenged", N_("Only %(name)s, who was challenged, can prove or "
                                             "concede."), name=t.open.claimant)
    return t, t.open


@handles("prove")
def prove(game: Game, step: Step) -> Game:
    """Show the claimed card: the challenger loses one, the prover replaces it (E-13, E-27).
    An Embezzle is proven by showing every face-down card, none of them a Duke (E-36)."""
    t, c = challenged_claim(game, step)
    p = game.player(c.claimant)
    shown, count = proof_cards(game, t, c, p)
    inverted = ACTIONS[t.action].inverted and not c.on_block
    if inverted:
        # TRANSLATORS: log (what happened, read aloud at the table). name, challenger: players'
        # names; card: a card name as the box prints it, in the nominative.
        text = N_("%(name)s shows every face-down card and none is a %(card)s, so "
                  "%(challenger)s loses an influence.")
    else:
        # TRANSLATORS: log. name, challenger: players' names; card: a card name (nominative).
        text = N_("%(name)s shows the %(card)s, so %(challenger)s loses an influence.")
    game = with_ruling(game, text, name=p.name, card=card(c.claim), challenger=c.challenger)
    if game.rules.proof_replacement == "bottom_at_end_of_turn":
        game = with_ruling(
            # TRANSLATORS: log. name: a player's name; n: how many cards.
            game, NP_("By this edition’s rules, at the end of the turn %(name)s puts the "
                      "shown card at the bottom of the court deck and draws the top card.",
                      "By this edition’s rules, at the end of the turn %(name)s puts the "
                      "%(n)s shown cards at the bottom of the court deck and draws as "
                      "many from the top."), count="n", name=p.name, n=count)
        owed: dict[str, Any] = {"proofs": (*t.proofs, Proof(p.name, shown, count))}
    else:
        replacement = Draw(p.name, count, "proof", shown, rule="E-13" if c.on_block else None)
        owed = {"draws": (*t.draws, replacement)}
    loss = Loss(c.challenger, "block_challenge" if c.on_block else "challenge")
    game = with_turn(
        game, open=None, losses=(*t.losses, loss),
        target_lost_challenge=t.target_lost_challenge or (
            not c.on_block and c.challenger == t.target),
        **owed)
    return advance(game, "blocked" if c.on_block else "after_claim")


def proof_cards(game: Game, t: Turn, c: Challenged, p: Player) -> tuple[tuple[str, ...], int]:
    """The cards a proof shows and how many are replaced, or why it can't be made."""
    if ACTIONS[t.action].inverted and not c.on_block:
        if p.hand is not None and c.claim in p.hand:
            # TRANSLATORS: error. name: a player's name; card: a card name (nominative).
            raise RuleError("holds_duke", N_("%(name)s holds a %(card)s, so %(name)s can only "
                                             "concede (E-35)."), name=p.name, card=card(c.claim))
        return (p.hand if p.hand is not None else ()), p.face_down
    if p.hand is not None and c.claim not in p.hand:
        # TRANSLATORS: error. name: a player's name; card: a card name (nominative).
        raise RuleError("cannot_prove", N_("%(name)s has no %(card)s to show."), name=p.name,
                        card=card(c.claim))
    if p.hand is None and game.unseen[c.claim] < 1:
        # TRANSLATORS: error. name: a player's name; card: a card name (nominative).
        raise RuleError(CARD_ACCOUNTED_FOR, N_("No %(card)s can be in %(name)s’s hand: every "
                                               "copy is accounted for."),
                        name=p.name, card=card(c.claim))
    return (c.claim,), 1


@handles("concede")
def concede(game: Game, step: Step) -> Game:
    """Not proving loses the challenge, even when holding the card (E-8). A caught Embezzle
    loses the card of the loser's choice, or the Duke with embezzle_caught_loses_duke (E-35)."""
    t, c = challenged_claim(game, step)
    p = game.player(c.claimant)
    if c.on_block:
        game = with_ruling(
            # TRANSLATORS: log. name: a player's name; card: a card name (nominative).
            game, N_("%(name)s does not show the %(card)s: the block fails and %(name)s "
                     "loses an influence."), name=p.name, card=card(c.claim))
        game = with_turn(game, open=None, losses=(*t.losses, Loss(p.name, "block_challenge")))
        return advance(game, "block_failed")
    game = with_ruling(
        # TRANSLATORS: log. name: a player's name; action: an action name as the box prints it.
        game, N_("%(name)s does not prove the claim: the %(action)s is cancelled and "
                 "%(name)s loses an influence."), name=p.name, action=action(t.action))
    must = None
    if (ACTIONS[t.action].inverted and game.rules.embezzle_caught_loses_duke
            and p.hand is not None and DUKE in p.hand):
        must = DUKE
        game = with_ruling(
            # TRANSLATORS: log. name: a player's name; card: a card name (nominative).
            game, N_("%(name)s was caught holding a %(card)s and must lose it by this "
                     "table’s rules."), "E-35", name=p.name, card=card(DUKE))
    game = with_turn(game, open=None, losses=(*t.losses, Loss(p.name, "challenge", must)))
    return advance(refund(game, t, p.name), "end")


def refund(game: Game, t: Turn, name: str) -> Game:
    """A successfully challenged action returns its cost (E-4, E-15), unless the edition says no."""
    if not t.paid:
        return game
    if not game.rules.refund_on_successful_challenge:
        return with_ruling(
            # TRANSLATORS: log. cost: a number of coins.
            game, NP_("By this edition’s rules the %(cost)s coin paid is not refunded.",
                      "By this edition’s rules the %(cost)s coins paid are not refunded."),
            count="cost", cost=t.paid)
    game = with_coins(game, name, t.paid, treasury=-t.paid)
    # TRANSLATORS: log. name: a player's name; cost: a number of coins.
    return with_ruling(game, NP_("%(name)s gets the %(cost)s coin back.",
                                 "%(name)s gets the %(cost)s coins back."), "E-15", "cost",
                       name=name, cost=t.paid)
