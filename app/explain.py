"""`coup-referee explain FILE`: a record step by step, with every ruling, in the user's
language with the official (English box's) card names."""

from __future__ import annotations

import sys
from typing import Any

from app.cli_i18n import gettext, message, ngettext, ruling, say
from app.engine.rulings import N_, NP_, CardName, english_name
from app.records import RecordError, dump, load, replay


def explain_command(path: str) -> int:
    """`coup-referee explain FILE`: the game step by step, with every ruling, in the user's
    language with the official (English box's) card names."""


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
            # TRANSLATORS: command line (explain). reason: why the step was refused, a sentence.
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
            # TRANSLATORS: command line (explain). num: a number.
            coins = ngettext("%(num)s coin", "%(num)s coins", p.coins)
            shown = ", ".join(english_name(CardName(c)) for c in p.revealed)
            values = {"name": p.name, "coins": coins, "n": p.face_down,
                      "shown": shown or gettext("none")}
            if p.out:
                # TRANSLATORS: command line (explain). name: a player's name; coins: "3 coins",
                # already worded; shown: card names joined with commas, or "none".
                line = say(N_("%(name)s: %(coins)s, out, face up: %(shown)s"), values)
            else:
                # TRANSLATORS: command line (explain). name: a player's name; coins: "3 coins",
                # already worded; n: a number of cards; shown: card names joined with commas, or
                # "none".
                line = say(NP_("%(name)s: %(coins)s, %(n)s face down, face up: %(shown)s",
                               "%(name)s: %(coins)s, %(n)s face down, face up: %(shown)s"),
                           values, "n")
            print(f"  {line}")
        # TRANSLATORS: command line (explain). treasury, deck: numbers (coins, cards).
        print("  " + gettext("treasury %(treasury)s, court deck %(deck)s",
                             treasury=game.treasury, deck=game.deck_size))
        if game.winner:
            # TRANSLATORS: command line (explain). name: a player's name.
            print("  " + gettext("winner: %(name)s", name=game.winner))
    return 0


def describe(step: dict[str, Any]) -> str:
    """A step as the record writes it, after who took it (the table, for a step nobody
    takes): `Ann: steal target="Bob"`."""


    who = step["by"] if "by" in step else gettext("the table")
    rest = {k: v for k, v in step.items() if k not in ("by", "do")}
    extra = " ".join(f"{k}={dump(v)}" for k, v in rest.items())
    return f"{who}: {step['do']} {extra}".rstrip()
