"""A new game from a set-up (the top of a game record), with a clear reason for a bad one; and
the set-up a table's seats make (the hands entered on phones, the seats with no phone)."""

from __future__ import annotations

import json
from collections import Counter
from types import MappingProxyType
from typing import Any

from .cards import (
    AMBASSADOR,
    CHARACTERS,
    FACTIONS,
    INQUISITOR,
    LOYALIST,
    REFORMIST,
    STARTING_COINS,
    Pool,
)
from .errors import TOO_MANY_COPIES, RuleError
from .rules import Rules, parse_rules
from .rulings import N_, NP_, card
from .state import Game, Player

SETUP_KEYS = ("rules", "players", "first", "hands", "revealed", "court_deck", "coins", "reserve",
              "factions")
MIN_PLAYERS, MAX_PLAYERS = 2, 10


# The five characters in the deck, by the game's exchanger: the Inquisitor replaces the
# Ambassador in its variant.
IN_PLAY = {exchanger: tuple(c for c in CHARACTERS if c != left_out)
           for exchanger, left_out in ((AMBASSADOR, INQUISITOR), (INQUISITOR, AMBASSADOR))}


def characters_in_play(rules: Rules) -> tuple[str, ...]:
    """The five characters in this game's deck."""
    return IN_PLAY[rules.exchanger]


def all_face_up(game: Game) -> list[str]:
    """The characters every copy of which is face up: public knowledge, so a screen may grey
    them out for a hand without a phone without telling anything about hidden cards."""
    copies = game.rules.copies(len(game.players))
    shown = Counter(c for p in game.players for c in p.revealed)
    return [c for c in characters_in_play(game.rules) if shown[c] >= copies]


def check_card(rules: Rules, value: object) -> str:
    if value not in CHARACTERS:
        raise RuleError("unknown_card",
                        # TRANSLATORS: error. card: what was written instead of a card; known:
                        # the record format's card names, in English, joined with commas.
                        N_("‘%(card)s’ is not a Coup character: cards are written in lower "
                           "case, one of %(known)s."),
                        card=str(value), known=", ".join(CHARACTERS))
    if value not in characters_in_play(rules):
        # TRANSLATORS: error. card: a card name (nominative).
        raise RuleError("card_not_in_game", N_("There is no %(card)s in this game’s deck."),
                        card=card(str(value)))
    return str(value)


def check_cards(rules: Rules, value: object, whose: str) -> list[str]:
    if not isinstance(value, list):
        # TRANSLATORS: error. name: a player's name.
        raise RuleError("cards_not_list", N_("%(name)s’s cards must be a list of cards."),
                        name=whose)
    for v in value:
        if v not in CHARACTERS:
            raise RuleError("unknown_card_of",
                            # TRANSLATORS: error. name: a player's name; card: what was written
                            # instead of a card; known: the record format's card names, in
                            # English, joined with commas.
                            N_("%(name)s’s cards: ‘%(card)s’ is not a Coup character: cards are "
                               "written in lower case, one of %(known)s."),
                            name=whose, card=str(v), known=", ".join(CHARACTERS))
    return [check_card(rules, v) for v in value]


def new_game(setup: dict[str, Any]) -> Game:
    """Validate a set-up and deal it. Raises RuleError naming the first problem found."""
    unknown = [k for k in setup if k not in SETUP_KEYS]
    if unknown:
        # TRANSLATORS: error. key: a word of the record format, as written there.
        raise RuleError("unknown_key", N_("Unknown key ‘%(key)s’."), key=str(unknown[0]))
    rules = parse_rules(setup.get("rules"))
    names = check_players(setup.get("players"))
    first = setup.get("first", names[0])
    if first not in names:
        # TRANSLATORS: error. name: a player's name.
        raise RuleError("bad_first", N_("‘first’ must name a player; ‘%(name)s’ is not one."),
                        name=str(first))
    check_table_size(rules, len(names))
    players = deal(rules, names, setup)
    deck_size, unseen = court_deck(rules, players, setup)
    players, treasury, reserve = coins_at_start(rules, players, first, setup)
    if rules.reformation:
        players = assign_factions(players, setup.get("factions"), first)
    record = {k: setup[k] for k in SETUP_KEYS if k in setup}
    return Game(rules=rules, players=tuple(players), treasury=treasury, reserve=reserve,
                deck_size=deck_size, unseen=Pool.of(dict(unseen)), current=first,
                setup_json=json.dumps(record, ensure_ascii=False),
                seats=MappingProxyType({p.name: i for i, p in enumerate(players)}))


MORE_THAN_SIX_NEED = 4  # copies of each character with 7-10 players (FORMAT.md)


def check_table_size(rules: Rules, n: int) -> None:
    """7-10 players need at least four copies of each character; the default is four for 7-8
    and five for 9-10 (RULES.md §1.1), and any number that fits the hands is a house deck."""
    if n > 6 and rules.copies(n) < MORE_THAN_SIX_NEED:
        raise RuleError(
            "too_few_copies",
            # TRANSLATORS: error. n, copies: numbers.
            NP_("%(n)s players need at least %(copies)s copy of each character.",
                "%(n)s players need at least %(copies)s copies of each character."),
            count="copies", n=n, copies=MORE_THAN_SIX_NEED)
    if rules.two_player_setup == "choose_hand" and n != 2:
        raise RuleError("choose_hand_players",
                        N_("‘choose_hand’ set-up is only for two players."))


def deal(rules: Rules, names: list[str], setup: dict[str, Any]) -> list[Player]:
    if not rules.reformation:
        for key in ("reserve", "factions"):
            if key in setup:
                raise RuleError("reformation_only",
                                # TRANSLATORS: error. key: a word of the record format, as written
                                # there.
                                N_("‘%(key)s’ is only for Reformation games."), key=key)
    hands = by_player(setup.get("hands"), names, "hands", required=True)
    revealed = by_player(setup.get("revealed", {}), names, "revealed", required=False)
    players: list[Player] = []
    for name in names:
        hand = None if hands[name] is None else check_cards(rules, hands[name], name)
        shown = check_cards(rules, revealed.get(name) or [], name)
        face_down = 2 - len(shown) if hand is None else len(hand)
        if len(shown) + face_down != 2:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("two_cards", N_("%(name)s must have two cards, face down and face up "
                                            "together."), name=name)
        if face_down < 1:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("no_face_down", N_("%(name)s has no face-down card at the start."),
                            name=name)
        players.append(Player(name, STARTING_COINS, None if hand is None else tuple(hand),
                              face_down, tuple(shown)))
    return players


def court_deck(rules: Rules, players: list[Player], setup: dict[str, Any]
               ) -> tuple[int, Counter[str]]:
    """The court deck's size, and the cards that may be unseen (in it or in untracked hands)."""
    copies = rules.copies(len(players))
    full = Counter({c: copies for c in characters_in_play(rules)})
    known: Counter[str] = Counter()
    for p in players:
        known.update(p.hand or ())
        known.update(p.revealed)
    deck_size = sum(full.values()) - sum(p.face_down + len(p.revealed) for p in players)
    unseen = full - known
    if rules.two_player_setup == "choose_hand":
        court = check_court_deck(rules, setup.get("court_deck"), players)
        known.update(court)
        deck_size = len(court)
        if all(p.tracked for p in players):
            unseen = Counter(court)
    elif "court_deck" in setup:
        raise RuleError("court_deck_only_choose_hand",
                        N_("‘court_deck’ is only given with the ‘choose_hand’ set-up."))
    for c in CHARACTERS:
        if known[c] > full[c]:
            # TRANSLATORS: error. card: a card name (nominative); copies: a number.
            raise RuleError(TOO_MANY_COPIES, N_("Too many %(card)s cards: the deck has "
                                                "%(copies)s."), card=card(c), copies=full[c])
    if deck_size < 0:
        raise RuleError("too_many_cards", N_("There are more cards in play than in the deck."))
    return deck_size, unseen


def coins_at_start(rules: Rules, players: list[Player], first: str, setup: dict[str, Any]
                   ) -> tuple[list[Player], int, int]:
    """Two each; with two players the first player has one (§1.1); or the record's coins."""
    coins = setup.get("coins", {})
    if not isinstance(coins, dict):
        raise RuleError("coins_not_map", N_("‘coins’ must map player names to coins."))
    names = [p.name for p in players]
    for name, value in coins.items():
        if name not in names:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("coins_not_player", N_("‘%(name)s’ in ‘coins’ is not a player."),
                            name=str(name))
        if type(value) is not int or value < 0:
            # TRANSLATORS: error. name: a player's name.
            raise RuleError("bad_coins", N_("%(name)s’s coins must be a whole number, 0 or "
                                            "more."), name=name)
    two = len(players) == 2
    start = [Player(p.name, coins.get(p.name, 1 if two and p.name == first else p.coins),
                    p.hand, p.face_down, p.revealed) for p in players]
    reserve = setup.get("reserve", 0)
    if type(reserve) is not int or reserve < 0:
        raise RuleError("bad_reserve", N_("‘reserve’ must be a whole number, 0 or more."))
    treasury = rules.coins_in_box - sum(p.coins for p in start) - reserve
    if treasury < 0:
        # TRANSLATORS: error. box: a number of coins.
        raise RuleError("too_many_coins", N_("The players and the Treasury Reserve hold more "
                                             "coins than the box has (%(box)s)."),
                        box=rules.coins_in_box)
    return start, treasury, reserve


def check_players(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RuleError("bad_players", N_("‘players’ must be a list of names."))
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        # TRANSLATORS: error. n: a number.
        raise RuleError("player_count", N_("A game has 2 to 10 players, not %(n)s."),
                        n=len(value))
    if len(set(value)) != len(value):
        raise RuleError("same_name", N_("Two players have the same name."))
    return list(value)


def by_player(value: object, names: list[str], key: str, required: bool) -> dict[str, Any]:
    if not isinstance(value, dict):
        # TRANSLATORS: error. key: a word of the record format, as written there.
        raise RuleError("not_by_player", N_("‘%(key)s’ must map player names to cards."),
                        key=key)
    for name in value:
        if name not in names:
            # TRANSLATORS: error. name: a player's name; key: a word of the record format, as
            # written there.
            raise RuleError("not_a_player", N_("‘%(name)s’ in ‘%(key)s’ is not a player."),
                            name=str(name), key=key)
    if required:
        for name in names:
            if name not in value:
                # TRANSLATORS: error. name: a player's name.
                raise RuleError("no_hand", N_("No hand is given for %(name)s."), name=name)
    return value


def check_court_deck(rules: Rules, value: object, players: list[Player]) -> list[str]:
    if not isinstance(value, list):
        raise RuleError("bad_court_deck", N_("‘court_deck’ must hold three different "
                                             "characters."))
    court = [check_card(rules, c) for c in value]
    if len(court) != 3 or len(set(court)) != 3:
        raise RuleError("bad_court_deck", N_("‘court_deck’ must hold three different "
                                             "characters."))
    missing = [c for c in characters_in_play(rules) if c not in court]
    for p in players:
        if p.hand is not None and not any(c in (*p.hand, *p.revealed) for c in missing):
            raise RuleError("hand_not_dealt",
                            # TRANSLATORS: error. name: a player's name.
                            N_("%(name)s’s hand must hold one of the cards missing from the "
                               "court deck."), name=p.name)
    if all(p.hand is not None for p in players) and not dealt_apart(players, missing):
        raise RuleError("dealt_apart", N_("The two cards missing from the court deck were dealt "
                                          "one to each player: each hand must hold a different "
                                          "one of them."))
    return court


def dealt_apart(players: list[Player], missing: list[str]) -> bool:
    """Whether the two characters missing from the court deck can be one in each hand."""
    first, second = ((*p.hand, *p.revealed) for p in players if p.hand is not None)
    return any(a in first and b in second for a, b in ((missing[0], missing[1]),
                                                       (missing[1], missing[0])))


def assign_factions(players: list[Player], given: object, first: str) -> list[Player]:
    """The first player is Loyalist, then sides alternate clockwise (§1.5), or as given."""
    names = [p.name for p in players]
    if given is None:
        start = names.index(first)
        sides = {names[(start + k) % len(names)]: LOYALIST if k % 2 == 0 else REFORMIST
                 for k in range(len(names))}
    else:
        if not isinstance(given, dict):
            raise RuleError("bad_factions", N_("‘factions’ must map every player to a faction."))
        for name in names:
            if given.get(name) not in FACTIONS:
                # TRANSLATORS: error. name: a player's name.
                raise RuleError("bad_faction", N_("%(name)s’s faction must be ‘loyalist’ or "
                                                  "‘reformist’."), name=name)
        for name in given:
            if name not in names:
                raise RuleError("faction_not_player",
                                # TRANSLATORS: error. name: a player's name.
                                N_("‘%(name)s’ in ‘factions’ is not a player."), name=str(name))
        sides = dict(given)
    return [Player(p.name, p.coins, p.hand, p.face_down, p.revealed, sides[p.name])
            for p in players]
