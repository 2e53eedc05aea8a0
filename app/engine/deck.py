"""Losing an influence and taking cards from the court deck: replacements, the exchange
(E-17, E-18, E-27, E-29)."""

from __future__ import annotations

from collections import Counter

from .errors import CARD_ACCOUNTED_FOR, RuleError
from .flow import advance, turn_face_up
from .now import by, turn_of
from .rulings import N_, NP_, card
from .setup import check_card
from .state import Game, Player, Step, evolve, with_player, with_ruling, with_turn
from .steps import handles
from .turn import Draw, Exchange
from .waiting import waiting as waiting_text


@handles("lose")
def lose(game: Game, step: Step) -> Game:
    """Losses are resolved one at a time, in the order they arose (E-29, E-40)."""
    t = turn_of(game)
    loser = by(step)
    if not t.losses or t.losses[0].player != loser:
        # TRANSLATORS: error. name: a player's name; waiting: a whole sentence saying whom the
        # table waits for.
        raise RuleError("nothing_to_lose", N_("%(name)s has no influence to lose now. "
                                              "%(waiting)s"),
                        name=loser, waiting=waiting_text(game))
    head = t.losses[0]
    p = game.player(loser)
    which = check_card(game.rules, step.card)
    if p.hand is not None and which not in p.hand:
        # TRANSLATORS: error. name: a player's name; card: a card name (nominative).
        raise RuleError("no_such_card", N_("%(name)s has no face-down %(card)s."), name=loser,
                        card=card(which))
    if p.hand is None and game.unseen[which] < 1:
        # TRANSLATORS: error. name: a player's name; card: a card name (nominative).
        raise RuleError(CARD_ACCOUNTED_FOR, N_("%(name)s can’t have a %(card)s: every copy is "
                                               "accounted for."), name=loser, card=card(which))
    if head.must and which != head.must:
        # TRANSLATORS: error. name: a player's name; card: a card name (nominative).
        raise RuleError("must_lose", N_("By this table’s rules %(name)s must lose the %(card)s "
                                        "(E-35)."), name=loser, card=card(head.must))
    game = with_turn(game, losses=t.losses[1:])
    return advance(turn_face_up(game, loser, which))


NAMED_CARDS = {
    "draw": (
        # TRANSLATORS: error. name: a player's name.
        N_("%(name)s’s hand is not tracked: record the draw without naming cards."),
        # TRANSLATORS: error. name: a player's name.
        N_("Name the cards %(name)s drew."),
        # TRANSLATORS: error. name: a player's name; n, m: numbers.
        NP_("%(name)s draws %(n)s card, not %(m)s.", "%(name)s draws %(n)s cards, not %(m)s."),
    ),
    "keep": (
        # TRANSLATORS: error. name: a player's name.
        N_("%(name)s’s hand is not tracked: record the exchange without naming cards."),
        # TRANSLATORS: error. name: a player's name.
        N_("Name the cards %(name)s keeps."),
        # TRANSLATORS: error. name: a player's name; n, m: numbers.
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


@handles("draw")
def draw(game: Game, step: Step) -> Game:
    """A draw is recorded by its drawer; a replacement for a proof may come before or after
    the challenger's loss, the others in turn (FORMAT.md)."""
    t = turn_of(game)
    drawer = by(step)
    owed = next((d for d in t.draws if d.player == drawer), None)
    if owed is None or (owed is not t.draws[0] and (owed.reason != "proof" or owed.to_bottom)):
        # TRANSLATORS: error. name: a player's name; waiting: a whole sentence saying whom the
        # table waits for.
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
        # TRANSLATORS: log. name: a player's name; n: a number.
        return with_ruling(game, NP_("%(name)s draws %(n)s card from the court deck.",
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
        return with_ruling(
            # TRANSLATORS: log. name: a player's name.
            game, N_("%(name)s draws a new card; the shown card goes back into the court "
                     "deck."), "E-30", name=name)
    if owed.to_bottom:
        return with_ruling(
            # TRANSLATORS: log. name: a player's name; n: a number.
            game, NP_("%(name)s puts the shown card at the bottom of the court deck and "
                      "draws the top card.",
                      "%(name)s puts the %(n)s shown cards at the bottom of the court "
                      "deck and draws as many from the top."), count="n", name=name, n=n)
    if n == 1 and len(owed.returned) == 1:
        return with_ruling(
            # TRANSLATORS: log. name: a player's name; card: a card name (nominative).
            game, N_("%(name)s shuffles the %(card)s back into the court deck and draws "
                     "a new card."), owed.rule, name=name, card=card(owed.returned[0]))
    return with_ruling(
        # TRANSLATORS: log. name: a player's name; n: a number.
        game, NP_("%(name)s shuffles the shown card back into the court deck and draws "
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
            # TRANSLATORS: error. card: a card name (nominative).
            raise RuleError(CARD_ACCOUNTED_FOR, N_("A %(card)s can’t be in the court deck now: "
                                                   "every copy is accounted for."),
                            card=card(c))


@handles("keep")
def keep(game: Game, step: Step) -> Game:
    """Keep as many cards as were face down; return the rest (E-17, E-18, ambassador_max_swap)."""
    t = turn_of(game)
    actor = by(step)
    ex = t.open
    if not isinstance(ex, Exchange) or actor != t.actor:
        # TRANSLATORS: error. waiting: a whole sentence saying whom the table waits for.
        raise RuleError("no_exchange", N_("There is no exchange to finish now. %(waiting)s"),
                        waiting=waiting_text(game))
    p = game.player(actor)
    cards = named_cards(game, p, step, p.face_down)
    if cards is not None and p.hand is not None:
        offered = Counter(p.hand) + Counter(ex.drawn)
        if Counter(cards) - offered:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("keep_offered", N_("%(name)s can only keep cards from their hand and "
                                               "the cards drawn."), name=actor)
        swapped = sum((Counter(cards) - Counter(p.hand)).values())
        if swapped > game.rules.ambassador_max_swap:
            # TRANSLATORS: error. name: a player's name; n: a number.
            raise RuleError("max_swap", NP_("By this table’s rules %(name)s may take at most "
                                             "%(n)s drawn card into the hand.",
                                             "By this table’s rules %(name)s may take at most "
                                             "%(n)s drawn cards into the hand."),
                            count="n", name=actor, n=game.rules.ambassador_max_swap)
        back = tuple((offered - Counter(cards)).elements())
        game = with_player(game, actor, hand=cards)
        game = evolve(game, unseen=game.unseen.plus(back))
    game = evolve(game, deck_size=game.deck_size + ex.count)
    game = with_ruling(
        # TRANSLATORS: log. name: a player's name; n: a number.
        game, NP_("%(name)s keeps %(n)s card and returns the rest to the court deck; "
                  "shuffle it.",
                  "%(name)s keeps %(n)s cards and returns the rest to the court deck; "
                  "shuffle it."),
        count="n", name=actor, n=p.face_down)
    return advance(with_turn(game, open=None), "end")
