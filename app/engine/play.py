"""`apply(game, step)`: one handler per kind of step (steps.py), each refusing before anything
changes and returning the next game. The game given is never changed.

Steps are those of a game record (FORMAT.md): the same vocabulary serves the record files,
the web forms and the tests. The handlers live by the rulebook's sections: declare.py,
respond.py, claims.py (proving or conceding), deck.py (losing, drawing, exchanging),
examine.py; each registers itself against its row of the table of step kinds (@handles).
"""

from __future__ import annotations

from typing import Any

from . import claims, deck, declare, examine, respond  # noqa: F401 (they register handlers)
from .errors import RuleError
from .rulings import N_
from .state import Game, Step, with_step
from .steps import HANDLERS, STEPS, parse_step

assert set(HANDLERS) == set(STEPS), "every step kind has its handler"


def apply(game: Game, data: dict[str, Any] | Step) -> Game:
    """The game after the step, or RuleError (the game given is never changed)."""
    step = data if isinstance(data, Step) else parse_step(data)
    if game.winner is not None:
        # TRANSLATORS: error. name: a player's name.
        raise RuleError("game_over", N_("The game is over: %(name)s won."),
                        name=str(game.winner))
    if step.by is not None:
        seat = game.seats.get(step.by)
        if seat is None:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("no_such_player", N_("There is no player named ‘%(name)s’."),
                            name=step.by)
        if game.players[seat].out:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("player_out", N_("%(name)s is out of the game."), name=step.by)
    return with_step(HANDLERS[step.do](game, step), step)  # the step is part of the record
