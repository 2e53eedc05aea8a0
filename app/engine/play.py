"""`apply(game, step)`: one handler per kind of step (steps.py), each refusing before anything
changes and returning the next game. The game given is never changed.

Steps are those of a game record (FORMAT.md): the same vocabulary serves the record files,
the web forms and the tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from .cards import ACTIONS, DUKE, FACTIONS
from .errors import CARD_ACCOUNTED_FOR, RuleError
from .flow import advance, close_window, turn_face_up, with_coins
from .legality import (
    block_characters,
    blockers,
    challengers,
    cost_of,
    declaration_problem,
    resolve_character,
)
from .pending import waiting as waiting_text
from .rulings import N_, NP_, action, card, faction
from .setup import check_card
from .state import (
    Block,
    BlockWindow,
    Challenged,
    ChallengeWindow,
    Draw,
    Examine,
    Exchange,
    Game,
    Loss,
    Player,
    Proof,
    Step,
    Turn,
    evolve,
    make,
    say,
    with_player,
    with_turn,
)
from .steps import STEPS, parse_step

Handler = Callable[[Game, Step], Game]


def apply(game: Game, data: dict[str, Any] | Step) -> Game:
    """The game after the step, or RuleError (the game given is never changed)."""
    step = data if isinstance(data, Step) else parse_step(data)
    if game.winner is not None:
        raise RuleError("game_over", N_("The game is over: %(name)s won."),
                        name=str(game.winner))
    if step.by is not None:
        seat = game.seats.get(step.by)
        if seat is None:
            raise RuleError("no_such_player", N_("There is no player named '%(name)s'."),
                            name=step.by)
        if game.players[seat].out:
            raise RuleError("player_out", N_("%(name)s is out of the game."), name=step.by)
    after = HANDLERS.get(step.do, declare)(game, step)
    return evolve(after, history=game.history + (step,))  # the step is part of the record


def turn_of(game: Game) -> Turn:
    if game.turn is None:
        raise RuleError(
            "no_turn", N_("Nothing is under way: it is %(name)s's turn to declare an action."),
            name=game.current)
    return game.turn


def not_now(game: Game) -> RuleError:
    return RuleError("not_now", N_("Not now: %(waiting)s"), waiting=waiting_text(game))


def by(step: Step) -> str:
    assert step.by is not None  # the table of step kinds requires it
    return step.by


# --- declaring -------------------------------------------------------------------------


def declare(game: Game, step: Step) -> Game:
    if game.turn is not None:
        raise not_now(game)
    actor, name, target = by(step), step.do, step.target
    if actor != game.current:
        raise RuleError("not_your_turn", N_("It is %(current)s's turn, not %(name)s's."),
                        current=game.current, name=actor)
    problem = declaration_problem(game, actor, name, target)
    if problem:
        raise problem
    cost = cost_of(name, actor, target)
    if name == "convert":
        return convert(game, actor, str(target), cost)
    spec = ACTIONS[name]
    claim = resolve_character(game.rules, spec.claim)
    window = None if claim is None else ChallengeWindow(actor, claim, on_block=False)
    turn = new_turn(actor, name, target, cost, window)
    game = evolve(with_coins(game, actor, -cost, treasury=cost), turn=turn, out_this_turn=())
    game = say(game, announcement(name), count="cost", name=actor, target=target,
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
    game = say(game, NP_("%(name)s pays %(cost)s coin to the Treasury Reserve and converts "
                         "%(target)s to the %(faction)s side.",
                         "%(name)s pays %(cost)s coins to the Treasury Reserve and converts "
                         "%(target)s to the %(faction)s side."), "E-38", "cost",
               name=actor, cost=cost, target=target, faction=faction(side))
    return advance(game, "end")


def announcement(name: str) -> str | tuple[str, str]:
    texts: dict[str, str | tuple[str, str]] = {
        "income": N_("%(name)s takes 1 coin (%(action)s)."),
        "foreign_aid": N_("%(name)s declares %(action)s; it can be blocked by claiming the "
                          "%(duke)s."),
        "coup": NP_("%(name)s pays %(cost)s coin: %(action)s against %(target)s.",
                    "%(name)s pays %(cost)s coins: %(action)s against %(target)s."),
        "assassinate": NP_(
            "%(name)s pays %(cost)s coin and claims the %(card)s to assassinate %(target)s.",
            "%(name)s pays %(cost)s coins and claims the %(card)s to assassinate %(target)s.",
        ),
        "embezzle": N_(
            "%(name)s claims to hold no %(card)s and embezzles the Treasury Reserve."
        ),
    }
    if name in texts:
        return texts[name]
    if name in ("steal", "examine"):
        return N_("%(name)s claims the %(card)s: %(action)s against %(target)s.")
    return N_("%(name)s claims the %(card)s: %(action)s.")


# --- responding ------------------------------------------------------------------------


def pass_(game: Game, step: Step) -> Game:
    """A pass binds only the window it was made in (E-4): the next window asks again."""
    t = turn_of(game)
    window = t.open
    if not isinstance(window, (ChallengeWindow, BlockWindow)):  # noqa: UP038 (faster)
        raise not_now(game)
    if step.by is None:
        blocking = isinstance(window, BlockWindow)
        game = say(game, N_("Nobody blocks.") if blocking else N_("Nobody challenges."))
        return close_window(game)
    eligible = blockers(game) if isinstance(window, BlockWindow) else challengers(game)
    if step.by not in eligible:
        raise RuleError("nothing_to_pass", N_("%(name)s has nothing to pass on now. "
                                              "%(waiting)s"),
                        name=step.by, waiting=waiting_text(game))
    if len(eligible) == 1:
        return close_window(game)  # the last one to answer lets it stand
    return with_turn(game, open=evolve(window, passed=(*window.passed, step.by)))


def challenge(game: Game, step: Step) -> Game:
    """One challenge per claim: the first counts, a second is refused (E-10)."""
    t = turn_of(game)
    challenger = by(step)
    if isinstance(t.open, Challenged):
        raise RuleError("already_challenged", N_("%(name)s has already challenged; a claim is "
                                                 "challenged only once (E-10)."),
                        name=t.open.challenger)
    window = t.open
    if not isinstance(window, ChallengeWindow):
        raise RuleError("no_claim", N_("There is no claim to challenge now. %(waiting)s"),
                        waiting=waiting_text(game))
    if challenger == window.claimant:
        raise RuleError("own_claim", N_("%(name)s can't challenge their own claim."),
                        name=challenger)
    if challenger in window.passed:
        raise RuleError("already_passed", N_("%(name)s already let this claim stand."),
                        name=challenger)
    game = with_turn(game, open=Challenged(window.claimant, window.claim, window.on_block,
                                           challenger))
    inverted = not window.on_block and ACTIONS[t.action].inverted
    text = (N_("%(challenger)s challenges: %(claimant)s says they hold no %(card)s.")
            if inverted else N_("%(challenger)s challenges %(claimant)s's %(card)s."))
    return say(game, text, challenger=challenger, claimant=window.claimant,
               card=card(window.claim))


def answering(game: Game, step: Step) -> tuple[Turn, Challenged]:
    t = turn_of(game)
    if not isinstance(t.open, Challenged):
        raise RuleError("nothing_to_answer", N_("Nobody has challenged; there is nothing to "
                                                "prove or concede. %(waiting)s"),
                        waiting=waiting_text(game))
    if step.by != t.open.claimant:
        raise RuleError("not_challenged", N_("Only %(name)s, who was challenged, can prove or "
                                             "concede."), name=t.open.claimant)
    return t, t.open


def prove(game: Game, step: Step) -> Game:
    """Show the claimed card: the challenger loses one, the prover replaces it (E-13, E-27).
    An Embezzle is proven by showing every face-down card, none of them a Duke (E-36)."""
    t, c = answering(game, step)
    p = game.player(c.claimant)
    shown, count = proof_cards(game, t, c, p)
    inverted = ACTIONS[t.action].inverted and not c.on_block
    if inverted:
        text = N_("%(name)s shows every face-down card and none is a %(card)s, so "
                  "%(challenger)s loses an influence.")
    else:
        text = N_("%(name)s shows the %(card)s, so %(challenger)s loses an influence.")
    game = say(game, text, name=p.name, card=card(c.claim), challenger=c.challenger)
    if game.rules.proof_replacement == "bottom_at_end_of_turn":
        game = say(game, N_("By this edition's rules, at the end of the turn %(name)s puts the "
                            "shown cards at the bottom of the court deck and draws as many "
                            "from the top."), name=p.name)
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
            raise RuleError("holds_duke", N_("%(name)s holds a %(card)s, so %(name)s can only "
                                             "concede (E-35)."), name=p.name, card=card(c.claim))
        return (p.hand if p.hand is not None else ()), p.face_down
    if p.hand is not None and c.claim not in p.hand:
        raise RuleError("cannot_prove", N_("%(name)s has no %(card)s to show."), name=p.name,
                        card=card(c.claim))
    if p.hand is None and game.unseen[c.claim] < 1:
        raise RuleError(CARD_ACCOUNTED_FOR, N_("No %(card)s can be in %(name)s's hand: every "
                                               "copy is accounted for."),
                        name=p.name, card=card(c.claim))
    return (c.claim,), 1


def concede(game: Game, step: Step) -> Game:
    """Not proving loses the challenge, even when holding the card (E-8). A caught Embezzle
    loses the card of the loser's choice, or the Duke with embezzle_caught_loses_duke (E-35)."""
    t, c = answering(game, step)
    p = game.player(c.claimant)
    if c.on_block:
        game = say(game, N_("%(name)s does not show the %(card)s: the block fails and %(name)s "
                            "loses an influence."), name=p.name, card=card(c.claim))
        game = with_turn(game, open=None, losses=(*t.losses, Loss(p.name, "block_challenge")))
        return advance(game, "block_failed")
    game = say(game, N_("%(name)s does not prove the claim: the %(action)s is cancelled and "
                        "%(name)s loses an influence."), name=p.name, action=action(t.action))
    must = None
    if (ACTIONS[t.action].inverted and game.rules.embezzle_caught_loses_duke
            and p.hand is not None and DUKE in p.hand):
        must = DUKE
        game = say(game, N_("%(name)s was caught holding a %(card)s and must lose it by this "
                            "table's rules."), "E-35", name=p.name, card=card(DUKE))
    game = with_turn(game, open=None, losses=(*t.losses, Loss(p.name, "challenge", must)))
    return advance(refund(game, t, p.name), "end")


def refund(game: Game, t: Turn, name: str) -> Game:
    """A successfully challenged action returns its cost (E-4, E-15), unless the edition says no."""
    if not t.paid:
        return game
    if not game.rules.refund_on_successful_challenge:
        return say(game, NP_("By this edition's rules the %(cost)s coin paid is not refunded.",
                             "By this edition's rules the %(cost)s coins paid are not refunded."),
                   count="cost", cost=t.paid)
    game = with_coins(game, name, t.paid, treasury=-t.paid)
    return say(game, NP_("%(name)s gets the %(cost)s coin back.",
                         "%(name)s gets the %(cost)s coins back."), "E-15", "cost",
               name=name, cost=t.paid)


def block(game: Game, step: Step) -> Game:
    """Blocks come after the action's challenge is settled, one per action (E-9, E-11, E-23)."""
    t = turn_of(game)
    blocker, as_ = by(step), str(step.as_)
    spec = ACTIONS[t.action]
    if not spec.blockers:
        raise RuleError("unblockable", N_("%(action)s can't be blocked (E-24)."),
                        action=action(t.action))
    if not isinstance(t.open, BlockWindow):
        if isinstance(t.open, ChallengeWindow) and not t.open.on_block:
            raise RuleError("too_early", N_("Too early to block: the challenge window is still "
                                            "open (E-23)."))
        raise RuleError("no_block_now", N_("No block can be made now. %(waiting)s"),
                        waiting=waiting_text(game))
    if blocker not in blockers(game):
        raise cannot_block(game, t, blocker)
    check_card(game.rules, as_)
    allowed = block_characters(game.rules, t.action)
    if as_ not in allowed:
        raise RuleError("wrong_blocker_card", N_("A %(action)s is blocked by claiming "
                                                 "%(cards)s, not the %(card)s."),
                        action=action(t.action), card=card(as_),
                        cards=[card(c) for c in allowed])
    game = with_turn(game, block=Block(blocker, as_),
                     open=ChallengeWindow(blocker, as_, on_block=True),
                     tried_blockers=t.tried_blockers | {blocker})
    return say(game, N_("%(name)s claims the %(card)s to block the %(action)s."),
               name=blocker, card=card(as_), action=action(t.action))


def cannot_block(game: Game, t: Turn, blocker: str) -> RuleError:
    spec = ACTIONS[t.action]
    target = game.player(t.target) if t.target else None
    if (spec.blockers == "target" and not game.rules.anyone_may_block_targeted
            and blocker != t.target):
        return RuleError("only_target_blocks", N_("Only %(target)s, the target, can block this "
                                                  "%(action)s (E-9)."),
                         target=str(t.target), action=action(t.action))
    if spec.blockers == "target" and target is not None and target.out:
        return RuleError("target_out_no_block", N_("%(target)s is out, so nobody blocks this "
                                                   "%(action)s (E-3)."),
                         target=target.name, action=action(t.action))
    if blocker != t.actor and game.same_side(blocker, t.actor):
        return RuleError("same_side_block", N_("%(name)s is on %(actor)s's side and can't "
                                               "block them (E-34)."),
                         name=blocker, actor=t.actor)
    return RuleError("cannot_block", N_("%(name)s can't block now (E-1, E-11)."), name=blocker)


# --- losing, drawing, exchanging, examining ----------------------------------------------


def lose(game: Game, step: Step) -> Game:
    """Losses are resolved one at a time, in the order they arose (E-29, E-40)."""
    t = turn_of(game)
    loser = by(step)
    if not t.losses or t.losses[0].player != loser:
        raise RuleError("nothing_to_lose", N_("%(name)s has no influence to lose now. "
                                              "%(waiting)s"),
                        name=loser, waiting=waiting_text(game))
    head = t.losses[0]
    p = game.player(loser)
    which = check_card(game.rules, step.card)
    if p.hand is not None and which not in p.hand:
        raise RuleError("no_such_card", N_("%(name)s has no face-down %(card)s."), name=loser,
                        card=card(which))
    if p.hand is None and game.unseen[which] < 1:
        raise RuleError(CARD_ACCOUNTED_FOR, N_("%(name)s can't have a %(card)s: every copy is "
                                               "accounted for."), name=loser, card=card(which))
    if head.must and which != head.must:
        raise RuleError("must_lose", N_("By this table's rules %(name)s must lose the %(card)s "
                                        "(E-35)."), name=loser, card=card(head.must))
    game = with_turn(game, losses=t.losses[1:])
    return advance(turn_face_up(game, loser, which))


NAMED_CARDS = {
    "draw": (
        N_("%(name)s's hand is not tracked: record the draw without naming cards."),
        N_("Name the cards %(name)s drew."),
        NP_("%(name)s draws %(n)s card, not %(m)s.", "%(name)s draws %(n)s cards, not %(m)s."),
    ),
    "keep": (
        N_("%(name)s's hand is not tracked: record the exchange without naming cards."),
        N_("Name the cards %(name)s keeps."),
        NP_("%(name)s keeps %(n)s card, not %(m)s.", "%(name)s keeps %(n)s cards, not %(m)s."),
    ),
}


def named_cards(game: Game, p: Player, step: Step, count: int) -> tuple[str, ...] | None:
    """The `cards` of a draw or keep: named for a tracked hand, absent for an untracked one."""
    untracked, unnamed, wrong_count = NAMED_CARDS[step.do]
    if p.hand is None:
        if step.cards is not None:
            raise RuleError("untracked_cards", untracked, name=p.name)
        return None
    if step.cards is None:
        raise RuleError("name_cards", unnamed, name=p.name)
    named = tuple(check_card(game.rules, c) for c in step.cards)
    if len(named) != count:
        raise RuleError("card_count", wrong_count, count="n", name=p.name, n=count,
                        m=len(named))
    return named


def draw(game: Game, step: Step) -> Game:
    """A draw is recorded by its drawer; a replacement for a proof may come before or after
    the challenger's loss, the others in turn (FORMAT.md)."""
    t = turn_of(game)
    drawer = by(step)
    owed = next((d for d in t.draws if d.player == drawer), None)
    if owed is None or (owed is not t.draws[0] and (owed.reason != "proof" or owed.to_bottom)):
        raise RuleError("nothing_to_draw", N_("%(name)s has no card to draw now. %(waiting)s"),
                        name=drawer, waiting=waiting_text(game))
    p = game.player(drawer)
    cards = named_cards(game, p, step, owed.count)
    if cards is not None:
        check_draw(game, owed, cards)
    draws = tuple(d for d in t.draws if d is not owed)
    if owed.reason == "exchange":
        game = evolve(game, deck_size=game.deck_size - owed.count,
                      unseen=game.unseen.minus(cards or ()))
        game = with_turn(game, draws=draws, open=Exchange(cards or (), owed.count))
        return say(game, NP_("%(name)s draws %(n)s card from the court deck.",
                             "%(name)s draws %(n)s cards from the court deck."),
                   count="n", name=drawer, n=owed.count)
    if cards is not None and p.hand is not None:
        hand = list(p.hand)
        for c in owed.returned:
            hand.remove(c)
        game = with_player(game, drawer, hand=(*hand, *cards))
        game = evolve(game, unseen=game.unseen.plus(owed.returned).minus(cards))
    return advance(replaced(with_turn(game, draws=draws), owed))


def replaced(game: Game, owed: Draw) -> Game:
    """What the table is told of a replacement: said once, when it is made. The card shown to
    an Inquisitor is never named: only the examiner saw it."""
    name, n = owed.player, owed.count
    if owed.reason == "examine":
        return say(game, N_("%(name)s draws a new card; the shown card goes back into the court "
                            "deck."), "E-30", name=name)
    if owed.to_bottom:
        return say(game, NP_("%(name)s puts the shown card at the bottom of the court deck and "
                             "draws the top card.",
                             "%(name)s puts the %(n)s shown cards at the bottom of the court "
                             "deck and draws as many from the top."), count="n", name=name, n=n)
    if n == 1 and len(owed.returned) == 1:
        return say(game, N_("%(name)s shuffles the %(card)s back into the court deck and draws "
                            "a new card."), owed.rule, name=name, card=card(owed.returned[0]))
    return say(game, NP_("%(name)s shuffles the shown card back into the court deck and draws "
                         "a new card.",
                         "%(name)s shuffles the %(n)s shown cards into the court deck and draws "
                         "as many new ones."), owed.rule, "n", name=name, n=n)


def check_draw(game: Game, owed: Draw, cards: tuple[str, ...]) -> None:
    """The drawn cards must be ones the court deck can hold now (E-27)."""
    pool = game.unseen
    if owed.reason == "proof" and not owed.to_bottom:
        pool = pool.plus(owed.returned)  # shuffled in first: the same card may come back
    elif owed.to_bottom and game.deck_size < owed.count:
        pool = pool.plus(owed.returned)  # the deck held nothing else
    for c, n in Counter(cards).items():
        if pool[c] < n:
            raise RuleError(CARD_ACCOUNTED_FOR, N_("A %(card)s can't be in the court deck now: "
                                                   "every copy is accounted for."),
                            card=card(c))


def keep(game: Game, step: Step) -> Game:
    """Keep as many cards as were face down; return the rest (E-17, E-18, ambassador_max_swap)."""
    t = turn_of(game)
    actor = by(step)
    ex = t.open
    if not isinstance(ex, Exchange) or actor != t.actor:
        raise RuleError("no_exchange", N_("There is no exchange to finish now. %(waiting)s"),
                        waiting=waiting_text(game))
    p = game.player(actor)
    cards = named_cards(game, p, step, p.face_down)
    if cards is not None and p.hand is not None:
        offered = Counter(p.hand) + Counter(ex.drawn)
        if Counter(cards) - offered:
            raise RuleError("keep_offered", N_("%(name)s can only keep cards from their hand and "
                                               "the cards drawn."), name=actor)
        swapped = sum((Counter(cards) - Counter(p.hand)).values())
        if swapped > game.rules.ambassador_max_swap:
            raise RuleError("max_swap", NP_("By this table's rules %(name)s may take at most "
                                             "%(n)s drawn card into the hand.",
                                             "By this table's rules %(name)s may take at most "
                                             "%(n)s drawn cards into the hand."),
                            count="n", name=actor, n=game.rules.ambassador_max_swap)
        back = tuple((offered - Counter(cards)).elements())
        game = with_player(game, actor, hand=cards)
        game = evolve(game, unseen=game.unseen.plus(back))
    game = evolve(game, deck_size=game.deck_size + ex.count)
    game = say(game, NP_("%(name)s keeps %(n)s card and returns the rest to the court deck; "
                         "shuffle it.",
                         "%(name)s keeps %(n)s cards and returns the rest to the court deck; "
                         "shuffle it."),
               count="n", name=actor, n=p.face_down)
    return advance(with_turn(game, open=None), "end")


def examining(game: Game, stage: str) -> tuple[Turn, Examine] | None:
    t = turn_of(game)
    if isinstance(t.open, Examine) and t.open.stage == stage:
        return t, t.open
    return None


def show(game: Game, step: Step) -> Game:
    """The target shows one card to the Inquisitor alone (E-30, examine_shown_by)."""
    found = examining(game, "show")
    if found is None or step.by != found[1].shown_by:
        raise RuleError("nothing_to_show", N_("There is no card to show now. %(waiting)s"),
                        waiting=waiting_text(game))
    t, ex = found
    target = game.player(str(t.target))
    shown = None
    if target.hand is None:
        if step.card is not None:
            raise RuleError("untracked_show", N_("%(name)s's hand is not tracked: record the card "
                                                 "shown without naming it."), name=target.name)
    else:
        if step.card is None:
            raise RuleError("name_shown", N_("Name the card %(name)s shows."), name=target.name)
        shown = check_card(game.rules, step.card)
        if shown not in target.hand:
            raise RuleError("no_such_card", N_("%(name)s has no face-down %(card)s."),
                            name=target.name, card=card(shown))
    game = with_turn(game, open=evolve(ex, stage="decide", shown=shown))
    return say(game, N_("%(target)s shows one card to %(name)s, who alone sees it."),
               "E-30" if game.rules.examine_shown_by == "examiner" else None,
               target=target.name, name=t.actor)


def deciding(game: Game, step: Step) -> tuple[Turn, Examine]:
    found = examining(game, "decide")
    if found is None or step.by != found[0].actor:
        raise RuleError("nothing_to_decide", N_("There is no examined card to decide on now. "
                                                "%(waiting)s"), waiting=waiting_text(game))
    return found


def swap(game: Game, step: Step) -> Game:
    """Force a new card: the target draws first, then the shown card goes back (E-30)."""
    t, ex = deciding(game, step)
    if game.deck_size == 0:
        raise RuleError("empty_deck", N_("The court deck is empty: there is nothing to swap "
                                         "with."))
    target = str(t.target)
    game = say(game, N_("%(name)s makes %(target)s replace the shown card: %(target)s draws a "
                        "new card, then the shown card goes back into the court deck."),
               name=t.actor, target=target)
    owed = Draw(target, 1, "examine", (ex.shown,) if ex.shown else (), to_bottom=True)
    return advance(with_turn(game, open=None, draws=(*t.draws, owed)), "end")


def return_(game: Game, step: Step) -> Game:
    t, _ = deciding(game, step)
    if game.rules.examine_swap == "mandatory" and game.deck_size > 0:
        raise RuleError("swap_mandatory", N_("In this edition the shown card is always replaced "
                                             "(E-30)."))
    game = say(game, N_("%(name)s hands the card back to %(target)s."), name=t.actor,
               target=str(t.target))
    return advance(with_turn(game, open=None), "end")


HANDLERS: dict[str, Handler] = {
    "pass": pass_,
    "challenge": challenge,
    "prove": prove,
    "concede": concede,
    "block": block,
    "lose": lose,
    "draw": draw,
    "keep": keep,
    "show": show,
    "swap": swap,
    "return": return_,
}
assert set(HANDLERS) | set(ACTIONS) == set(STEPS), "every step kind has its handler"
