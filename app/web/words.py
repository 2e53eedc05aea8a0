"""Words on screen: rulings and errors in the reader's language, names in the table's edition,
and a one-line explanation of every rule setting (for the set-up form and the rules summary).
"""

from __future__ import annotations

from collections.abc import Mapping
from gettext import NullTranslations
from typing import Any

from flask import g
from flask_babel import get_translations, lazy_gettext

from app.engine import CardName, RuleError, Ruling, describe, parse_step, render
from app.engine.rulings import ActionName
from app.web.names import edition, namer
from app.web.refusals import Refusal, Why


def _translations() -> NullTranslations:
    """This request's catalog, looked up once: Flask-Babel's lookup costs more than a ruling."""
    if "translations" not in g:
        g.translations = get_translations()
    translations: NullTranslations = g.translations
    return translations


def _template(text: str) -> str:
    """The translated template itself: Flask-Babel's gettext would fill it in already."""
    return _translations().gettext(text)


def _plural_template(singular: str, plural: str, n: int) -> str:
    return _translations().ngettext(singular, plural, n)


def sentence(text: str | tuple[str, str], params: Mapping[str, object],
             edition_key: str | None, count: str | None = None) -> str:
    """A ruling or an error template, translated, with names from the edition."""
    return render(text, params, namer(edition_key), _template, count, _plural_template)


def ruling(r: Ruling, edition_key: str | None) -> str:
    return sentence(r.text, r.params, edition_key, r.count)


def rule_error(error: RuleError, edition_key: str | None) -> str:
    return sentence(error.text, error.params, edition_key, error.count)


REFUSALS = {
    Why.ACTED_FIRST: lazy_gettext("Someone acted first; here is the table as it is now."),
    Why.MOVED_ON: lazy_gettext("The table moved on before your tap; here it is as it is now."),
    Why.NOT_STARTED: lazy_gettext("The game has not started yet."),
    Why.NOTHING_TO_UNDO: lazy_gettext("There is nothing to undo in this game."),
    Why.CLOSED: lazy_gettext("The record of this game was downloaded, so the game is closed: "
                             "it can't be undone."),
    Why.HAND_LOCKED: lazy_gettext("The game has started; your hand can't change now."),
    Why.SEATS_LOCKED: lazy_gettext("Seats can only change between games."),
    Why.UNDER_WAY: lazy_gettext("The game is already under way."),
    Why.WAITING_FOR_HANDS: lazy_gettext("Still waiting for the hands of: %(names)s."),
    Why.NO_WINNER_YET: lazy_gettext("A new game can start once this one has a winner."),
    Why.NO_GAME_YET: lazy_gettext("No game has been played at this table yet."),
    Why.RECORD_AFTER_GAME: lazy_gettext("The record shows every hidden card, so it can be "
                                        "downloaded once the game is over."),
    Why.NO_SUCH_SEAT: lazy_gettext("There is no such seat."),
    Why.SEAT_GONE: lazy_gettext("There is nothing here. The link may be old: ask the referee "
                                "for a new one."),
    Why.NOT_YOUR_SEAT: lazy_gettext("This seat is already open on another phone. If that phone "
                                    "is lost or broken, ask the referee for a new link."),
    Why.NOT_OPENED: lazy_gettext("Open your seat's link first."),
    Why.NO_SUCH_LANGUAGE: lazy_gettext("That language is not available."),
    Why.TOO_MANY_TABLES: lazy_gettext("This device made many tables in the last few minutes. "
                                      "Use one of them, or try again in ten minutes."),
    Why.TOO_MANY_LOBBIES: lazy_gettext("The laptop holds as many tables waiting to start as it "
                                       "keeps. Start a game at one of them, or try again "
                                       "tomorrow: a table where no game started goes after a "
                                       "day."),
}


def refusal(refused: Refusal, edition_key: str | None) -> str:
    """Why a request was refused, in the reader's language."""
    if refused.error is not None:
        return rule_error(refused.error, edition_key)
    text = str(REFUSALS[refused.why])
    return text % dict(refused.params) if refused.params else text


def card_name(key: str, edition_key: str | None) -> str:
    return namer(edition_key)(CardName(key))


def action_name(key: str, edition_key: str | None) -> str:
    return namer(edition_key)(ActionName(key))


def faction_name(key: str | None, edition_key: str | None) -> str:
    return edition(edition_key).factions.get(key or "", key or "")


# One line per setting: what it changes. Values are listed with their own short labels.
SETTINGS: dict[str, tuple[Any, dict[Any, Any]]] = {
    "exchanger": (
        lazy_gettext("Which character exchanges cards: the Ambassador (draw 2) or the "
                     "Inquisitor (draw 1, or examine another player's card)."),
        {"ambassador": lazy_gettext("Ambassador"), "inquisitor": lazy_gettext("Inquisitor")},
    ),
    "reformation": (
        lazy_gettext("Reformation: two sides, Convert, Embezzle and the Treasury Reserve."),
        {False: lazy_gettext("off"), True: lazy_gettext("on")},
    ),
    "refund_on_successful_challenge": (
        lazy_gettext("A caught bluff gets its coins back (the Assassin's 3)."),
        {True: lazy_gettext("refunded"), False: lazy_gettext("kept by the treasury")},
    ),
    "proof_replacement": (
        lazy_gettext("When a player who proved a claim replaces the card shown."),
        {"shuffle_now": lazy_gettext("shuffle it in and draw at once"),
         "bottom_at_end_of_turn": lazy_gettext("bottom of the deck, draw at the end of the turn")},
    ),
    "target_who_challenged_may_block": (
        lazy_gettext("A target who lost a challenge against the action may still block it."),
        {True: lazy_gettext("may block"), False: lazy_gettext("may not block")},
    ),
    "steal_from_zero": (
        lazy_gettext("Whether a player with no coins can be the target of a Steal."),
        {"forbid": lazy_gettext("not allowed"), "allow": lazy_gettext("allowed, takes nothing")},
    ),
    "reblock_foreign_aid": (
        lazy_gettext("After a failed block of Foreign Aid, another player may block it."),
        {False: lazy_gettext("one block only"), True: lazy_gettext("others may block")},
    ),
    "elimination_coin_return": (
        lazy_gettext("When an eliminated player's coins go back to the treasury."),
        {"end_of_turn": lazy_gettext("at the end of the turn"),
         "immediate": lazy_gettext("at once")},
    ),
    "ambassador_max_swap": (
        lazy_gettext("How many drawn cards an exchange may take into the hand."),
        {2: lazy_gettext("up to 2"), 1: lazy_gettext("at most 1")},
    ),
    "examine_shown_by": (
        lazy_gettext("Who picks the card shown to the Inquisitor."),
        {"target": lazy_gettext("the target"), "examiner": lazy_gettext("the Inquisitor, blind")},
    ),
    "examine_swap": (
        lazy_gettext("Whether the Inquisitor may hand the shown card back."),
        {"optional": lazy_gettext("Inquisitor's choice"),
         "mandatory": lazy_gettext("always replaced")},
    ),
    "embezzle_caught_loses_duke": (
        lazy_gettext("A player caught embezzling while holding a Duke must lose that Duke."),
        {False: lazy_gettext("loser picks"), True: lazy_gettext("must lose the Duke")},
    ),
    "anyone_may_block_targeted": (
        lazy_gettext("Anyone, not only the target, may block a Steal or an Assassinate."),
        {False: lazy_gettext("target only"), True: lazy_gettext("anyone")},
    ),
    "two_player_setup": (
        lazy_gettext("Two players: deal two cards each, or each chooses one card from a set "
                     "of five."),
        {"deal": lazy_gettext("deal"), "choose_hand": lazy_gettext("choose a hand")},
    ),
    "coins_in_box": (
        lazy_gettext("Coins in the box: the treasury can't pay out more than it holds."),
        {},
    ),
}

PRESET_TITLES: dict[str, Any] = {
    "official": lazy_gettext("Official rules"),
    "la_mame_ru_2015": lazy_gettext("La Mame, Russian 2015"),
    "mosigra_ru": lazy_gettext("Mosigra, Russian"),
    "ua_steampunk": lazy_gettext("Ukrainian steampunk"),
    "bga": lazy_gettext("Board Game Arena"),
}

# Each language named in itself, so anyone can find their own.
LANGUAGE_TITLES = {"en": "English", "ru": "Русский", "uk": "Українська", "pt": "Português",
                   "ja": "日本語"}


def describe_step(step: Mapping[str, object], edition_key: str | None) -> str:
    """A step in a few public words, for the log of undone steps (never a hidden card): the
    engine's words for each kind of step (its table of step kinds)."""
    return ruling(describe(parse_step(dict(step))), edition_key)
