"""Random games played through the web app, step by step, and each device's screen at every
step: shared by the tests that compare remembered screens with screens drawn afresh."""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from tablekit import HTMX, Table, make_app, started_table

from app.engine import STEPS, RuleError, apply
from app.explore import legal_steps
from app.web import tabletframe
from app.web.fragments import Fragments

MAX_STEPS = 60
NAMES = ["Ann", "Bob", "Cid", "Dee"]
DECK = [card for card in ("duke", "assassin", "captain", "ambassador", "contessa")
        for _copy in range(3)]
PRIVATE_STEPS = {name for name, kind in STEPS.items() if kind.private}


def dealt(rng: random.Random) -> dict[str, list[str] | None]:
    """Two cards from one shuffled deck for each player; the last plays without a phone."""
    deck = DECK[:]
    rng.shuffle(deck)
    hands: dict[str, list[str] | None] = {n: [deck.pop(), deck.pop()] for n in NAMES[:-1]}
    hands[NAMES[-1]] = None
    return hands


def next_step(table: Table, rng: random.Random) -> dict[str, Any] | None:
    """A random legal step of the game the server holds, or None once it is over."""
    game = table.live().game
    assert game is not None
    if game.over:
        return None
    options = legal_steps(game)
    rng.shuffle(options)
    for step in options:
        try:
            apply(game, step)
        except RuleError:
            continue
        return step
    return None


def tap(table: Table, step: dict[str, Any], hands: dict[str, list[str] | None],
        on_phone: bool) -> None:
    """The step on its seat's phone where it must be (a private step) or may be, else on the
    tablet for that seat."""
    by = step.get("by")
    data = {key: value for key, value in step.items() if key != "by"}
    phone = by is not None and hands[by] is not None and (step["do"] in PRIVATE_STEPS or on_phone)
    if phone:
        response = table.phone_step(by, **data)
    else:
        response = table.step(**step)
    assert response.status_code == 200, (step, response.text[:300])


def devices(table: Table) -> list[tuple[Any, str]]:
    return [(table.tablet, table.url)] + [
        (table.phone(name), table.link(name)) for name in table.phones]


@contextmanager
def nothing_remembered(app: Flask) -> Iterator[None]:
    """The app drawing every screen afresh (its screens, regions and the parts of templates
    :func:`app.web.tabletframe.remembered` keeps), then its own remembered ones back."""
    kept, parts = app.extensions["fragments"], tabletframe._parts
    app.extensions["fragments"] = Fragments()
    tabletframe._parts = OrderedDict()
    try:
        yield
    finally:
        app.extensions["fragments"] = kept
        tabletframe._parts = parts


def screens(table: Table) -> list[str]:
    return [client.get(f"{base}/view", headers=HTMX).text for client, base in devices(table)]


def played(tmp_path: Path, seed: int) -> Iterator[Table]:
    """The table after each step of the seed's random game."""
    rng = random.Random(seed)
    hands = dealt(rng)
    table = started_table(make_app(tmp_path / str(seed)), hands)
    yield table
    for number in range(MAX_STEPS):
        step = next_step(table, rng)
        if step is None:
            return
        tap(table, step, hands, on_phone=number % 2 == 0)
        yield table
