"""Playing a record: every step through the engine, the expectations checked on the way, and
the game written back as a record."""

from __future__ import annotations

import json
from typing import Any

from app.engine import Game, RuleError, Ruling, apply
from app.engine.rulings import N_

from .errors import _message
from .format import EXPECT_KEYS, FORMAT, Outcome, Record


def differences(game: Game, expect: dict[str, Any]) -> list[Ruling]:
    """Every expectation that does not hold, in words (messages to render)."""
    found: list[Ruling] = []
    for name, wanted in expect.get("players", {}).items():
        p = game.player(name)
        actual = {
            "coins": p.coins,
            "hand": sorted(p.hand or []),
            "revealed": sorted(p.revealed),
            "out": p.out,
            "faction": p.faction,
            "face_down": p.face_down,
        }
        for key, value in wanted.items():
            want = sorted(value) if key in ("hand", "revealed") else value
            if actual[key] != want:
                found.append(_message(
                    # TRANSLATORS: a game record's error. name: a player's name; key: a word of the
                    # record format, as written there; actual, expected: values from the record.
                    N_("%(name)s’s %(key)s is %(actual)s, expected %(expected)s"),
                    name=name, key=key, actual=dump(actual[key]), expected=dump(want)))
    actual_top = {
        "treasury": game.treasury,
        "reserve": game.reserve,
        "deck_size": game.deck_size,
        "next": None if game.over else game.current,
        "winner": game.winner,
    }
    for key in EXPECT_KEYS[1:]:
        if key in expect and actual_top[key] != expect[key]:
            # TRANSLATORS: a game record's error. key: a word of the record format, as written
            # there; actual, expected: values from the record.
            found.append(_message(N_("%(key)s is %(actual)s, expected %(expected)s"), key=key,
                                  actual=dump(actual_top[key]), expected=dump(expect[key])))
    return found


def dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _after(record: Record, last: int, difference: Ruling) -> Ruling:
    """A difference, with the step it followed (0: the start of the game)."""
    if not last:
        # TRANSLATORS: a game record's error. difference: what differs, a phrase of its own.
        return _message(N_("after the start: %(difference)s"), difference=difference)
    step = {k: v for k, v in record.steps[last - 1].items() if k != "rejected"}
    # TRANSLATORS: a game record's error. n: a number; command: the step as the record writes it
    # (JSON); difference: what differs, a phrase of its own.
    return _message(N_("after step %(n)s %(command)s: %(difference)s"), n=last,
                    command=dump(step), difference=difference)


def replay(record: Record, rulings: bool = False) -> Outcome:
    """Apply every step, honouring `rejected` and checking each expectation on the way;
    with `rulings`, keep each step's rulings (for `explain`)."""
    game = record.start
    outcome = Outcome(game)
    last = 0  # the number of the last step played
    for i, step in enumerate(record.steps, 1):
        if "expect" in step:
            diffs = differences(game, step["expect"])
            if diffs:
                outcome.failure = _after(record, last, diffs[0])
                return outcome
            continue
        rejected = step.get("rejected")
        command = {k: v for k, v in step.items() if k != "rejected"} if "rejected" in step \
            else step
        before = len(game.log)
        try:
            game = apply(game, command)
        except RuleError as e:
            if not rejected:
                # TRANSLATORS: a game record's error. n: a number; command: the step as the record
                # writes it (JSON); reason: why the rules refuse it, a sentence of its own.
                outcome.failure = _message(N_("step %(n)s %(command)s was refused: %(reason)s"),
                                           n=i, command=dump(command),
                                           reason=Ruling(e.text, e.params, count=e.count))
                outcome.refused = True
                return outcome
            if rulings:
                outcome.rulings.append((step, [], e))
        else:
            if rejected:
                outcome.failure = _message(
                    # TRANSLATORS: a game record's error. n: a number; command: the step as the
                    # record writes it (JSON).
                    N_("step %(n)s %(command)s was accepted; it should be rejected"),
                    n=i, command=dump(command))
                return outcome
            if rulings:
                outcome.rulings.append((step, list(game.log[before:]), None))
        outcome.game = game
        last = i
    if record.expect:
        diffs = differences(game, record.expect)
        if diffs:
            outcome.failure = _after(record, last, diffs[0])
    return outcome


def export(game: Game, name: str | None = None) -> dict[str, Any]:
    """The game as a record that replays to the same state."""
    data: dict[str, Any] = {"format": FORMAT}
    if name:
        data["name"] = name
    data.update(game.setup)
    data["steps"] = game.steps
    return data
