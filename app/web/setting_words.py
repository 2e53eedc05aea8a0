"""A one-line explanation of every rule setting and a short label for each of its values (for
the set-up form and the rules summary), and the presets' titles, worded in the reader's
language. Names of cards and actions are values in ``%(...)s`` slots, so each table reads them
in its own box's words.
"""

from __future__ import annotations

from typing import Any

from app.engine import Ruling
from app.engine.rulings import N_, action, card
from app.i18n import Voice


def _r(text: str, **params: object) -> Ruling:
    return Ruling(text, params)


DUKE, INQUISITOR = card("duke"), card("inquisitor")
# One line per setting: what it changes, and each value's short label. Names of cards and
# actions are values, so each table reads them in its own box's words.
SETTINGS: dict[str, tuple[Ruling, dict[Any, Ruling]]] = {
    "exchanger": (
        # TRANSLATORS: a setting's explanation; ambassador, inquisitor: card names.
        _r(N_("Which character exchanges cards: the %(ambassador)s (draw 2) or the "
              "%(inquisitor)s (draw 1, or examine another player’s card)."),
           ambassador=card("ambassador"), inquisitor=INQUISITOR),
        {"ambassador": _r("%(card)s", card=card("ambassador")),
         "inquisitor": _r("%(card)s", card=INQUISITOR)},
    ),
    "reformation": (
        # TRANSLATORS: a setting's explanation; convert, embezzle: action names.
        _r(N_("Reformation: two sides, %(convert)s, %(embezzle)s and the Treasury Reserve."),
           convert=action("convert"), embezzle=action("embezzle")),
        {False: _r(N_("off")), True: _r(N_("on"))},
    ),
    "refund_on_successful_challenge": (
        # TRANSLATORS: a setting's explanation; assassinate: an action name.
        _r(N_("Whether a caught bluff gets its coins back (the 3 paid for the "
              "%(assassinate)s)."),
           assassinate=action("assassinate")),
        {True: _r(N_("refunded")), False: _r(N_("kept by the treasury"))},
    ),
    "proof_replacement": (
        _r(N_("When a player who proved a claim replaces the card shown.")),
        {"shuffle_now": _r(N_("shuffle it in and draw at once")),
         "bottom_at_end_of_turn": _r(N_("bottom of the deck, draw at the end of the turn"))},
    ),
    "target_who_challenged_may_block": (
        _r(N_("Whether a target who lost a challenge against the action may still block it.")),
        {True: _r(N_("may block")), False: _r(N_("may not block"))},
    ),
    "steal_from_zero": (
        # TRANSLATORS: a setting's explanation; steal: an action name.
        _r(N_("Whether a player with no coins can be the target of the %(steal)s."),
           steal=action("steal")),
        {"forbid": _r(N_("not allowed")), "allow": _r(N_("allowed, takes nothing"))},
    ),
    "reblock_foreign_aid": (
        # TRANSLATORS: a setting's explanation; aid: an action name.
        _r(N_("Whether another player may block the %(aid)s after a failed block."),
           aid=action("foreign_aid")),
        {False: _r(N_("one block only")), True: _r(N_("others may block"))},
    ),
    "elimination_coin_return": (
        _r(N_("When an eliminated player’s coins go back to the treasury.")),
        {"end_of_turn": _r(N_("at the end of the turn")), "immediate": _r(N_("at once"))},
    ),
    "ambassador_max_swap": (
        # TRANSLATORS: a setting's explanation; exchange: an action name.
        _r(N_("How many drawn cards the %(exchange)s may take into the hand."),
           exchange=action("exchange")),
        {2: _r(N_("up to 2")), 1: _r(N_("at most 1"))},
    ),
    "examine_shown_by": (
        # TRANSLATORS: a setting's explanation; inquisitor: a card name.
        _r(N_("Who picks the card shown to the %(inquisitor)s."), inquisitor=INQUISITOR),
        {"target": _r(N_("the target")),
         # TRANSLATORS: a setting's value; inquisitor: a card name.
         "examiner": _r(N_("the %(inquisitor)s, blind"), inquisitor=INQUISITOR)},
    ),
    "examine_swap": (
        # TRANSLATORS: a setting's explanation; inquisitor: a card name.
        _r(N_("Whether the %(inquisitor)s may hand the shown card back."),
           inquisitor=INQUISITOR),
        {"optional": _r(N_("may hand it back")), "mandatory": _r(N_("always replaced"))},
    ),
    "embezzle_caught_loses_duke": (
        # TRANSLATORS: a setting's explanation; duke: a card name; embezzle: an action name.
        _r(N_("Which card a player caught claiming the %(embezzle)s while holding the "
              "%(duke)s loses."), duke=DUKE, embezzle=action("embezzle")),
        {False: _r(N_("loser picks")),
         # TRANSLATORS: a setting's value; duke: a card name.
         True: _r(N_("must lose the %(duke)s"), duke=DUKE)},
    ),
    "anyone_may_block_targeted": (
        # TRANSLATORS: a setting's explanation; steal, assassinate: action names.
        _r(N_("Who may block the %(steal)s or the %(assassinate)s."),
           steal=action("steal"), assassinate=action("assassinate")),
        {False: _r(N_("target only")), True: _r(N_("anyone"))},
    ),
    "two_player_setup": (
        _r(N_("Two players: deal two cards each, or each chooses one card from a set of "
              "five.")),
        {"deal": _r(N_("deal")), "choose_hand": _r(N_("choose a hand"))},
    ),
    "coins_in_box": (
        _r(N_("Coins in the box: the treasury can’t pay out more than it holds.")),
        {},
    ),
}


def settings(voice: Voice) -> dict[str, tuple[str, dict[Any, str]]]:
    """Each setting's explanation and its values' labels, worded for this voice."""
    return {key: (voice.ruling(explanation), {v: voice.ruling(r) for v, r in labels.items()})
            for key, (explanation, labels) in SETTINGS.items()}


PRESET_TITLES = {
    "official": N_("Official rules"),
    "la_mame_ru_2015": N_("La Mame, Russian 2015"),
    "mosigra_ru": N_("Mosigra, Russian"),
    "ua_steampunk": N_("Ukrainian steampunk"),
    "bga": N_("Board Game Arena"),
}


def preset_titles(voice: Voice) -> dict[str, str]:
    return {key: voice.gettext(title) for key, title in PRESET_TITLES.items()}
