"""The rules of Coup as a pure engine: no Flask, no SQL, no clock, no randomness.

    game = new_game(setup)            # the top of a game record
    game = apply(game, step)          # a record step; RuleError leaves `game` as it was
    pending(game)                     # who may or must do what now
    table_view(game), seat_view(game, name)
"""

from .errors import RuleError
from .pending import PRIVATE_KINDS, Prompt, pending, waiting
from .play import apply
from .rules import PRESETS, Rules, parse_rules
from .rulings import ActionName, CardName, Ruling, render
from .setup import characters_in_play, new_game
from .state import Game
from .views import seat_view, table_view

__all__ = [
    "PRESETS",
    "PRIVATE_KINDS",
    "ActionName",
    "CardName",
    "Game",
    "Prompt",
    "RuleError",
    "Rules",
    "Ruling",
    "apply",
    "characters_in_play",
    "new_game",
    "parse_rules",
    "pending",
    "render",
    "seat_view",
    "table_view",
    "waiting",
]
