"""Game records (`coup-record/1`): load and validate, replay, check expectations, export.

`coup-referee check FILE...` and `coup-referee explain FILE` are built from these pieces.

Every message for a person is a template marked for translation with its values, like the
engine's rulings and rule errors: a :class:`RecordError`'s ``text``/``params``/``count``, and an
:class:`Outcome`'s failure and rulings as :class:`~app.engine.Ruling` objects. ``str()`` of an
error (and ``Ruling.english()``) is the English sentence; the command line shows them in its
user's language (:mod:`app.cli_i18n`), and ``PASS``/``FAIL``/``INVALID`` stay as they are.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import STEPS, Game, RuleError, Ruling, apply, new_game
from .engine.cards import CHARACTERS, FACTIONS
from .engine.rulings import N_, NP_, CardName, english_name, render
from .engine.setup import SETUP_KEYS
from .engine.steps import FIELDS

FORMAT = "coup-record/1"
TOP_KEYS = ("format", "name", "steps", "expect", *SETUP_KEYS)
EXPECT_KEYS = ("players", "treasury", "reserve", "deck_size", "next", "winner")
PLAYER_KEYS = ("coins", "hand", "revealed", "out", "faction", "face_down")
KNOWN_CARDS = ", ".join(CHARACTERS)


class RecordError(Exception):
    """A file that is not a valid game record; the message says what is wrong, for a person.

    As with :class:`~app.engine.RuleError`, ``text`` is an English template (marked with
    ``N_``), ``params`` its values (a value may be a :class:`~app.engine.Ruling`, rendered in
    the same language) and ``count`` the value that picks a plural form; ``str(error)`` is the
    English sentence.
    """

    def __init__(self, text: str | tuple[str, str], count: str | None = None,
                 **params: object) -> None:
        self.text = text
        self.count = count
        self.params = params
        super().__init__(render(text, params, count=count))

    @classmethod
    def of(cls, message: RuleError | Ruling) -> RecordError:
        """The same message, as a record error (an engine refusal, a replay failure)."""
        return cls(message.text, message.count, **message.params)


def _message(text: str | tuple[str, str], count: str | None = None, **params: object) -> Ruling:
    """A message that is not a ruling (a failure, a place in the file), for nesting in others."""
    return Ruling(text, params, count=count)


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


MAX_RECORD_BYTES = 1_000_000
"""The largest record file read: a long game of ten players is under 100 KB."""
MAX_DIGITS = 100
"""The longest number a record may hold (coins are under 100)."""


def load(path: str | Path) -> Record:
    """Read and check a record file. Raises RecordError with one line for a person: for a file
    that is missing, unreadable, not a regular file (a folder, a pipe, a device: never read,
    so a FIFO or /dev/zero can't hold the command), over :data:`MAX_RECORD_BYTES`, not UTF-8
    or not JSON, nested too deeply, with a number of thousands of digits or a string that is
    not text (a lone surrogate such as ``"\\ud800"``), or not a valid record."""
    raw = _read_record_file(Path(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(N_("not a text file (UTF-8)")) from None
    try:
        data = json.loads(text, parse_int=_small_int)
    except json.JSONDecodeError as e:
        raise RecordError(N_("not JSON (line %(line)s, column %(column)s: %(reason)s)"),
                          line=e.lineno, column=e.colno, reason=e.msg) from None
    except RecursionError:
        raise RecordError(N_("not a game record: its JSON is nested too deeply")) from None
    _refuse_lone_surrogates(data)
    return parse(data)


def _read_record_file(path: Path) -> bytes:
    import os
    import stat

    # O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise RecordError(N_("can't read the file (%(reason)s)"), reason=str(e.strerror)) \
            from None
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = N_("a folder") if stat.S_ISDIR(mode) else N_("a pipe, socket or device")
            raise RecordError(N_("not a record file: it is %(kind)s"),
                              kind=_message(kind))
        try:
            raw = file.read(MAX_RECORD_BYTES + 1)
        except OSError as e:
            raise RecordError(N_("can't read the file (%(reason)s)"),
                              reason=str(e.strerror)) from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(N_("too big for a game record (more than %(size)s)"),
                          size=f"{MAX_RECORD_BYTES / 1_000_000:g} MB")
    return raw


def _small_int(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > MAX_DIGITS:
        raise RecordError(N_("not a game record: it holds a number of %(n)s digits"), n=count)
    return int(digits)


def _refuse_lone_surrogates(data: object) -> None:
    """A JSON escape such as ``"\\ud800"`` gives a string that is not text: it can't be
    printed, stored or sent to a phone. Encoding the whole record finds one at C speed (and
    without recursion, however deep the JSON); only then is it looked for, to name it."""
    try:
        json.dumps(data, ensure_ascii=False, check_circular=False).encode("utf-8")
    except UnicodeEncodeError as e:
        text = json.dumps(data, ensure_ascii=False, check_circular=False)
        raise RecordError(
            N_("not a game record: the escape %(escape)s is half of a character, not text"),
            escape=f"\\u{ord(text[e.start]):04x}") from None
    except RecursionError:
        raise RecordError(N_("not a game record: its JSON is nested too deeply")) from None


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
                    N_("%(name)s's %(key)s is %(actual)s, expected %(expected)s"),
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
            found.append(_message(N_("%(key)s is %(actual)s, expected %(expected)s"), key=key,
                                  actual=dump(actual_top[key]), expected=dump(expect[key])))
    return found


def dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _after(record: Record, last: int, difference: Ruling) -> Ruling:
    """A difference, with the step it followed (0: the start of the game)."""
    if not last:
        return _message(N_("after the start: %(difference)s"), difference=difference)
    step = {k: v for k, v in record.steps[last - 1].items() if k != "rejected"}
    return _message(N_("after step %(n)s %(command)s: %(difference)s"), n=last,
                    command=dump(step), difference=difference)


def replay(record: Record, rulings: bool = False) -> Outcome:
    """Apply every step, honouring `rejected` and checking each expectation on the way;
    with `rulings`, keep each step's rulings (for `explain`)."""
    game = new_game(record.setup)
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


def explain_command(path: str) -> int:
    """`coup-referee explain FILE`: the game step by step, with every ruling, in the user's
    language with the official (English box's) card names."""
    from app.cli_i18n import gettext, message, ngettext, ruling, say

    try:
        record = load(path)
    except RecordError as e:  # worded as `import` words it
        print(f"coup-referee: {path}: {message(e)}", file=sys.stderr)
        return 2
    if record.name:
        print(record.name)
        print()
    outcome = replay(record, rulings=True)
    for n, (step, rulings, refused) in enumerate(outcome.rulings, 1):
        command = {k: v for k, v in step.items() if k != "rejected"}
        print(f"{n:>3}. {describe(command)}")
        if refused:
            print("     " + gettext("refused: %(reason)s", reason=message(refused)))
        for r in rulings:
            print(f"     {ruling(r)}")
    if outcome.failure:
        print(f"FAIL: {message(outcome.failure)}")
        return 1
    game = outcome.game
    if game is not None:
        print()
        for p in game.players:
            coins = ngettext("%(num)s coin", "%(num)s coins", p.coins)
            shown = ", ".join(english_name(CardName(c)) for c in p.revealed)
            values = {"name": p.name, "coins": coins, "n": p.face_down,
                      "shown": shown or gettext("none")}
            if p.out:
                line = say(N_("%(name)s: %(coins)s, out, face up: %(shown)s"), values)
            else:
                line = say(NP_("%(name)s: %(coins)s, %(n)s face down, face up: %(shown)s",
                               "%(name)s: %(coins)s, %(n)s face down, face up: %(shown)s"),
                           values, "n")
            print(f"  {line}")
        print("  " + gettext("treasury %(treasury)s, court deck %(deck)s",
                             treasury=game.treasury, deck=game.deck_size))
        if game.winner:
            print("  " + gettext("winner: %(name)s", name=game.winner))
    return 0


def describe(step: dict[str, Any]) -> str:
    """A step as the record writes it, after who took it (the table, for a step nobody
    takes): `Ann: steal target="Bob"`."""
    from app.cli_i18n import gettext

    who = step["by"] if "by" in step else gettext("the table")
    rest = {k: v for k, v in step.items() if k not in ("by", "do")}
    extra = " ".join(f"{k}={dump(v)}" for k, v in rest.items())
    return f"{who}: {step['do']} {extra}".rstrip()
