"""Rule settings: the official rules by default, edition presets, house toggles.

Keys and presets are those of `coup-record/1` (FORMAT.md) and RULES.md §1.6.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .errors import RuleError
from .rulings import N_


@dataclass(frozen=True)
class Rules:
    exchanger: str = "ambassador"
    reformation: bool = False
    copies_per_character: int | None = None  # None: 3, 4 or 5 by player count
    coins_in_box: int = 50
    two_player_setup: str = "deal"
    refund_on_successful_challenge: bool = True
    proof_replacement: str = "shuffle_now"
    target_who_challenged_may_block: bool = True
    steal_from_zero: str = "forbid"
    reblock_foreign_aid: bool = False
    elimination_coin_return: str = "end_of_turn"
    ambassador_max_swap: int = 2
    examine_shown_by: str = "target"
    examine_swap: str = "optional"
    embezzle_caught_loses_duke: bool = False
    anyone_may_block_targeted: bool = False

    def copies(self, players: int) -> int:
        if self.copies_per_character is not None:
            return self.copies_per_character
        return default_copies(players)


def default_copies(players: int) -> int:
    return 5 if players >= 9 else 4 if players >= 7 else 3


CHOICES: dict[str, tuple[Any, ...]] = {
    "exchanger": ("ambassador", "inquisitor"),
    "reformation": (False, True),
    "two_player_setup": ("deal", "choose_hand"),
    "refund_on_successful_challenge": (True, False),
    "proof_replacement": ("shuffle_now", "bottom_at_end_of_turn"),
    "target_who_challenged_may_block": (True, False),
    "steal_from_zero": ("forbid", "allow"),
    "reblock_foreign_aid": (False, True),
    "elimination_coin_return": ("end_of_turn", "immediate"),
    "ambassador_max_swap": (2, 1),
    "examine_shown_by": ("target", "examiner"),
    "examine_swap": ("optional", "mandatory"),
    "embezzle_caught_loses_duke": (False, True),
    "anyone_may_block_targeted": (False, True),
}

PRESETS: dict[str, dict[str, Any]] = {
    "official": {},
    "la_mame_ru_2015": {
        "refund_on_successful_challenge": False,
        "proof_replacement": "bottom_at_end_of_turn",
        "examine_swap": "mandatory",
    },
    "mosigra_ru": {"examine_swap": "mandatory"},
    "ua_steampunk": {"coins_in_box": 30},
    "bga": {"examine_shown_by": "examiner", "embezzle_caught_loses_duke": True},
}

KEYS = tuple(f.name for f in fields(Rules))


def parse_rules(data: object) -> Rules:
    """Rules from a record's `rules` object: a preset first, then the keys given beside it."""
    if data is None:
        return Rules()
    if not isinstance(data, dict):
        raise RuleError("rules_not_object", N_("‘rules’ must be an object of settings."))
    settings = dict(data)
    preset = settings.pop("preset", "official")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RuleError(
            "unknown_preset",
            # TRANSLATORS: error. preset: a word of the record format; known: the record format's
            # names, in English, joined with commas.
            N_("Unknown preset ‘%(preset)s’; known presets: %(known)s."),
            preset=str(preset),
            known=", ".join(PRESETS),
        )
    values: dict[str, Any] = dict(PRESETS[preset])
    for key, value in settings.items():
        if key not in KEYS:
            # TRANSLATORS: error. key: a word of the record format, as written there.
            raise RuleError("unknown_setting", N_("Unknown rule setting ‘%(key)s’."),
                            key=str(key))
        values[key] = check_value(key, value)
    return Rules(**values)


def check_value(key: str, value: object) -> Any:
    if key == "copies_per_character":
        if type(value) is not int or value < 1:
            raise RuleError("bad_copies", N_("‘copies_per_character’ must be a whole number of "
                                             "at least 1."))
        return value
    if key == "coins_in_box":
        if type(value) is not int or value < 0:
            raise RuleError("bad_coins_in_box", N_("‘coins_in_box’ must be a whole number of at "
                                                   "least 0."))
        return value
    allowed = CHOICES[key]
    # bool is an int in Python: compare types too, so `true` is not taken for 1.
    if not any(value == a and type(value) is type(a) for a in allowed):
        raise RuleError(
            "bad_setting",
            # TRANSLATORS: error. key: a word of the record format, as written there; allowed: the
            # record format's values, in English, joined with commas.
            N_("‘%(key)s’ must be one of %(allowed)s."),
            key=key,
            allowed=", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed),
        )
    return value
