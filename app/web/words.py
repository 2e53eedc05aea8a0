"""Words on screen: rulings and errors in the reader's language with the table's names and
words (app/i18n.py's Voice); each rule setting's explanation is in app/web/setting_words.py.
No card or action name is written into a sentence here: each
comes from the table's box through a ``%(...)s`` slot.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from babel.dates import format_time

from app.engine import RuleError, Ruling, describe, parse_rules, parse_step
from app.engine.rulings import N_, NP_
from app.i18n import Voice
from app.web import i18n
from app.web.refusals import Refusal, Why
from app.web.state import TableState


def table_voice(table: TableState | None) -> Voice:
    """The request's language with this table's box (no table: the language's usual box)."""
    if table is None:
        return i18n.voice()
    return i18n.voice(table.edition, parse_rules(dict(table.rules)).exchanger)


def sentence(text: str | tuple[str, str], params: Mapping[str, object],
             table: TableState | None = None, count: str | None = None) -> str:
    """A ruling or an error template, translated, with the table's names and words."""
    return table_voice(table).say(text, params, count)


def rule_error(error: RuleError, voice: Voice) -> str:
    return voice.say(error.text, error.params, error.count)


REFUSALS = {
    Why.ACTED_FIRST: N_("Someone acted first; here is the table as it is now."),
    Why.MOVED_ON: N_("The table moved on before your tap; here it is as it is now."),
    Why.NOT_TIMED_OUT: N_("Nothing was decided by the clock: no countdown that lets it stand "
                          "has run out."),
    Why.NOT_STARTED: N_("The game has not started yet."),
    Why.NOTHING_TO_UNDO: N_("There is nothing to undo in this game."),
    Why.CLOSED: N_("The record of this game was downloaded, so the game is closed: it can’t be "
                   "undone."),
    Why.TIMELINE_CLOSED: N_("The timeline of this game was opened, so the game is closed: it "
                            "can’t be undone."),
    Why.HAND_LOCKED: N_("The game has started; your hand can’t change now."),
    Why.SEATS_LOCKED: N_("Seats can only change between games."),
    Why.UNDER_WAY: N_("The game is already under way."),
    # TRANSLATORS: error; names: the players' names, joined with commas.
    Why.WAITING_FOR_HANDS: N_("Still waiting for the hands of: %(names)s."),
    Why.NO_WINNER_YET: N_("A new game can start once this one has a winner."),
    Why.NO_GAME_YET: N_("No game has been played at this table yet."),
    Why.RECORD_AFTER_GAME: N_("The record shows every hidden card, so it can be downloaded "
                              "once the game is over."),
    Why.NO_SUCH_SEAT: N_("There is no such seat."),
    Why.SEAT_GONE: N_("There is nothing here. The link may be old: ask the referee for a new "
                      "one."),
    Why.NOT_YOUR_SEAT: N_("This seat is already open on another phone. If that phone is lost "
                          "or broken, ask the referee for a new link."),
    Why.NOT_OPENED: N_("Open your seat’s link first."),
    Why.ON_TABLET: N_("This seat is now played on the tablet: the referee taps its steps "
                      "there."),
    Why.NO_SUCH_LANGUAGE: N_("That language is not available."),
    # TRANSLATORS: error (the start page). at: a time of day on the laptop's clock ("18:42").
    Why.TOO_MANY_TABLES: N_("This device has made as many new tables in the last hour as one "
                            "device may. Open one of them (the start page lists them under "
                            "“Tables on this tablet”), or make a new one after %(at)s."),
    Why.TOO_MANY_LOBBIES: N_("The laptop holds as many tables waiting to start as it keeps. "
                             "Start a game at one of them, or try again in an hour: tables "
                             "where no game started and nothing changed for an hour then make "
                             "room."),
    # TRANSLATORS: error (game night's settings). max: a number.
    Why.BAD_TARGET: N_("The target must be a number of wins from 1 to %(max)s, or empty."),
    # TRANSLATORS: error (game night's settings). min, max: numbers.
    Why.BAD_TIMER: N_("The timer must be from %(min)s to %(max)s seconds, or empty (off)."),
    # TRANSLATORS: error (the players' page). name: a player's name.
    Why.NO_SUCH_PLAYER: N_("There is no player %(name)s."),
    # TRANSLATORS: error (the players' page). name: a player's name.
    Why.NAME_TAKEN: N_("%(name)s is already a player: merge the two instead."),
    Why.SAME_PLAYER: N_("Choose two different players to merge."),
    # TRANSLATORS: error (the players' page). name, other: players' names.
    Why.PLAYED_TOGETHER: N_("%(name)s and %(other)s played in the same game, so they are two "
                            "players: they can’t be merged."),
}


# The engine's errors about a player's own cards, said to that player on their own phone in
# the second person (keyed by the engine's English template; the values are the same).
TO_YOU: dict[str, str | tuple[str, str]] = {
    "%(name)s keeps %(n)s card, not %(m)s.": (
        # TRANSLATORS: error, on the player's own phone. n, m: numbers.
        NP_("Keep %(n)s card, not %(m)s.", "Keep %(n)s cards, not %(m)s.")),
    "%(name)s draws %(n)s card, not %(m)s.": (
        # TRANSLATORS: error, on the player's own phone. n, m: numbers.
        NP_("Enter %(n)s card drawn, not %(m)s.", "Enter %(n)s cards drawn, not %(m)s.")),
    # TRANSLATORS: error, on the player's own phone.
    "%(name)s can only keep cards from their hand and the cards drawn.": N_(
        "You can only keep cards from your hand and the cards drawn."),
    "By this table’s rules %(name)s may take at most %(n)s drawn card into the hand.": (
        # TRANSLATORS: error, on the player's own phone. n: a number.
        NP_("By this table’s rules you may take at most %(n)s drawn card into your hand.",
            "By this table’s rules you may take at most %(n)s drawn cards into your hand.")),
    # TRANSLATORS: error, on the player's own phone. card: a card name (nominative).
    "%(name)s can’t have a %(card)s: every copy is accounted for.": N_(
        "You can’t have a %(card)s: every copy is accounted for."),
}


def refusal(refused: Refusal, table: TableState | None, you: str | None = None) -> str:
    """Why a request was refused, in the reader's language; to ``you`` (a phone's player) in
    the second person where the error is about their own cards."""
    voice = table_voice(table)
    error = refused.error
    if error is not None:
        english = error.text if isinstance(error.text, str) else error.text[0]
        if you is not None and error.params.get("name") == you and english in TO_YOU:
            return voice.say(TO_YOU[english], error.params, error.count)
        return rule_error(error, voice)
    params = refused.params
    again = params.get("again")
    if isinstance(again, datetime):  # a moment: said as a time of day on the laptop's clock
        params = {**params, "at": clock_time(again, voice.language)}
    return voice.say(REFUSALS[refused.why], params)


def clock_time(moment: datetime, language: str) -> str:
    """``moment`` as a time of day on the laptop's clock, as ``language`` writes one ("6:42 PM",
    "18:42"); rounded up to the minute, so "after 18:42" is never a minute early."""
    local = moment.astimezone()
    if local.second or local.microsecond:
        local = local.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return format_time(local, "short", locale=language.replace("-", "_"))


# What a prompt's consequence lines say, on the phone of the player they name (``name``): in
# the second person (keyed by the engine's English template, app/engine/prompts.py; the values
# and the rule tag are the same). The tablet keeps the engine's third person.
YOURS: dict[str, str] = {
    "If %(claimant)s shows a hand with no %(card)s, %(name)s loses an influence.": (
        # TRANSLATORS: what a challenge risks, on the challenger's own phone. claimant: a player's
        # name; card: a card name (nominative).
        N_("If %(claimant)s shows a hand with no %(card)s, you lose an influence.")),
    "If %(claimant)s shows the %(card)s, %(name)s loses an influence, and the %(action)s still "
    "goes ahead unless %(name)s blocks it.": (
        # TRANSLATORS: what a challenge risks, on the challenger's own phone. claimant: a player's
        # name; card: a card name (nominative); action: an action name.
        N_("If %(claimant)s shows the %(card)s, you lose an influence, and the %(action)s "
           "still goes ahead unless you block it.")),
    "If %(claimant)s shows the %(card)s, %(name)s loses an influence, and the %(action)s then "
    "takes another: by this table’s rules %(name)s may not block it.": (
        # TRANSLATORS: what a challenge risks, on the challenger's own phone. claimant: a player's
        # name; card: a card name (nominative); action: an action name.
        N_("If %(claimant)s shows the %(card)s, you lose an influence, and the %(action)s "
           "then takes another: by this table’s rules you may not block it.")),
    "If %(claimant)s shows the %(card)s, %(name)s loses an influence.": (
        # TRANSLATORS: what a challenge risks, on the challenger's own phone. claimant: a player's
        # name; card: a card name (nominative).
        N_("If %(claimant)s shows the %(card)s, you lose an influence.")),
    "Show every face-down card, none of them a %(card)s: %(challenger)s loses an influence and "
    "%(name)s draws new cards.": (
        # TRANSLATORS: what proving does, on the challenged player's own phone. card: a card name
        # (nominative); challenger: a player's name.
        N_("Show every face-down card, none of them a %(card)s: %(challenger)s loses an "
           "influence and you draw new cards.")),
    "Show the %(card)s: %(challenger)s loses an influence and %(name)s draws a new card.": (
        # TRANSLATORS: what proving does, on the challenged player's own phone. card: a card name
        # (nominative); challenger: a player's name.
        N_("Show the %(card)s: %(challenger)s loses an influence and you draw a new card.")),
    "Concede: %(name)s loses the last influence and is out; the %(action)s is cancelled.": (
        # TRANSLATORS: what conceding costs, on the challenged player's own phone. action: an action
        # name.
        N_("Concede: you lose your last influence and are out; the %(action)s is cancelled.")),
    "Concede: %(name)s loses an influence and the %(action)s is cancelled.": (
        # TRANSLATORS: what conceding costs, on the challenged player's own phone. action: an action
        # name.
        N_("Concede: you lose an influence and the %(action)s is cancelled.")),
    "Concede: %(name)s loses the last influence and is out.": (
        # TRANSLATORS: what conceding costs, on the challenged player's own phone.
        N_("Concede: you lose your last influence and are out.")),
    "Concede: %(name)s loses an influence, then the %(action)s takes the other one: %(name)s "
    "is out.": (
        # TRANSLATORS: what conceding costs, on the challenged player's own phone. action: an action
        # name.
        N_("Concede: you lose an influence, then the %(action)s takes the other one: you are "
           "out.")),
    "Concede: %(name)s loses the last influence and is out; the %(action)s goes ahead.": (
        # TRANSLATORS: what conceding costs, on the challenged player's own phone. action: an action
        # name.
        N_("Concede: you lose your last influence and are out; the %(action)s goes ahead.")),
    "Concede: %(name)s loses an influence and the %(action)s goes ahead.": (
        # TRANSLATORS: what conceding costs, on the challenged player's own phone. action: an action
        # name.
        N_("Concede: you lose an influence and the %(action)s goes ahead.")),
}


def to_you(r: Ruling, you: str) -> Ruling:
    """A prompt's line as ``you`` read it on their own phone: in the second person when it
    names them as ``name`` and has a second-person wording (YOURS); else the line itself."""
    english = r.text if isinstance(r.text, str) else r.text[0]
    if r.params.get("name") == you and english in YOURS:
        return Ruling(YOURS[english], r.params, r.rule, r.count)
    return r


# Each language named in itself, so anyone can find their own.
LANGUAGE_TITLES = {"en": "English", "ru": "Русский", "uk": "Українська",
                   "pt-BR": "Português (Brasil)", "ja": "日本語"}


# A quotation inside a quotation takes the inner marks of its style: «… „…“ …» in Russian and
# Ukrainian, “… ‘…’ …” in English and Portuguese, 「…『…』…」 in Japanese. Keyed by the marks,
# not by the language: a sentence's own marks say which style it is written in.
INNER_QUOTES = str.maketrans({"«": "„", "»": "“", "“": "‘", "”": "’", "「": "『", "」": "』"})


def quoted_within(text: str) -> str:
    """``text`` as it reads quoted inside another sentence: the quotations in it take the
    inner marks (the undo's question quotes a ruling that quotes a card's name, «Боря
    показывает карту „Губернатор“», never «… «Губернатор» …»)."""
    return text.translate(INNER_QUOTES)


def describe_step(step: Mapping[str, object], voice: Voice) -> str:
    """A step in a few public words, for the log of undone steps (never a hidden card): the
    engine's words for each kind of step (its table of step kinds)."""
    return voice.ruling(describe(parse_step(dict(step))))
