"""A new game from a set-up (the top of a game record), with a clear reason for a bad one."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cards import (
    AMBASSADOR,
    CHARACTERS,
    FACTIONS,
    INQUISITOR,
    LOYALIST,
    REFORMIST,
    STARTING_COINS,
)
from .errors import RuleError
from .rules import Rules, default_copies, parse_rules
from .rulings import N_, NP_, card
from .state import Game, Player

SETUP_KEYS = (
    "rules",
    "players",
    "first",
    "hands",
    "revealed",
    "court_deck",
    "coins",
    "reserve",
    "factions",
)
MIN_PLAYERS, MAX_PLAYERS = 2, 10


def characters_in_play(rules: Rules) -> tuple[str, ...]:
    """The five characters in the deck: the Inquisitor replaces the Ambassador in its variant."""
    left_out = AMBASSADOR if rules.exchanger == INQUISITOR else INQUISITOR
    return tuple(c for c in CHARACTERS if c != left_out)


def check_card(rules: Rules, value: object) -> str:
    if value not in CHARACTERS:
        raise RuleError(N_("'%(card)s' is not a Coup character."), card=str(value))
    if value not in characters_in_play(rules):
        raise RuleError(
            N_("There is no %(card)s in this game's deck."), card=card(str(value))
        )
    return str(value)


def check_cards(rules: Rules, value: object, what: str) -> list[str]:
    if not isinstance(value, list):
        raise RuleError(N_("%(what)s must be a list of cards."), what=what)
    return [check_card(rules, v) for v in value]


def new_game(setup: dict[str, Any]) -> Game:
    """Validate a set-up and deal it. Raises RuleError naming the first problem found."""
    unknown = [k for k in setup if k not in SETUP_KEYS]
    if unknown:
        raise RuleError(N_("Unknown key '%(key)s'."), key=str(unknown[0]))
    rules = parse_rules(setup.get("rules"))
    names = check_players(setup.get("players"))
    n = len(names)
    first = setup.get("first", names[0])
    if first not in names:
        raise RuleError(N_("'first' must name a player; '%(name)s' is not one."), name=str(first))
    copies = rules.copies(n)
    if n > 6 and copies < default_copies(n):
        raise RuleError(
            NP_("%(n)s players need at least %(copies)s copy of each character.",
                "%(n)s players need at least %(copies)s copies of each character."),
            count="copies",
            n=n,
            copies=default_copies(n),
        )
    if rules.two_player_setup == "choose_hand" and n != 2:
        raise RuleError(N_("'choose_hand' set-up is only for two players."))
    if not rules.reformation:
        for key in ("reserve", "factions"):
            if key in setup:
                raise RuleError(N_("'%(key)s' is only for Reformation games."), key=key)

    hands = by_player(setup.get("hands"), names, "hands", required=True)
    revealed = by_player(setup.get("revealed", {}), names, "revealed", required=False)
    players: list[Player] = []
    for name in names:
        hand = None if hands[name] is None else check_cards(rules, hands[name], name)
        shown = check_cards(rules, revealed.get(name) or [], name)
        face_down = 2 - len(shown) if hand is None else len(hand)
        if len(shown) + face_down != 2:
            raise RuleError(
                N_("%(name)s must have two cards, face down and face up together."), name=name
            )
        if face_down < 1:
            raise RuleError(N_("%(name)s has no face-down card at the start."), name=name)
        players.append(Player(name, STARTING_COINS, hand, face_down, shown))

    full = Counter({c: copies for c in characters_in_play(rules)})
    known: Counter[str] = Counter()
    for p in players:
        known.update(p.hand or [])
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
        raise RuleError(N_("'court_deck' is only given with the 'choose_hand' set-up."))
    for c in CHARACTERS:
        if known[c] > full[c]:
            raise RuleError(
                N_("Too many %(card)s cards: the deck has %(copies)s."),
                card=card(c),
                copies=full[c],
            )
    if deck_size < 0:
        raise RuleError(N_("There are more cards in play than in the deck."))

    coins = setup.get("coins", {})
    if not isinstance(coins, dict):
        raise RuleError(N_("'coins' must map player names to coins."))
    for p in players:
        if n == 2 and p.name == first:
            p.coins = 1
    for name, value in coins.items():
        if name not in names:
            raise RuleError(N_("'%(name)s' in 'coins' is not a player."), name=str(name))
        if type(value) is not int or value < 0:
            raise RuleError(N_("%(name)s's coins must be a whole number, 0 or more."), name=name)
        next(p for p in players if p.name == name).coins = value
    reserve = setup.get("reserve", 0)
    if type(reserve) is not int or reserve < 0:
        raise RuleError(N_("'reserve' must be a whole number, 0 or more."))
    treasury = rules.coins_in_box - sum(p.coins for p in players) - reserve
    if treasury < 0:
        raise RuleError(
            N_("The players and the reserve hold more coins than the box has (%(box)s)."),
            box=rules.coins_in_box,
        )
    if rules.reformation:
        assign_factions(players, setup.get("factions"), first)

    return Game(
        rules=rules,
        players=players,
        treasury=treasury,
        reserve=reserve,
        deck_size=deck_size,
        unseen=unseen,
        current=first,
        setup={k: setup[k] for k in SETUP_KEYS if k in setup},
    )


def check_players(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RuleError(N_("'players' must be a list of names."))
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise RuleError(
            N_("A game has 2 to 10 players, not %(n)s."),
            n=len(value),
        )
    if len(set(value)) != len(value):
        raise RuleError(N_("Two players have the same name."))
    return list(value)


def by_player(value: object, names: list[str], key: str, required: bool) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RuleError(N_("'%(key)s' must map player names to cards."), key=key)
    for name in value:
        if name not in names:
            raise RuleError(
                N_("'%(name)s' in '%(key)s' is not a player."), name=str(name), key=key
            )
    if required:
        for name in names:
            if name not in value:
                raise RuleError(N_("No hand is given for %(name)s."), name=name)
    return value


def check_court_deck(rules: Rules, value: object, players: list[Player]) -> list[str]:
    court = check_cards(rules, value, "court_deck")
    if len(court) != 3 or len(set(court)) != 3:
        raise RuleError(N_("'court_deck' must hold three different characters."))
    missing = [c for c in characters_in_play(rules) if c not in court]
    for p in players:
        if p.hand is not None and not any(c in p.hand + p.revealed for c in missing):
            raise RuleError(
                N_("%(name)s's hand must hold one of the cards missing from the court deck."),
                name=p.name,
            )
    return court


def assign_factions(players: list[Player], given: object, first: str) -> None:
    if given is None:
        names = [p.name for p in players]
        start = names.index(first)
        for k in range(len(players)):
            p = players[(start + k) % len(players)]
            p.faction = LOYALIST if k % 2 == 0 else REFORMIST
        return
    if not isinstance(given, dict):
        raise RuleError(N_("'factions' must map every player to a faction."))
    for p in players:
        faction = given.get(p.name)
        if faction not in FACTIONS:
            raise RuleError(
                N_("%(name)s's faction must be 'loyalist' or 'reformist'."), name=p.name
            )
        p.faction = faction
    for name in given:
        if not any(p.name == name for p in players):
            raise RuleError(N_("'%(name)s' in 'factions' is not a player."), name=str(name))
