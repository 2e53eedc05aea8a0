"""What the moment allows: the turn under way, and a refusal that says whom the table waits for."""

from __future__ import annotations

from .errors import RuleError
from .rulings import N_
from .state import Game, Step
from .turn import Turn
from .waiting import waiting as waiting_text


def turn_of(game: Game) -> Turn:
    if game.turn is None:
        raise RuleError(
            # TRANSLATORS: error. name: a player's name.
            "no_turn", N_("Nothing is under way: it is %(name)s’s turn to declare an action."),
            name=game.current)
    return game.turn


def not_now(game: Game) -> RuleError:
    # TRANSLATORS: error. waiting: a whole sentence saying whom the table waits for.
    return RuleError("not_now", N_("Not now: %(waiting)s"), waiting=waiting_text(game))


def by(step: Step) -> str:
    assert step.by is not None  # the table of step kinds requires it
    return step.by
