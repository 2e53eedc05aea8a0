"""Rules the referee's screens need that the engine does not offer yet: to move into the engine.

Pure functions over the engine's data: no Flask, no SQL, no clock. Each refusal is a
:class:`~app.engine.RuleError` with an English template marked ``N_``, as the engine's own, so
the web layer words it like any other ruling. What is here: the set-up form's checks, the hand a
phone enters, the set-up built from the seats (with the choose-hand deck arithmetic), who may
take a step, the examiner's blind pick, and when the record may be downloaded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Final

from app.engine import Game, Prompt, RuleError, characters_in_play, parse_rules, pending
from app.engine.cards import ACTIONS, EXCHANGER
from app.engine.play import KEYS
from app.engine.rules import Rules
from app.engine.rulings import N_, NP_

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
MAX_NAME: Final = 24

# Which prompt kinds a step named `do` answers.
ANSWERS: Final[Mapping[str, frozenset[str]]] = {
    "declare": frozenset(ACTIONS),
    "respond": frozenset({"challenge", "pass"}),
    "block": frozenset({"block", "pass"}),
    "answer": frozenset({"prove", "concede"}),
    "lose": frozenset({"lose"}),
    "draw": frozenset({"draw"}),
    "keep": frozenset({"keep"}),
    "show": frozenset({"show"}),
    "decide": frozenset({"swap", "return"}),
}


# -- a new table ----------------------------------------------------------------------------


def check_names(names: Sequence[str]) -> None:
    """The players' names as the set-up form gives them, in seat order."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(N_("Enter 2 to 10 player names, one per line, in seat order."))
    if len({n.casefold() for n in names}) != len(names):
        raise RuleError(N_("Two players have the same name; add an initial to tell them "
                           "apart."))
    if any(len(n) > MAX_NAME for n in names):
        raise RuleError(N_("Keep names to %(n)s letters."), n=MAX_NAME)


def check_rules(rules: Mapping[str, Any], players: int) -> Rules:
    """A table's rule settings (FORMAT.md ``rules``) for this many players."""
    parsed = parse_rules(dict(rules))
    if parsed.two_player_setup == "choose_hand" and players != 2:
        raise RuleError(N_("Choosing hands from sets of five is for two players only."))
    return parsed


# -- the lobby ------------------------------------------------------------------------------


def check_hand(rules: Rules, players: int, cards: Sequence[str]) -> None:
    """What a player can see is wrong with the two cards they enter. The copies across every
    hand are checked at the start (:func:`game_setup`), without naming anyone."""
    if len(cards) != 2 or any(c not in characters_in_play(rules) for c in cards):
        raise RuleError(N_("Choose the two cards you were dealt."))
    copies = rules.copies(players)
    if max(Counter(cards).values()) > copies:
        raise RuleError(NP_("The deck has only %(num)s copy of each card.",
                            "The deck has only %(num)s copies of each card."),
                        count="num", num=copies)


def game_setup(settings: Mapping[str, Any], seats: Sequence[tuple[str, Sequence[str] | None]]
               ) -> dict[str, Any]:
    """The record's set-up from the seats: (name, hand or None for no phone), in seat order.

    With hands chosen from sets of five, each phone entered the card it kept, then the card
    dealt from the shared set: the court deck is the shared set less those two dealt cards
    (FORMAT.md ``court_deck``). Raises RuleError when the seats can't start a game.
    """
    rules = parse_rules(dict(settings.get("rules") or {}))
    names = [name for name, _hand in seats]
    setup: dict[str, Any] = {
        "players": names,
        "first": settings.get("first") or names[0],
        "hands": {name: (list(hand) if hand is not None else None) for name, hand in seats},
    }
    if settings.get("rules"):
        setup["rules"] = dict(settings["rules"])
    if rules.two_player_setup == "choose_hand":
        setup["court_deck"] = _chosen_court_deck(rules, seats)
    _check_copies(rules, seats)
    return setup


def _chosen_court_deck(rules: Rules, seats: Sequence[tuple[str, Sequence[str] | None]]
                       ) -> list[str]:
    hands = [hand for _name, hand in seats]
    if any(hand is None for hand in hands):
        raise RuleError(N_("With hands chosen from sets of five, both players need a phone: "
                           "the court deck is worked out from the cards dealt to them."))
    dealt = [hand[1] for hand in hands if hand is not None]
    if len(set(dealt)) != len(dealt):
        raise RuleError(N_("The two cards dealt from the shared set must be different "
                           "characters: ask both players to check their second card."))
    return [c for c in characters_in_play(rules) if c not in dealt]


def _check_copies(rules: Rules, seats: Sequence[tuple[str, Sequence[str] | None]]) -> None:
    """Together the hands may not hold more copies than the deck has; nobody is named, since
    that would tell one phone about another's cards."""
    held = Counter(card for _name, hand in seats for card in (hand or ()))
    if held and max(held.values()) > rules.copies(len(seats)):
        raise RuleError(N_("The hands entered hold more copies of a card than the deck has: "
                           "someone entered a wrong card. Ask everyone to check their hand."))


# -- during a game --------------------------------------------------------------------------


def step_fields(do: str) -> frozenset[str] | None:
    """The form fields a step named ``do`` takes, or None for no such step."""
    if do in ACTIONS:
        return frozenset({"target"})
    if do in KEYS:
        return frozenset(KEYS[do]) - {"by"}
    return None


def step_from_fields(game: Game, by: str | None, fields: Mapping[str, str],
                     cards: Sequence[str]) -> dict[str, Any]:
    """A form's fields as a game-record step: only the fields the step takes are copied, and
    the engine judges the rest. ``by`` is the seat the step is for (None: the table's)."""
    do = fields.get("do", "")
    allowed = step_fields(do)
    if allowed is None:
        raise RuleError(N_("Unknown step."))
    step: dict[str, Any] = {"do": do}
    if by:
        step["by"] = by
    for key in ("target", "as", "card"):
        value = fields.get(key)
        if value and key in allowed:
            step[key] = value
    if "cards" in allowed and by and is_tracked(game, by):
        step["cards"] = [c for c in cards if c]
    if do == "show" and examined_blind(game):
        step.pop("card", None)
        picked = card_at(game, fields.get("position", ""))
        if picked is not None:
            step["card"] = picked
    return step


def answers(prompt: Prompt, do: str) -> bool:
    """Whether a step named ``do`` answers this prompt."""
    return do in ANSWERS.get(prompt.kind, frozenset())


def is_tracked(game: Game, name: str) -> bool:
    """Whether the engine knows this player's hand (their phone entered it)."""
    return game.has(name) and game.player(name).tracked


def check_phone_step(game: Game, seat: str, do: str) -> None:
    """A phone takes only its own seat's private steps, and only when one is asked of it."""
    mine = [p for p in pending(game) if p.player == seat and p.private]
    if not any(answers(p, do) for p in mine):
        raise RuleError(N_("There is nothing for you to do right now."))


def check_tablet_step(game: Game, by: str | None, do: str) -> None:
    """The tablet takes public steps, and the private steps of a seat without a phone."""
    if by is not None and not game.has(by):
        raise RuleError(N_("There is no such player at this table."))
    owner = [p for p in pending(game) if p.player == by and answers(p, do)]
    if by is not None and any(p.private for p in owner) and is_tracked(game, by):
        raise RuleError(N_("Only %(name)s's phone can do that."), name=by)


def examined_blind(game: Game) -> bool:
    """Whether the examiner picks the target's card blind, by its place in the hand."""
    t = game.turn
    return t is not None and t.stage == "show" and t.shown_by != t.target


def card_at(game: Game, position: str) -> str | None:
    """The card at ``position`` in the examined target's hand (None: the hand is untracked).
    Naming cards one by one and reading the refusals would tell the examiner the hand."""
    t = game.turn
    assert t is not None and t.target is not None
    hand = game.player(t.target).hand
    if hand is None:
        return None
    if not position.isdigit() or int(position) >= len(hand):
        raise RuleError(N_("Pick one of the cards."))
    return hand[int(position)]


def claimed_character(rules: Rules, action: str) -> str | None:
    """The character an action claims in this game (the exchanger depends on the variant)."""
    claim = ACTIONS[action].claim
    return rules.exchanger if claim == EXCHANGER else claim


# -- the record -----------------------------------------------------------------------------


class Download(Enum):
    """What downloading the record (every hand, every card drawn) does now."""

    REFUSED = "refused"  # it would show the table a hidden card that still matters
    OPEN = "open"  # it shows nothing hidden that matters: no phone, or closed already
    CLOSES = "closes"  # the game is over: downloading closes it for good (no more undo)


def download(game: Game | None, closed: bool) -> Download:
    if game is None:
        return Download.REFUSED
    tracked = any(p.tracked for p in game.players)
    if not tracked or closed:
        return Download.OPEN
    return Download.CLOSES if game.over else Download.REFUSED
