"""The rules of Coup as a pure engine: no Flask, no SQL, no clock, no randomness.

    game = new_game(setup)            # the top of a game record; a frozen Game
    game = apply(game, step)          # a record step; RuleError, and the game given is unchanged
    pending(game)                     # who may or must do what now
    table_view(game), seat_view(game, name)
    STEPS                             # the one table of step kinds
"""

from .errors import CARD_ACCOUNTED_FOR, TOO_MANY_COPIES, RuleError
from .legality import claim_of, claim_words
from .play import apply
from .policies import (
    Answers,
    Download,
    answers_of,
    blind_target,
    download,
    phone_may_take,
    phone_prompts,
    step_from_fields,
    tablet_may_take,
    undo_problem,
)
from .prompts import PRIVATE_KINDS, Prompt, pending
from .respond import only_passes_since
from .rules import PRESETS, Rules, parse_rules
from .rulings import ActionName, CardName, Ruling, render
from .setup import characters_in_play, new_game
from .state import Game, Step
from .steps import STEPS, StepKind, describe, parse_step
from .table import (
    MAX_NAME,
    SeatHand,
    check_hand,
    check_names,
    check_table,
    setup_from_seats,
)
from .views import seat_view, table_view
from .waiting import waiting

__all__ = [
    "only_passes_since",
    "CARD_ACCOUNTED_FOR",
    "MAX_NAME",
    "Answers",
    "Download",
    "answers_of",
    "blind_target",
    "check_names",
    "check_table",
    "download",
    "phone_may_take",
    "phone_prompts",
    "step_from_fields",
    "tablet_may_take",
    "undo_problem",
    "PRESETS",
    "PRIVATE_KINDS",
    "STEPS",
    "TOO_MANY_COPIES",
    "ActionName",
    "CardName",
    "Game",
    "Prompt",
    "RuleError",
    "Rules",
    "Ruling",
    "SeatHand",
    "Step",
    "StepKind",
    "apply",
    "characters_in_play",
    "check_hand",
    "claim_of",
    "claim_words",
    "describe",
    "new_game",
    "parse_rules",
    "parse_step",
    "pending",
    "render",
    "seat_view",
    "setup_from_seats",
    "table_view",
    "waiting",
]
