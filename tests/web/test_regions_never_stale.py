"""A screen's regions are never stale, and each is drawn from what it reads alone.

Each region of the tablet's and the phones' screens is remembered by what it reads of the
screen's view (:mod:`app.web.regions`, :mod:`app.web.screenregions`). Two properties, checked
at every version of random games that choose among every legal step, from the lobby (phones
opening, hands entered, a seat without a phone) through the winner's screen to the rematch's
lobby, in the table's language and another one a phone chose, with phones allowed to answer
or not, and with the decision timer running (on a stopped clock, so no second ticks between
two drawings):

- **never stale**: every device's screen as the app serves it, its caches warm from every
  version before, is byte for byte the screen drawn with nothing remembered;
- **drawn from what it reads**: each region placed on a screen is byte for byte its partial
  drawn from the whole screen's view (what it was before regions), drawn with nothing
  remembered, so nothing a region shows is missing from its key.

(The spectators' TV view has no regions: it is drawn whole, once per version.)
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask import g, render_template
from playkit import dealt, devices, next_step, nothing_remembered, screens, tap
from tablekit import Table, make_app, new_table, stop_the_clock

from app.web import phone, tablet
from app.web.screenregions import PHONE, TABLET

MAX_STEPS = 400
SETUPS = [  # seed, the table's settings, a phone's own language, the decision timer
    (0, {"language": "en", "answers": "both"}, ("Bob", "ja"), "30"),
    (1, {"language": "ru", "answers": "tablet"}, ("Ann", "pt-BR"), ""),
    (2, {"language": "uk", "answers": "both"}, ("Cid", "en"), ""),
]


PLACED: set[str] = set()  # the regions the games placed, to see that each was checked


def same_as_fresh(table: Table) -> None:
    """Both properties, for every device of ``table`` at its version now."""
    served = screens(table)
    with nothing_remembered(table.app):
        assert served == screens(table)
        for region, html, whole in placed_regions(table):
            assert html == whole, region
            PLACED.add("seat row" if region.startswith("seat row") else region)


def placed_regions(table: Table) -> list[tuple[str, str, str]]:
    """(region, as placed, its partial drawn from the whole view) for each region each
    device's screen places now."""
    state, found = table.live(), []
    with table.app.test_request_context():
        g.language = state.table.language
        found += _placed(tablet.context(state), TABLET, "tablet/_tablet.html")
        for seat in state.seats:
            if seat.device is not None:
                g.language = seat.language or state.table.language
                found += _placed(phone.context(state, seat), PHONE, "phone/_phone.html")
    return found


def _placed(view: dict[str, Any], regions: dict[str, Any], screen: str
            ) -> list[tuple[str, str, str]]:
    place, asked = view["place"], []

    def recorded(name: str, part: str = "", **given: Any) -> Any:
        html = str(place(name, part, **given))
        whole = render_template(regions[name].template, **{**view, **given})
        asked.append((f"{name} {part}" if part else name, html, whole))
        return html

    render_template(screen, **{**view, "place": recorded})
    return asked


def lobby(tmp_path: Path, seed: int, settings: dict[str, str], chosen: tuple[str, str],
          timer: str) -> tuple[Table, dict[str, list[str] | None]]:
    """A table seated step by step, its screens checked after each step, then started."""
    rng = random.Random(seed)
    hands = dealt(rng)
    table = new_table(make_app(tmp_path / str(seed)), list(hands), **settings)
    same_as_fresh(table)
    for number, (name, hand) in enumerate(hands.items()):
        if hand is None:
            assert table.post(f"/seat/{number}/tracked", {"tracked": "0"}).status_code == 200
        else:
            assert table.open_phone(name).status_code == 200
            same_as_fresh(table)
            assert table.enter_hand(name, hand).status_code == 200
        same_as_fresh(table)
    who, language = chosen
    assert table.phone_post(who, "/language", {"language": language}).status_code == 200
    if timer:
        assert table.post("/night", {"timer": timer}).status_code == 200
    same_as_fresh(table)
    assert table.post("/start", {}).status_code == 200
    return table, hands


@pytest.mark.parametrize(("seed", "settings", "chosen", "timer"), SETUPS)
def test_regions_are_never_stale_from_lobby_to_rematch(tmp_path: Path, monkeypatch, seed: int,
                                                        settings: dict[str, str],
                                                        chosen: tuple[str, str], timer: str):
    table, hands = lobby(tmp_path, seed, settings, chosen, timer)
    stop_the_clock(table.app, monkeypatch, later=7)
    rng, on_phones = random.Random(seed), settings["answers"] == "both"
    for number in range(MAX_STEPS):
        same_as_fresh(table)
        step = next_step(table, rng)
        if step is None:
            break
        tap(table, step, hands, on_phone=on_phones and number % 2 == 0)
    assert table.live().game.over, "the game should reach its winner"
    assert table.post("/rematch", {}).status_code == 200
    same_as_fresh(table)
    assert all(client.get(f"{base}/view").status_code == 200 for client, base in devices(table))


def test_every_region_was_checked():
    """The games above placed (and so checked) every region of both screens."""
    if not PLACED:
        pytest.skip("run with the games above")
    assert set(TABLET) | set(PHONE) <= PLACED
