"""`apply(game, step)`: one handler per kind of step, each refusing before anything changes.

Steps are those of a game record (FORMAT.md): the same vocabulary serves the record files,
the web forms and the tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from .cards import ACTIONS, DUKE, FACTIONS
from .errors import RuleError
from .flow import close_window, open_window, say, settle, turn_face_up
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
from .state import Draw, Game, Loss, Player, Proof, Turn

Step = dict[str, Any]

KEYS: dict[str, set[str]] = {
    "challenge": {"by"},
    "block": {"by", "as"},
    "pass": {"by"},
    "prove": {"by"},
    "concede": {"by"},
    "lose": {"by", "card"},
    "draw": {"by", "cards"},
    "keep": {"by", "cards"},
    "show": {"by", "card"},
    "swap": {"by"},
    "return": {"by"},
}
REQUIRED: dict[str, set[str]] = {"block": {"by", "as"}, "lose": {"by", "card"}, "pass": set()}


def apply(game: Game, step: Step) -> Game:
    """The game after `step`, or RuleError with `game` untouched."""
    if not isinstance(step, dict):
        raise RuleError(N_("A step must be an object."))
    if game.over:
        raise RuleError(N_("The game is over: %(name)s won."), name=str(game.winner))
    do = step.get("do")
    if not isinstance(do, str) or (do not in KEYS and do not in ACTIONS):
        raise RuleError(N_("Unknown step '%(do)s'."), do=str(do))
    allowed = {"target"} | {"by"} if do in ACTIONS else KEYS[do]
    for key in step:
        if key not in allowed and key != "do":
            raise RuleError(N_("A '%(do)s' step takes no '%(key)s'."), do=do, key=str(key))
    for key in REQUIRED.get(do, {"by"}):
        if key not in step:
            raise RuleError(N_("A '%(do)s' step needs '%(key)s'."), do=do, key=key)
    by = step.get("by")
    if "by" in step and not game.has(by):
        raise RuleError(N_("There is no player named '%(name)s'."), name=str(by))
    if by is not None and game.player(by).out:
        raise RuleError(N_("%(name)s is out of the game."), name=str(by))
    new = game.copy()
    HANDLERS.get(do, declare)(new, step)
    new.steps.append(dict(step))
    return new


def turn_of(game: Game) -> Turn:
    if game.turn is None:
        raise RuleError(
            N_("Nothing is under way: it is %(name)s's turn to declare an action."),
            name=game.current,
        )
    return game.turn


def not_now(game: Game) -> RuleError:
    return RuleError(N_("Not now: %(waiting)s"), waiting=waiting_text(game))


# --- declaring -------------------------------------------------------------------------


def declare(game: Game, step: Step) -> None:
    if game.turn is not None:
        raise not_now(game)
    actor, name, target = step["by"], step["do"], step.get("target")
    if actor != game.current:
        raise RuleError(
            N_("It is %(current)s's turn, not %(name)s's."), current=game.current, name=actor
        )
    problem = declaration_problem(game, actor, name, target)
    if problem:
        raise problem
    me = game.player(actor)
    cost = cost_of(name, actor, target)
    spec = ACTIONS[name]
    me.coins -= cost
    t = Turn(actor=actor, action=name, target=target, paid=cost)
    game.turn = t
    game.out_this_turn = []
    if name == "convert":
        game.reserve += cost
        them = game.player(str(target))
        them.faction = FACTIONS[1 - FACTIONS.index(str(them.faction))]
        say(game, NP_("%(name)s pays %(cost)s coin to the Treasury Reserve and converts "
                      "%(target)s to the %(faction)s side.",
                      "%(name)s pays %(cost)s coins to the Treasury Reserve and converts "
                      "%(target)s to the %(faction)s side."), "E-38", "cost",
            name=actor, cost=cost, target=them.name, faction=faction(str(them.faction)))
        t.then = "end"
    else:
        game.treasury += cost
        claim = resolve_character(game, spec.claim)
        say(game, announcement(name), count="cost", name=actor, target=target,
            action=action(name), card=card(claim or ""), cost=cost, duke=card(DUKE))
        if claim is not None:
            t.claimant, t.claim = actor, claim
            open_window(game, "challenge")
        elif spec.blockers:
            t.then = "after_claim"
        else:
            t.then = "resolve"
    settle(game)


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


def pass_(game: Game, step: Step) -> None:
    t = turn_of(game)
    if t.window is None:
        raise not_now(game)
    by = step.get("by")
    if by is None:
        say(game, N_("Nobody blocks.") if t.window == "block" else N_("Nobody challenges."))
        close_window(game)
        return
    still = blockers(game) if t.window == "block" else challengers(game)
    if by not in still:
        raise RuleError(N_("%(name)s has nothing to pass on now. %(waiting)s"),
                        name=by, waiting=waiting_text(game))
    t.passed.add(by)
    if not (blockers(game) if t.window == "block" else challengers(game)):
        close_window(game)


def challenge(game: Game, step: Step) -> None:
    """One challenge per claim: the first counts, a second is refused (E-10)."""
    t = turn_of(game)
    by = step["by"]
    if t.challenger is not None:
        raise RuleError(N_("%(name)s has already challenged; a claim is challenged only once "
                           "(E-10)."), name=t.challenger)
    if t.window not in ("challenge", "block_challenge"):
        raise RuleError(N_("There is no claim to challenge now. %(waiting)s"),
                        waiting=waiting_text(game))
    if by == t.claimant:
        raise RuleError(N_("%(name)s can't challenge their own claim."), name=by)
    if by in t.passed:
        raise RuleError(N_("%(name)s already let this claim stand."), name=by)
    inverted = not on_block(t) and ACTIONS[t.action].inverted
    t.challenger = by
    t.window = None
    t.passed = set()  # E-4: a pass binds only the window it was made in
    text = (N_("%(challenger)s challenges: %(claimant)s says they hold no %(card)s.")
            if inverted else N_("%(challenger)s challenges %(claimant)s's %(card)s."))
    say(game, text, challenger=by, claimant=t.claimant, card=card(str(t.claim)))


def on_block(t: Turn) -> bool:
    return t.blocker is not None and t.claimant == t.blocker


def answering(game: Game, step: Step) -> Turn:
    t = turn_of(game)
    if t.challenger is None:
        raise RuleError(N_("Nobody has challenged; there is nothing to prove or concede. "
                           "%(waiting)s"), waiting=waiting_text(game))
    if step["by"] != t.claimant:
        raise RuleError(N_("Only %(name)s, who was challenged, can prove or concede."),
                        name=str(t.claimant))
    return t


def prove(game: Game, step: Step) -> None:
    """Show the claimed card: the challenger loses one, the prover replaces it (E-13, E-27)."""
    t = answering(game, step)
    p = game.player(step["by"])
    claim = str(t.claim)
    inverted = ACTIONS[t.action].inverted and not on_block(t)
    if inverted:
        if p.hand is not None and claim in p.hand:
            raise RuleError(N_("%(name)s holds a %(card)s, so can only concede (E-35)."),
                            name=p.name, card=card(claim))
        shown = list(p.hand) if p.hand is not None else []
        count = p.face_down
    else:
        if p.hand is not None and claim not in p.hand:
            raise RuleError(N_("%(name)s has no %(card)s to show."), name=p.name, card=card(claim))
        if p.hand is None and game.unseen[claim] < 1:
            raise RuleError(N_("No %(card)s can be in %(name)s's hand: every copy is accounted "
                               "for."), name=p.name, card=card(claim))
        shown = [claim]
        count = 1
    challenger = str(t.challenger)
    bottom = game.rules.proof_replacement == "bottom_at_end_of_turn"
    if inverted:
        text = N_("%(name)s shows every face-down card and none is a %(card)s, so "
                  "%(challenger)s loses an influence.")
    else:
        text = N_("%(name)s shows the %(card)s, so %(challenger)s loses an influence.")
    say(game, text, name=p.name, card=card(claim), challenger=challenger)
    if bottom:
        say(game, N_("By this edition's rules, at the end of the turn %(name)s puts the shown "
                     "cards at the bottom of the court deck and draws as many from the top."),
            name=p.name)
        t.proofs.append(Proof(p.name, shown if p.hand is not None else [claim], count))
    else:
        if inverted:
            text = N_("%(name)s shuffles the shown cards into the court deck and draws as many "
                      "new ones.")
        else:
            text = N_("%(name)s shuffles the %(card)s back into the court deck and draws a new "
                      "card.")
        say(game, text, "E-13" if on_block(t) else None, name=p.name, card=card(claim))
        t.draws.append(Draw(p.name, count, "proof", shown))
    if not on_block(t) and challenger == t.target:
        t.target_lost_challenge = True
    t.losses.append(Loss(challenger, "block_challenge" if on_block(t) else "challenge"))
    t.then = "blocked" if on_block(t) else "after_claim"
    t.challenger = None
    settle(game)


def concede(game: Game, step: Step) -> None:
    """Not proving loses the challenge, even when holding the card (E-8). A caught Embezzle
    loses the card of the loser's choice, or the Duke with embezzle_caught_loses_duke (E-35)."""
    t = answering(game, step)
    p = game.player(step["by"])
    claim = str(t.claim)
    if on_block(t):
        say(game, N_("%(name)s does not show the %(card)s: the block fails and %(name)s loses an "
                     "influence."), name=p.name, card=card(claim))
        t.losses.append(Loss(p.name, "block_challenge"))
        t.then = "block_failed"
    else:
        say(game, N_("%(name)s does not prove the claim: the %(action)s is cancelled and %(name)s "
                     "loses an influence."), name=p.name, action=action(t.action))
        must = None
        if (ACTIONS[t.action].inverted and game.rules.embezzle_caught_loses_duke
                and p.hand is not None and DUKE in p.hand):
            must = DUKE
            say(game, N_("%(name)s was caught holding a %(card)s and must lose it "
                         "by this table's rules."), "E-35", name=p.name, card=card(DUKE))
        t.losses.append(Loss(p.name, "challenge", must))
        refund(game, t, p)
        t.then = "cancelled"
    t.challenger = None
    settle(game)


def refund(game: Game, t: Turn, p: Player) -> None:
    """A successfully challenged action returns its cost (E-4, E-15), unless the edition says no."""
    if not t.paid:
        return
    if game.rules.refund_on_successful_challenge:
        game.treasury -= t.paid
        p.coins += t.paid
        say(game, NP_("%(name)s gets the %(cost)s coin back.",
                      "%(name)s gets the %(cost)s coins back."), "E-15", "cost",
            name=p.name, cost=t.paid)
    else:
        say(game, NP_("By this edition's rules the %(cost)s coin paid is not refunded.",
                      "By this edition's rules the %(cost)s coins paid are not refunded."),
            count="cost", cost=t.paid)


def block(game: Game, step: Step) -> None:
    """Blocks come after the action's challenge is settled, one per action (E-9, E-11, E-23)."""
    t = turn_of(game)
    by, as_ = step["by"], step["as"]
    spec = ACTIONS[t.action]
    if not spec.blockers:
        raise RuleError(N_("%(action)s can't be blocked (E-24)."), action=action(t.action))
    if t.window != "block":
        if t.window == "challenge":
            raise RuleError(N_("Too early to block: the challenge window is still open (E-23)."))
        raise RuleError(N_("No block can be made now. %(waiting)s"), waiting=waiting_text(game))
    if by not in blockers(game):
        if spec.blockers == "target" and by != t.target:
            raise RuleError(N_("Only %(target)s, the target, can block this %(action)s (E-9)."),
                            target=str(t.target), action=action(t.action))
        if game.same_side(by, t.actor):
            raise RuleError(N_("%(name)s is on %(actor)s's side and can't block them (E-34)."),
                            name=by, actor=t.actor)
        raise RuleError(N_("%(name)s can't block now (E-1, E-11)."), name=by)
    check_card(game.rules, as_)
    allowed = block_characters(game, t.action)
    if as_ not in allowed:
        raise RuleError(N_("A %(action)s is blocked by claiming %(cards)s, not the %(card)s."),
                        action=action(t.action), card=card(as_),
                        cards=[card(c) for c in allowed])
    t.blocker, t.block_as = by, as_
    t.tried_blockers.add(by)
    t.claimant, t.claim = by, as_
    say(game, N_("%(name)s claims the %(card)s to block the %(action)s."),
        name=by, card=card(as_), action=action(t.action))
    open_window(game, "block_challenge")


# --- losing, drawing, exchanging, examining ----------------------------------------------


def lose(game: Game, step: Step) -> None:
    """Losses are resolved one at a time, in the order they arose (E-29, E-40)."""
    t = turn_of(game)
    by = step["by"]
    if not t.losses or t.losses[0].player != by:
        raise RuleError(N_("%(name)s has no influence to lose now. %(waiting)s"),
                        name=by, waiting=waiting_text(game))
    head = t.losses[0]
    p = game.player(by)
    which = check_card(game.rules, step["card"])
    if p.hand is not None and which not in p.hand:
        raise RuleError(N_("%(name)s has no face-down %(card)s."), name=by, card=card(which))
    if p.hand is None and game.unseen[which] < 1:
        raise RuleError(N_("%(name)s can't have a %(card)s: every copy is accounted for."),
                        name=by, card=card(which))
    if head.must and which != head.must:
        raise RuleError(N_("By this table's rules %(name)s must lose the %(card)s (E-35)."),
                        name=by, card=card(head.must))
    t.losses.pop(0)
    turn_face_up(game, p, which)
    settle(game)


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


def named_cards(game: Game, p: Player, step: Step, count: int, what: str) -> list[str] | None:
    """The `cards` of a draw or keep: named for a tracked hand, absent for an untracked one."""
    untracked, unnamed, wrong_count = NAMED_CARDS[what]
    if p.hand is None:
        if "cards" in step:
            raise RuleError(untracked, name=p.name)
        return None
    cards = step.get("cards")
    if not isinstance(cards, list):
        raise RuleError(unnamed, name=p.name)
    named = [check_card(game.rules, c) for c in cards]
    if len(named) != count:
        raise RuleError(wrong_count, count="n", name=p.name, n=count, m=len(named))
    return named


def take_from_deck(game: Game, cards: list[str], pool: Counter[str]) -> None:
    for c, n in Counter(cards).items():
        if pool[c] < n:
            raise RuleError(N_("A %(card)s can't be in the court deck now: every copy is "
                               "accounted for."), card=card(c))


def draw(game: Game, step: Step) -> None:
    t = turn_of(game)
    by = step["by"]
    owed = next((d for d in t.draws if d.player == by), None)
    if owed is None or (owed is not t.draws[0] and owed.reason != "proof"):
        raise RuleError(N_("%(name)s has no card to draw now. %(waiting)s"),
                        name=by, waiting=waiting_text(game))
    if owed.to_bottom and owed is not t.draws[0]:
        raise not_now(game)
    p = game.player(by)
    cards = named_cards(game, p, step, owed.count, "draw")
    if cards is not None:
        check_draw(game, owed, cards)
    t.draws.remove(owed)
    if owed.reason == "exchange":
        game.deck_size -= owed.count
        t.exchange_drawn = owed.count
        t.exchange_cards = cards or []
        if cards is not None:
            game.unseen.subtract(cards)
        say(game, NP_("%(name)s draws %(n)s card from the court deck.",
                      "%(name)s draws %(n)s cards from the court deck."),
            count="n", name=by, n=owed.count)
    else:
        if cards is not None and p.hand is not None:
            for c in owed.returned:
                p.hand.remove(c)
            game.unseen.update(owed.returned)
            game.unseen.subtract(cards)
            p.hand.extend(cards)
        say(game, NP_("%(name)s draws a new card from the court deck.",
                      "%(name)s draws %(n)s new cards from the court deck."),
            count="n", name=by, n=owed.count)
        if owed.reason == "examine":
            t.stage = None
            t.then = "end"
    settle(game)


def check_draw(game: Game, owed: Draw, cards: list[str]) -> None:
    pool = Counter(game.unseen)
    if owed.reason == "proof" and not owed.to_bottom:
        pool.update(owed.returned)  # shuffled in first: the same card may come back
    elif owed.to_bottom and game.deck_size < owed.count:
        pool.update(owed.returned)  # the deck held nothing else
    take_from_deck(game, cards, pool)


def keep(game: Game, step: Step) -> None:
    """Keep as many cards as were face down; return the rest (E-17, E-18, ambassador_max_swap)."""
    t = turn_of(game)
    by = step["by"]
    if t.stage != "keep" or t.draws or by != t.actor:
        raise RuleError(N_("There is no exchange to finish now. %(waiting)s"),
                        waiting=waiting_text(game))
    p = game.player(by)
    cards = named_cards(game, p, step, p.face_down, "keep")
    if cards is not None and p.hand is not None:
        offered = Counter(p.hand) + Counter(t.exchange_cards)
        if Counter(cards) - offered:
            raise RuleError(N_("%(name)s can only keep cards from their hand and the cards drawn."),
                            name=by)
        swapped = sum((Counter(cards) - Counter(p.hand)).values())
        if swapped > game.rules.ambassador_max_swap:
            raise RuleError(NP_("By this table's rules %(name)s may take at most %(n)s drawn "
                                "card into the hand.",
                                "By this table's rules %(name)s may take at most %(n)s drawn "
                                "cards into the hand."),
                            count="n", name=by, n=game.rules.ambassador_max_swap)
        back = offered - Counter(cards)
        game.unseen.update(back)
        p.hand = cards
    game.deck_size += t.exchange_drawn
    say(game, NP_("%(name)s keeps %(n)s card and returns the rest to the court deck; "
                  "shuffle it.",
                  "%(name)s keeps %(n)s cards and returns the rest to the court deck; "
                  "shuffle it."),
        count="n", name=by, n=p.face_down)
    t.exchange_cards, t.exchange_drawn, t.stage = [], 0, None
    t.then = "end"
    settle(game)


def show(game: Game, step: Step) -> None:
    """The target shows one card to the Inquisitor alone (E-30, examine_shown_by)."""
    t = turn_of(game)
    by = step["by"]
    if t.stage != "show" or by != t.shown_by:
        raise RuleError(N_("There is no card to show now. %(waiting)s"),
                        waiting=waiting_text(game))
    target = game.player(str(t.target))
    if target.hand is None:
        if "card" in step:
            raise RuleError(N_("%(name)s's hand is not tracked: record the card shown without "
                               "naming it."), name=target.name)
        t.shown = None
    else:
        if "card" not in step:
            raise RuleError(N_("Name the card %(name)s shows."), name=target.name)
        which = check_card(game.rules, step["card"])
        if which not in target.hand:
            raise RuleError(N_("%(name)s has no face-down %(card)s."), name=target.name,
                            card=card(which))
        t.shown = which
    t.stage = "decide"
    say(game, N_("%(target)s shows one card to %(name)s, who alone sees it."),
        "E-30" if game.rules.examine_shown_by == "examiner" else None,
        target=target.name, name=t.actor)


def deciding(game: Game, step: Step) -> Turn:
    t = turn_of(game)
    if t.stage != "decide" or step["by"] != t.actor:
        raise RuleError(N_("There is no examined card to decide on now. %(waiting)s"),
                        waiting=waiting_text(game))
    return t


def swap(game: Game, step: Step) -> None:
    """Force a new card: the target draws first, then the shown card goes back (E-30)."""
    t = deciding(game, step)
    if game.deck_size == 0:
        raise RuleError(N_("The court deck is empty: there is nothing to swap with."))
    target = str(t.target)
    say(game, N_("%(name)s makes %(target)s replace the shown card: %(target)s draws a new card, "
                 "then the shown card goes back into the court deck."), name=t.actor, target=target)
    t.draws.append(Draw(target, 1, "examine", [t.shown] if t.shown else [], to_bottom=True))
    t.stage = "swap"


def return_(game: Game, step: Step) -> None:
    t = deciding(game, step)
    if game.rules.examine_swap == "mandatory" and game.deck_size > 0:
        raise RuleError(N_("In this edition the shown card is always replaced (E-30)."))
    say(game, N_("%(name)s hands the card back to %(target)s."), name=t.actor, target=str(t.target))
    t.stage, t.shown = None, None
    t.then = "end"
    settle(game)


HANDLERS: dict[str, Callable[[Game, Step], None]] = {
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
