"""The Inquisitor's Examine: a card shown to the examiner alone, then swapped or handed back
(E-30)."""

from __future__ import annotations

from .errors import RuleError
from .flow import advance
from .now import turn_of
from .rulings import N_, card
from .setup import check_card
from .state import Game, Step, evolve, with_ruling, with_turn
from .steps import handles
from .turn import Draw, Examine, Turn
from .waiting import waiting as waiting_text


def examining(game: Game, stage: str) -> tuple[Turn, Examine] | None:
    t = turn_of(game)
    if isinstance(t.open, Examine) and t.open.stage == stage:
        return t, t.open
    return None


@handles("show")
def show(game: Game, step: Step) -> Game:
    """The target shows one card to the Inquisitor alone (E-30, examine_shown_by)."""
    found = examining(game, "show")
    if found is None or step.by != found[1].shown_by:
        # TRANSLATORS: error. waiting: a whole sentence saying whom the table waits for.
        raise RuleError("nothing_to_show", N_("There is no card to show now. %(waiting)s"),
                        waiting=waiting_text(game))
    t, ex = found
    target = game.player(str(t.target))
    shown = None
    if target.hand is None:
        if step.card is not None:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("untracked_show", N_("%(name)s’s hand is not tracked: record the card "
                                                 "shown without naming it."), name=target.name)
    else:
        if step.card is None:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("name_shown", N_("Name the card %(name)s shows."), name=target.name)
        shown = check_card(game.rules, step.card)
        if shown not in target.hand:
            # TRANSLATORS: error. name: a player's name; card: a card name (nominative).
            raise RuleError("no_such_card", N_("%(name)s has no face-down %(card)s."),
                            name=target.name, card=card(shown))
    game = with_turn(game, open=evolve(ex, stage="decide", shown=shown))
    # TRANSLATORS: log. target, name: players' names.
    return with_ruling(game, N_("%(target)s shows one card to %(name)s, who alone sees it."),
                       "E-30" if game.rules.examine_shown_by == "examiner" else None,
                       target=target.name, name=t.actor)


def deciding(game: Game, step: Step) -> tuple[Turn, Examine]:
    found = examining(game, "decide")
    if found is None or step.by != found[0].actor:
        # TRANSLATORS: error. waiting: a whole sentence saying whom the table waits for.
        raise RuleError("nothing_to_decide", N_("There is no examined card to decide on now. "
                                                "%(waiting)s"), waiting=waiting_text(game))
    return found


@handles("swap")
def swap(game: Game, step: Step) -> Game:
    """Force a new card: the target draws first, then the shown card goes back (E-30)."""
    t, ex = deciding(game, step)
    if game.deck_size == 0:
        raise RuleError("empty_deck", N_("The court deck is empty: there is nothing to swap "
                                         "with."))
    target = str(t.target)
    game = with_ruling(
        # TRANSLATORS: log. name, target: players' names.
        game, N_("%(name)s makes %(target)s replace the shown card: %(target)s draws a "
                 "new card, then the shown card goes back into the court deck."),
        name=t.actor, target=target)
    owed = Draw(target, 1, "examine", (ex.shown,) if ex.shown else (), to_bottom=True)
    return advance(with_turn(game, open=None, draws=(*t.draws, owed)), "end")


@handles("return")
def return_(game: Game, step: Step) -> Game:
    t, _ = deciding(game, step)
    if game.rules.examine_swap == "mandatory" and game.deck_size > 0:
        raise RuleError("swap_mandatory", N_("In this edition the shown card is always replaced "
                                             "(E-30)."))
    # TRANSLATORS: log. name, target: players' names.
    game = with_ruling(game, N_("%(name)s hands the card back to %(target)s."), name=t.actor,
                       target=str(t.target))
    return advance(with_turn(game, open=None), "end")
