"""The record format (FORMAT.md): a record's set-up, steps and expectations, checked against
the engine's table of step kinds before anything is played."""

from __future__ import annotations

import json
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
MAX_STEPS = 1000  # a long game of ten players is a few hundred; the screens replay them all


@dataclass
class Record:
    setup: dict[str, Any]
    steps: list[dict[str, Any]]
    start: Game  # the game the set-up deals (checked once, played from here: it never changes)
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
    """A Record from parsed JSON, checked against the format. Raises RecordError.

    JSON read from a file or an upload is checked for lone surrogates as it is read
    (`files.record_json`)."""
    if not isinstance(data, dict):
        raise RecordError(N_("a record must be a JSON object"))
    if data.get("format") != FORMAT:
        # TRANSLATORS: a game record's error. format: the record format's name.
        raise RecordError(N_("‘format’ must be “%(format)s”"), format=FORMAT)
    for key in data:
        if key not in TOP_KEYS:
            # TRANSLATORS: a game record's error. key: a word of the record format, as written
            # there.
            raise RecordError(N_("unknown key ‘%(key)s’"), key=str(key))
    for key in ("players", "hands", "steps"):
        if key not in data:
            # TRANSLATORS: a game record's error. key: a word of the record format, as written
            # there.
            raise RecordError(N_("‘%(key)s’ is required"), key=key)
    setup = {k: data[k] for k in SETUP_KEYS if k in data}
    try:
        game = new_game(setup)
    except RuleError as e:
        raise RecordError.of(e) from None
    steps = data["steps"]
    if not isinstance(steps, list):
        raise RecordError(N_("‘steps’ must be a list"))
    if len(steps) > MAX_STEPS:
        # TRANSLATORS: a game record's error. n: the most steps a record may hold; m: how many
        # this one holds.
        raise RecordError(N_("a record holds at most %(n)s steps; this one has %(m)s"),
                          n=MAX_STEPS, m=len(steps))
    for i, step in enumerate(steps, 1):
        check_step(game, step, i)
    expect = data.get("expect")
    if expect is not None:
        check_expectation(game, expect, _message(N_("the final ‘expect’")))
    name = data.get("name", "")
    return Record(setup, steps, game, expect, name if isinstance(name, str) else "")


def check_step(game: Game, step: object, i: int) -> None:
    if not isinstance(step, dict):
        # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
        # expect').
        raise RecordError(N_("%(where)s is not an object"), where=at(i))
    if "expect" in step:
        if len(step) != 1:
            # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
            # expect').
            raise RecordError(N_("%(where)s: an expectation step holds only ‘expect’"),
                              where=at(i))
        check_expectation(game, step["expect"], at(i))
        return
    do = step.get("do")
    if not isinstance(do, str) or do not in STEPS:
        # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
        # expect'); step: a word of the record format.
        raise RecordError(N_("%(where)s: unknown step ‘%(step)s’"), where=at(i), step=str(do))
    # A key no step has is malformed; a known key on the wrong step is for the engine to
    # refuse, so that a record can show that refusal with "rejected": true.
    for key, value in step.items():
        if key == "do":
            continue
        if key == "rejected":
            if not isinstance(value, bool):
                # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the
                # final expect').
                raise RecordError(N_("%(where)s: ‘rejected’ must be true or false"),
                                  where=at(i))
        elif key not in FIELDS:
            # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
            # expect'); key: a word of the record format, as written there.
            raise RecordError(N_("%(where)s: no step takes ‘%(key)s’"), where=at(i), key=key)
        elif key in ("by", "target") and not game.has(value):
            # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
            # expect'); name: a player's name.
            raise RecordError(N_("%(where)s: unknown player ‘%(name)s’"), where=at(i),
                              name=str(value))
        elif key in ("as", "card"):
            check_card_name(value, i)
        elif key == "cards":
            if not isinstance(value, list):
                # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the
                # final expect').
                raise RecordError(N_("%(where)s: ‘cards’ must be a list of cards"),
                                  where=at(i))
            for c in value:
                check_card_name(c, i)
    if "by" in STEPS[do].needs and "by" not in step:
        # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
        # expect'); step: a word of the record format.
        raise RecordError(N_("%(where)s: a ‘%(step)s’ step needs ‘by’"), where=at(i), step=do)


def check_card_name(value: object, where: int | Ruling) -> None:
    """A card id of the format; `where` is a step's number or a place in the file."""
    if value not in CHARACTERS:
        # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
        # expect'); card: what was written instead of a card; known: the record format's card names,
        # in English, joined with commas.
        raise RecordError(N_("%(where)s: unknown card ‘%(card)s’ (cards are written in lower "
                             "case: %(known)s)"), where=at(where) if isinstance(where, int)
                          else where, card=str(value), known=KNOWN_CARDS)


def at(i: int) -> Ruling:
    """Step `i`'s place in the file, for a message (made only when there is one)."""
    # TRANSLATORS: a game record's error. n: a number.
    return _message(N_("step %(n)s"), n=i)


def check_expectation(game: Game, expect: object, where: Ruling) -> None:
    """Check an expectation's form; ``where`` is the place in the file, as a message."""
    if not isinstance(expect, dict):
        # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
        # expect').
        raise RecordError(N_("%(where)s: ‘expect’ must be an object"), where=where)
    for key in expect:
        if key not in EXPECT_KEYS:
            # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
            # expect'); key: a word of the record format, as written there.
            raise RecordError(N_("%(where)s: unknown expectation ‘%(key)s’"), where=where,
                              key=key)
    players = expect.get("players", {})
    if not isinstance(players, dict):
        # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
        # expect').
        raise RecordError(N_("%(where)s: ‘players’ must map names to expectations"),
                          where=where)
    for name, wanted in players.items():
        if not game.has(name):
            # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
            # expect'); name: a player's name.
            raise RecordError(N_("%(where)s: unknown player ‘%(name)s’"), where=where,
                              name=name)
        if not isinstance(wanted, dict):
            # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the final
            # expect'); name: a player's name.
            raise RecordError(N_("%(where)s: the expectation for %(name)s must be an object"),
                              where=where, name=name)
        for key, value in wanted.items():
            if key not in PLAYER_KEYS:
                # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the
                # final expect'); key: a word of the record format, as written there; name: a
                # player's name.
                raise RecordError(N_("%(where)s: unknown expectation ‘%(key)s’ for %(name)s"),
                                  where=where, key=key, name=name)
            if key == "hand" and not game.player(name).tracked:
                raise RecordError(
                    # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the
                    # final expect'); name: a player's name.
                    N_("%(where)s: %(name)s’s hand is not tracked; expect ‘face_down’"),
                    where=where, name=name)
            if key in ("hand", "revealed"):
                if not isinstance(value, list):
                    # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the
                    # final expect'); key: a word of the record format, as written there; name: a
                    # player's name.
                    raise RecordError(N_("%(where)s: ‘%(key)s’ for %(name)s must be a list of "
                                         "cards"), where=where, key=key, name=name)
                for c in value:
                    check_card_name(c, where)
            if key == "faction" and value not in FACTIONS:
                # TRANSLATORS: a game record's error. where: where in the record ('step 3', 'the
                # final expect'); faction: what was written instead of a faction.
                raise RecordError(N_("%(where)s: unknown faction ‘%(faction)s’"), where=where,
                                  faction=str(value))


def refuse_lone_surrogates(data: object) -> None:
    """A JSON escape such as ``"\\ud800"`` gives a string that is not text: it can't be
    printed, stored or sent to a phone. Encoding the whole record finds one at C speed (and
    without recursion, however deep the JSON); only then is it looked for, to name it."""
    try:
        json.dumps(data, ensure_ascii=False, check_circular=False).encode("utf-8")
    except UnicodeEncodeError as e:
        text = json.dumps(data, ensure_ascii=False, check_circular=False)
        raise RecordError(
            # TRANSLATORS: a game record's error. escape: an escape sequence as written in the file.
            N_("not a game record: the escape %(escape)s is half of a character, not text"),
            escape=f"\\u{ord(text[e.start]):04x}") from None
    except RecursionError:
        raise RecordError(N_("not a game record: its JSON is nested too deeply")) from None
