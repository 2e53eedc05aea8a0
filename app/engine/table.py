"""A table before its game: the players' names and rule settings chosen at set-up, the hand
each phone enters, and the set-up the seats make when the referee starts the game."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import TOO_MANY_COPIES, RuleError
from .rules import Rules, parse_rules
from .rulings import N_, NP_, Names
from .setup import MAX_PLAYERS, MIN_PLAYERS, characters_in_play, check_table_size, new_game

MAX_NAME = 24  # letters in a player's name, once trimmed
HIDDEN = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})  # control, format, unassigned
# Letters of other scripts that look like Latin ones, folded before names are compared.
LOOK_ALIKES = str.maketrans("АВЕКМНОРСТХаеорсухіјѕԁӏ", "ABEKMHOPCTXaeopcyxijsdl")
SHOWN_NAME = 24  # a name quoted in a message is cut to this many letters


def check_names(names: Sequence[str]) -> None:
    """The players' names a table may have, typed on the set-up form or imported from a
    record: 2 to 10, each 1 to MAX_NAME letters once trimmed, made of characters a screen shows
    (no control or invisible formatting characters: a name is printed on every screen and in
    the command line's output), no two that look the same ("Ann" and "ANN", or a Latin "Ann"
    and one spelt with a Cyrillic "А", would be told apart by nobody at the table)."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError("player_count",
                        N_("Enter 2 to 10 player names, one per line, in seat order."))
    seen: dict[str, str] = {}
    for name in names:
        trimmed = check_name(name)
        key = look_alike(trimmed)
        if key in seen:
            # TRANSLATORS: error. first, second: a name as typed.
            raise RuleError("same_name", N_("%(first)s and %(second)s are the same name; add an "
                                            "initial to tell them apart"),
                            first=seen[key], second=trimmed)
        seen[key] = trimmed


def check_name(name: str) -> str:
    """One player's name, trimmed: 1 to MAX_NAME letters of characters a screen shows (the
    set-up form's, an import's, and a rename's rule). Raises RuleError."""
    trimmed = name.strip()
    if not trimmed:
        raise RuleError("empty_name", N_("a player’s name is empty"))
    shown = trimmed if len(trimmed) <= SHOWN_NAME else trimmed[:SHOWN_NAME] + "…"
    if len(trimmed) > MAX_NAME:
        # TRANSLATORS: error. name: a player's name; n: a number.
        raise RuleError("long_name", N_("the name %(name)s is longer than %(n)s characters"),
                        name=shown, n=MAX_NAME)
    if any(unicodedata.category(c) in HIDDEN for c in trimmed):
        raise RuleError("hidden_characters",
                        # TRANSLATORS: error. name: a player's name, odd characters written
                        # as \u escapes.
                        N_("the name %(name)s holds characters no screen can show"),
                        name=printable(shown))
    return trimmed


def look_alike(name: str) -> str:
    """A name as the eye reads it: composed, case-folded, with look-alike letters folded."""
    return unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES).casefold()


def printable(text: str, keep: str = "") -> str:
    """Text with its control and invisible characters (but those in `keep`) written as
    escapes, to quote or print safely."""
    if text.isprintable() or all(c.isprintable() or c in keep for c in text):
        return text
    return "".join(c if c in keep or unicodedata.category(c) not in HIDDEN
                   else f"\\u{ord(c):04x}" for c in text)


def check_table(rules: object, names: Sequence[str]) -> Rules:
    """A new table's names and rule settings (FORMAT.md `rules`), before any hand is dealt."""
    check_names(names)
    parsed = parse_rules(rules)
    if parsed.two_player_setup == "choose_hand" and len(names) != 2:
        raise RuleError("choose_hand_players",
                        N_("Choosing hands from sets of five is for two players only."))
    check_table_size(parsed, len(names))
    return parsed


# --- a table's seats ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatHand:
    """What a seat brings to the start: its player, whether a phone tracks the hand, and the
    hand that phone entered (None until it does)."""

    name: str
    tracked: bool
    hand: tuple[str, ...] | None = None


def check_hand(rules: Rules, players: int, cards: Sequence[str]) -> None:
    """A hand entered on a phone: two cards of this game's deck, no more copies of one than the
    deck has. Only what its owner can see for themselves is checked: the copies across all the
    hands are checked at the start, without naming anyone (`setup_from_seats`)."""
    in_play = characters_in_play(rules)
    if len(cards) != 2 or any(c not in in_play for c in cards):
        raise RuleError("choose_two", N_("Choose the two cards you were dealt."))
    copies = rules.copies(players)
    if max(Counter(cards).values()) > copies:
        # TRANSLATORS: error. n: a number.
        raise RuleError("hand_copies", NP_("The deck has only %(n)s copy of each card.",
                                           "The deck has only %(n)s copies of each card."),
                        count="n", n=copies)


def setup_from_seats(settings: Mapping[str, Any], seats: Sequence[SeatHand]) -> dict[str, Any]:
    """The record's set-up from a table's seats, checked as `new_game` checks it.

    With hands chosen from sets of five (two players), each phone entered the card it kept,
    then the card dealt from the shared set: the court deck is the shared set less those two
    dealt cards (FORMAT.md `court_deck`), so both players need a phone. When the hands
    together hold more copies than the deck has, the refusal names nobody: saying whose hand
    is wrong would tell the table a hidden card."""
    rules = parse_rules(settings.get("rules"))
    missing = [s.name for s in seats if s.tracked and not s.hand]
    if missing:
        # TRANSLATORS: error. names: players' names joined with commas.
        raise RuleError("hands_missing", N_("Still waiting for the hands of: %(names)s."),
                        names=Names(missing))
    setup: dict[str, Any] = {
        "players": [s.name for s in seats],
        "first": settings.get("first", seats[0].name),
        "hands": {s.name: list(s.hand) if s.tracked and s.hand else None for s in seats},
    }
    if settings.get("rules"):
        setup["rules"] = settings["rules"]
    if rules.two_player_setup == "choose_hand":
        if not all(s.tracked for s in seats):
            raise RuleError("choose_hand_phones", N_(
                "With hands chosen from sets of five, both players need a phone: the court "
                "deck is worked out from the cards dealt to them."))
        dealt = [s.hand[1] for s in seats if s.hand]
        if len(set(dealt)) != len(dealt):
            raise RuleError("choose_hand_dealt", N_(
                "The two cards dealt from the shared set must be different characters: ask "
                "both players to check their second card."))
        setup["court_deck"] = [c for c in characters_in_play(rules) if c not in dealt]
    try:
        new_game(setup)
    except RuleError as e:
        if e.code == TOO_MANY_COPIES:
            raise RuleError("hands_too_many_copies", N_(
                "The hands entered hold more copies of a card than the deck has: someone "
                "entered a wrong card. Ask everyone to check their hand.")) from None
        raise
    return setup
