"""Game records (`coup-record/1`): load and validate, replay, check expectations, export.

`coup-referee check FILE...` and `coup-referee explain FILE` are built from these pieces.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Game, RuleError, apply, new_game
from .engine.cards import ACTIONS, CHARACTERS, FACTIONS
from .engine.play import KEYS as STEP_KEYS
from .engine.setup import SETUP_KEYS

FORMAT = "coup-record/1"
TOP_KEYS = ("format", "name", "steps", "expect", *SETUP_KEYS)
EXPECT_KEYS = ("players", "treasury", "reserve", "deck_size", "next", "winner")
PLAYER_KEYS = ("coins", "hand", "revealed", "out", "faction", "face_down")
STEP_FIELDS = ("by", "target", "as", "card", "cards")


class RecordError(Exception):
    """A file that is not a valid game record; the message says what is wrong, for a person."""


@dataclass
class Record:
    setup: dict[str, Any]
    steps: list[dict[str, Any]]
    expect: dict[str, Any] | None = None
    name: str = ""


@dataclass
class Outcome:
    game: Game | None
    failure: str | None = None  # the first difference, with the step it followed
    rulings: list[tuple[dict[str, Any], list[str], str | None]] = field(default_factory=list)


def load(path: str | Path) -> Record:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"can't read the file ({e.strerror})") from None
    except UnicodeDecodeError:
        raise RecordError("not a text file (UTF-8)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise RecordError("not a game record: its JSON is nested too deeply") from None
    return parse(data)


def parse(data: object) -> Record:
    """A Record from parsed JSON, checked against the format. Raises RecordError."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"'format' must be \"{FORMAT}\"")
    for key in data:
        if key not in TOP_KEYS:
            raise RecordError(f"unknown key '{key}'")
    for key in ("players", "hands", "steps"):
        if key not in data:
            raise RecordError(f"'{key}' is required")
    setup = {k: data[k] for k in SETUP_KEYS if k in data}
    try:
        game = new_game(setup)
    except RuleError as e:
        raise RecordError(str(e)) from None
    steps = data["steps"]
    if not isinstance(steps, list):
        raise RecordError("'steps' must be a list")
    for i, step in enumerate(steps, 1):
        check_step(game, step, i)
    expect = data.get("expect")
    if expect is not None:
        check_expectation(game, expect, "the final 'expect'")
    name = data.get("name", "")
    return Record(setup, steps, expect, name if isinstance(name, str) else "")


def check_step(game: Game, step: object, i: int) -> None:
    where = f"step {i}"
    if not isinstance(step, dict):
        raise RecordError(f"{where} is not an object")
    if "expect" in step:
        if len(step) != 1:
            raise RecordError(f"{where}: an expectation step holds only 'expect'")
        check_expectation(game, step["expect"], where)
        return
    do = step.get("do")
    if not isinstance(do, str) or (do not in ACTIONS and do not in STEP_KEYS):
        raise RecordError(f"{where}: unknown step '{do}'")
    # A key no step has is malformed; a known key on the wrong step is for the engine to
    # refuse, so that a record can show that refusal with "rejected": true.
    for key, value in step.items():
        if key in ("do",):
            continue
        if key == "rejected":
            if not isinstance(value, bool):
                raise RecordError(f"{where}: 'rejected' must be true or false")
        elif key not in STEP_FIELDS:
            raise RecordError(f"{where}: no step takes '{key}'")
        elif key in ("by", "target") and not game.has(value):
            raise RecordError(f"{where}: unknown player '{value}'")
        elif key in ("as", "card") and value not in CHARACTERS:
            raise RecordError(f"{where}: unknown card '{value}'")
        elif key == "cards" and (
            not isinstance(value, list) or any(c not in CHARACTERS for c in value)
        ):
            raise RecordError(f"{where}: 'cards' must be a list of cards")
    if do != "pass" and "by" not in step:
        raise RecordError(f"{where}: a '{do}' step needs 'by'")


def check_expectation(game: Game, expect: object, where: str) -> None:
    if not isinstance(expect, dict):
        raise RecordError(f"{where}: 'expect' must be an object")
    for key in expect:
        if key not in EXPECT_KEYS:
            raise RecordError(f"{where}: unknown expectation '{key}'")
    players = expect.get("players", {})
    if not isinstance(players, dict):
        raise RecordError(f"{where}: 'players' must map names to expectations")
    for name, wanted in players.items():
        if not game.has(name):
            raise RecordError(f"{where}: unknown player '{name}'")
        if not isinstance(wanted, dict):
            raise RecordError(f"{where}: the expectation for {name} must be an object")
        for key, value in wanted.items():
            if key not in PLAYER_KEYS:
                raise RecordError(f"{where}: unknown expectation '{key}' for {name}")
            if key == "hand" and not game.player(name).tracked:
                raise RecordError(f"{where}: {name}'s hand is not tracked; expect 'face_down'")
            if key in ("hand", "revealed") and (
                not isinstance(value, list) or any(c not in CHARACTERS for c in value)
            ):
                raise RecordError(f"{where}: '{key}' for {name} must be a list of cards")
            if key == "faction" and value not in FACTIONS:
                raise RecordError(f"{where}: unknown faction '{value}'")


def differences(game: Game, expect: dict[str, Any]) -> list[str]:
    """Every expectation that does not hold, in words."""
    found: list[str] = []
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
                found.append(f"{name}'s {key} is {dump(actual[key])}, expected {dump(want)}")
    actual_top = {
        "treasury": game.treasury,
        "reserve": game.reserve,
        "deck_size": game.deck_size,
        "next": None if game.over else game.current,
        "winner": game.winner,
    }
    for key in EXPECT_KEYS[1:]:
        if key in expect and actual_top[key] != expect[key]:
            found.append(f"{key} is {dump(actual_top[key])}, expected {dump(expect[key])}")
    return found


def dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def replay(record: Record) -> Outcome:
    """Apply every step, honouring `rejected` and checking each expectation on the way."""
    game = new_game(record.setup)
    outcome = Outcome(game)
    label = "the start"
    for i, step in enumerate(record.steps, 1):
        if "expect" in step:
            diffs = differences(game, step["expect"])
            if diffs:
                outcome.failure = f"after {label}: {diffs[0]}"
                return outcome
            continue
        command = {k: v for k, v in step.items() if k != "rejected"}
        before = len(game.log)
        try:
            game = apply(game, command)
        except RuleError as e:
            if not step.get("rejected"):
                outcome.failure = f"step {i} {dump(command)} was refused: {e}"
                return outcome
            outcome.rulings.append((step, [], str(e)))
        else:
            if step.get("rejected"):
                outcome.failure = f"step {i} {dump(command)} was accepted; it should be rejected"
                return outcome
            outcome.rulings.append((step, [r.english() for r in game.log[before:]], None))
        outcome.game = game
        label = f"step {i} {dump(command)}"
    if record.expect:
        diffs = differences(game, record.expect)
        if diffs:
            outcome.failure = f"after {label}: {diffs[0]}"
    return outcome


def export(game: Game, name: str | None = None) -> dict[str, Any]:
    """The game as a record that replays to the same state."""
    data: dict[str, Any] = {"format": FORMAT}
    if name:
        data["name"] = name
    data.update(game.setup)
    data["steps"] = [dict(s) for s in game.steps]
    return data


def check_command(paths: list[str]) -> int:
    """`coup-referee check FILE...`: one line per file; non-zero exit if any is not PASS."""
    failed = 0
    for path in paths:
        try:
            outcome = replay(load(path))
        except RecordError as e:
            print(f"INVALID {path}: {e}")
            failed += 1
            continue
        if outcome.failure:
            print(f"FAIL {path}: {outcome.failure}")
            failed += 1
        else:
            print(f"PASS {path}")
    return 1 if failed else 0


def explain_command(path: str) -> int:
    """`coup-referee explain FILE`: the game step by step, with every ruling."""
    try:
        record = load(path)
    except RecordError as e:
        print(f"INVALID {path}: {e}", file=sys.stderr)
        return 2
    if record.name:
        print(record.name)
        print()
    outcome = replay(record)
    for n, (step, lines, refused) in enumerate(outcome.rulings, 1):
        command = {k: v for k, v in step.items() if k != "rejected"}
        print(f"{n:>3}. {describe(command)}")
        if refused:
            print(f"     refused: {refused}")
        for line in lines:
            print(f"     {line}")
    if outcome.failure:
        print(f"FAIL: {outcome.failure}")
        return 1
    game = outcome.game
    if game is not None:
        print()
        for p in game.players:
            state = "out" if p.out else f"{p.face_down} face down"
            shown = ", ".join(p.revealed) or "none"
            print(f"  {p.name}: {p.coins} coins, {state}, face up: {shown}")
        print(f"  treasury {game.treasury}, court deck {game.deck_size}")
        if game.winner:
            print(f"  winner: {game.winner}")
    return 0


def describe(step: dict[str, Any]) -> str:
    who = step.get("by", "the table")
    rest = {k: v for k, v in step.items() if k not in ("by", "do")}
    extra = " ".join(f"{k}={dump(v)}" for k, v in rest.items())
    return f"{who}: {step['do']} {extra}".rstrip()


def same_multiset(a: list[str], b: list[str]) -> bool:
    return Counter(a) == Counter(b)
