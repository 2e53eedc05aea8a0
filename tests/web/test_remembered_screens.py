"""What the screens remember gives the same bytes as drawing afresh, at every step of a game.

A screen or region is remembered by what it is drawn from (:mod:`app.web.fragments`): the whole
screen by version, the shared parts by version and language, a seat's own coins and cards by
what they show (:func:`app.web.phoneparts.mine`). Over every step of a few seeded random games,
each device's screen as the app serves it (its caches warm from the steps before) must be byte
for byte the screen drawn with nothing remembered. And a seat's remembered region is its own:
two seats at the same version each get their own hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from tablekit import HTMX, Table, make_app, started_table

from app.engine import STEPS, RuleError, apply
from app.explore import legal_steps
from app.web.fragments import ALIKE_KEPT, Fragments

SEEDS = range(3)
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
    """The app drawing every screen afresh, then its own remembered screens back."""
    kept = app.extensions["fragments"]
    app.extensions["fragments"] = Fragments()
    try:
        yield
    finally:
        app.extensions["fragments"] = kept


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


@pytest.mark.parametrize("seed", SEEDS)
def test_remembered_screens_are_the_fresh_ones(tmp_path: Path, seed: int):
    for table in played(tmp_path, seed):
        served = screens(table)
        with nothing_remembered(table.app):
            fresh = screens(table)
        assert served == fresh


def test_a_seats_own_region_is_its_own(tmp_path: Path):
    """Two seats with different hands at one version: each screen shows its own hand only, and
    each seat's remembered region is kept under its own token."""
    hands = {"Ann": ["duke", "duke"], "Bob": ["contessa", "captain"]}
    table = started_table(make_app(tmp_path), hands)
    for mover in ("Ann", "Bob"):  # drawn, then remembered
        for name, own in hands.items():
            html = table.phone(name).get(f"{table.link(name)}/view", headers=HTMX).text
            hand = html.split('id="hand"', 1)[1].split("</p>", 1)[0]
            for card in ("duke", "contessa", "captain"):
                assert (f"card-{card}" in hand) == (card in own), (name, card)
        assert table.step(do="income", by=mover).status_code == 200
    held = {screen[1]: html for screen, _shows, html in
            table.app.extensions["fragments"].held(table.table_id)
            if isinstance(screen, tuple) and screen[0] == "phone mine"}
    assert set(held) == set(table.tokens.values())
    assert "card-duke" in held[table.tokens["Ann"]]
    assert "card-duke" not in held[table.tokens["Bob"]]


def test_alike_draws_again_only_when_what_it_shows_changes():
    """A region coming back to one of its last ALIKE_KEPT drawings is not drawn again; one
    older than that is."""
    assert ALIKE_KEPT == 3
    fragments, drawn = Fragments(), []

    def draw(text: str) -> str:
        drawn.append(text)
        return text

    assert fragments.alike("t", "mine", ("3 coins",), lambda: draw("a")) == "a"
    assert fragments.alike("t", "mine", ("3 coins",), lambda: draw("b")) == "a"
    assert fragments.alike("t", "mine", ("4 coins",), lambda: draw("c")) == "c"
    assert fragments.alike("t", "mine", ("3 coins",), lambda: draw("d")) == "a"  # came back
    assert fragments.alike("t", "mine", ("5 coins",), lambda: draw("e")) == "e"
    assert fragments.alike("t", "mine", ("6 coins",), lambda: draw("f")) == "f"
    assert fragments.alike("t", "mine", ("3 coins",), lambda: draw("g")) == "g"  # too old
    assert fragments.alike("u", "mine", ("3 coins",), lambda: draw("h")) == "h"
    assert drawn == ["a", "c", "e", "f", "g", "h"]
    assert len(fragments) == 2  # one entry per table and screen, its few drawings in it
    assert [html for _screen, _shows, html in fragments.held("t")] == ["e", "f", "g"]
