"""The record format (FORMAT.md): a record's set-up, steps and expectations, checked against
the engine's table of step kinds before anything is played."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.engine import STEPS, Game, RuleError, Ruling, new_game
from app.engine.cards import CHARACTERS, FACTIONS
from app.engine.rulings import N_
from app.engine.setup import SETUP_KEYS
from app.engine.steps import FIELDS

from .errors import RecordError, _message

FORMAT = "coup-record/1"
TOP_KEYS = ("format", "name", "steps", "expect", *SETUP_KEYS)
EXPECT_KEYS = ("players", "treasury", "reserve", "deck_size", "next", "winner")
PLAYER_KEYS = ("coins", "hand", "revealed", "out", "faction", "face_down")
KNOWN_CARDS = ", ".join(CHARACTERS)


@dataclass
class Record:
    setup: dict[str, Any]
    steps: list[dict[str, Any]]
    expect: dict[str, Any] | None = None
    name: str = ""


@dataclass
class Outcome:
    game: Game | None
    # The first difference, with the step it followed (`failure.english()` says it in English).
    failure: Ruling | None = None
    refused: bool = False  # the failure is a step the engine refused
    # Each step played: the step, its rulings, and the reason it was refused (if it was).
    rulings: list[tuple[dict[str, Any], list[Ruling], RuleError | None]] = field(
        default_factory=list)


def parse(data: object) -> Record:
    """A Record from parsed JSON, checked against the format. Raises RecordError."""
    if not isinstance(data, dict):
        raise RecordError(N_("a record must be a JSON object"))
    if data.get("format") != FORMAT:
        raise RecordError(N_("'format' must be \"%(format)s\""), format=FORMAT)
    for key in data:
        if key not in TOP_KEYS:
            raise RecordError(N_("unknown key '%(key)s'"), key=str(key))
    for key in ("players", "hands", "steps"):
        if key not in data:
            raise RecordError(N_("'%(key)s' is required"), key=key)
    setup = {k: data[k] for k in SETUP_KEYS if k in data}
    try:
        game = new_game(setup)
    except RuleError as e:
        raise RecordError.of(e) from None
    steps = data["steps"]
    if not isinstance(steps, list):
        raise RecordError(N_("'steps' must be a list"))
    for i, step in enumerate(steps, 1):
        check_step(game, step, i)
    expect = data.get("expect")
    if expect is not None:
        check_expectation(game, expect, _message(N_("the final 'expect'")))
    name = data.get("name", "")
    return Record(setup, steps, expect, name if isinstance(name, str) else "")


def check_step(game: Game, step: object, i: int) -> None:
    if not isinstance(step, dict):
        raise RecordError(N_("%(where)s is not an object"), where=at(i))
    if "expect" in step:
        if len(step) != 1:
            raise RecordError(N_("%(where)s: an expectation step holds only 'expect'"),
                              where=at(i))
        check_expectation(game, step["expect"], at(i))
        return
    do = step.get("do")
    if not isinstance(do, str) or do not in STEPS:
        raise RecordError(N_("%(where)s: unknown step '%(step)s'"), where=at(i), step=str(do))
    # A key no step has is malformed; a known key on the wrong step is for the engine to
    # refuse, so that a record can show that refusal with "rejected": true.
    for key, value in step.items():
        if key == "do":
            continue
        if key == "rejected":
            if not isinstance(value, bool):
                raise RecordError(N_("%(where)s: 'rejected' must be true or false"),
                                  where=at(i))
        elif key not in FIELDS:
            raise RecordError(N_("%(where)s: no step takes '%(key)s'"), where=at(i), key=key)
        elif key in ("by", "target") and not game.has(value):
            raise RecordError(N_("%(where)s: unknown player '%(name)s'"), where=at(i),
                              name=str(value))
        elif key in ("as", "card"):
            check_card_name(value, i)
        elif key == "cards":
            if not isinstance(value, list):
                raise RecordError(N_("%(where)s: 'cards' must be a list of cards"),
                                  where=at(i))
            for c in value:
                check_card_name(c, i)
    if "by" in STEPS[do].needs and "by" not in step:
        raise RecordError(N_("%(where)s: a '%(step)s' step needs 'by'"), where=at(i), step=do)


def check_card_name(value: object, where: int | Ruling) -> None:
    """A card id of the format; `where` is a step's number or a place in the file."""
    if value not in CHARACTERS:
        raise RecordError(N_("%(where)s: unknown card '%(card)s' (cards are written in lower "
                             "case: %(known)s)"), where=at(where) if isinstance(where, int)
                          else where, card=str(value), known=KNOWN_CARDS)


def at(i: int) -> Ruling:
    """Step `i`'s place in the file, for a message (made only when there is one)."""
    return _message(N_("step %(n)s"), n=i)


def check_expectation(game: Game, expect: object, where: Ruling) -> None:
    """Check an expectation's form; ``where`` is the place in the file, as a message."""
    if not isinstance(expect, dict):
        raise RecordError(N_("%(where)s: 'expect' must be an object"), where=where)
    for key in expect:
        if key not in EXPECT_KEYS:
            raise RecordError(N_("%(where)s: unknown expectation '%(key)s'"), where=where,
                              key=key)
    players = expect.get("players", {})
    if not isinstance(players, dict):
        raise RecordError(N_("%(where)s: 'players' must map names to expectations"),
                          where=where)
    for name, wanted in players.items():
        if not game.has(name):
            raise RecordError(N_("%(where)s: unknown player '%(name)s'"), where=where,
                              name=name)
        if not isinstance(wanted, dict):
            raise RecordError(N_("%(where)s: the expectation for %(name)s must be an object"),
                              where=where, name=name)
        for key, value in wanted.items():
            if key not in PLAYER_KEYS:
                raise RecordError(N_("%(where)s: unknown expectation '%(key)s' for %(name)s"),
                                  where=where, key=key, name=name)
            if key == "hand" and not game.player(name).tracked:
                raise RecordError(
                    N_("%(where)s: %(name)s's hand is not tracked; expect 'face_down'"),
                    where=where, name=name)
            if key in ("hand", "revealed"):
                if not isinstance(value, list):
                    raise RecordError(N_("%(where)s: '%(key)s' for %(name)s must be a list of "
                                         "cards"), where=where, key=key, name=name)
                for c in value:
                    check_card_name(c, where)
            if key == "faction" and value not in FACTIONS:
                raise RecordError(N_("%(where)s: unknown faction '%(faction)s'"), where=where,
                                  faction=str(value))
