"""What the screens remember gives the same bytes as drawing afresh, at every step of a game.

A screen or region is remembered by what it is drawn from (:mod:`app.web.fragments`): the whole
screen by version, the shared parts by version and language, a seat's own coins and cards by
what they show (:func:`app.web.phoneparts.mine`). Over every step of a few seeded random games,
each device's screen as the app serves it (its caches warm from the steps before) must be byte
for byte the screen drawn with nothing remembered. And a seat's remembered region is its own:
two seats at the same version each get their own hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playkit import nothing_remembered, played, screens
from tablekit import HTMX, make_app, started_table

from app.web.fragments import ALIKE_KEPT, Fragments

SEEDS = range(3)


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
