"""The timeline of six long-named players (issue 14, outside tester): every lane's name and
every word of a chip is drawn whole, on one line, smaller where its cell is narrow, on a tablet
(1024 x 768, 1280 x 800) and a TV (1920 x 1080); and the TV's timeline fits its screen,
shrinking its type when six lanes need more than the screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import (  # noqa: E402
    Shot,
    as_seat,
    coup_at_seven,
    play_out,
    tv_timeline,
    wider_than_the_screen,
)
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import Table, started_table  # noqa: E402

SIX_LONG = {"Alexandra": ["ambassador", "captain"], "Bartholomew": ["ambassador", "duke"],
            "Christopher": ["ambassador", "contessa"], "Maximilian": ["assassin", "captain"],
            "Evangeline": ["contessa", "captain"], "Konstantinos": ["duke", "assassin"]}

# Each lane name or chip word whose text is drawn on more than one line, into its chip's padding
# (or past its lane's heading), or in type smaller than the floor.
BROKEN = """(floor) => Array.from(document.querySelectorAll(
    'table.lanes .lane-name .name, table.lanes .chip .w')).filter(word => {
  const range = document.createRange();
  range.selectNodeContents(word);
  const lines = new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size;
  const box = word.closest('.chip, .lane-name'), style = getComputedStyle(box);
  const edge = box.getBoundingClientRect(), text = range.getBoundingClientRect();
  const right = edge.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
  return lines > 1 || text.right > right + 1 || text.left < edge.left
      || parseFloat(getComputedStyle(word).fontSize) < floor;
}).map(word => word.textContent + ' ' + getComputedStyle(word).fontSize)"""
FLOOR = 9  # px: the smallest a lane's name or a chip is drawn


def steals_and_coups(app: Any) -> Table:
    """Six long-named players, the three Ambassadors lost first: the first two steal with a
    Captain from the richest other player (named in the chip); then an Assassin's kill at 3
    coins, else Duke's tax, and a Coup at 7 coins: a game of 30 turns at most."""

    stole: set[str] = set()

    def declare(game: Any, me: Any, others: list[str], t: Table) -> dict[str, str]:
        if me.coins >= 7:
            return {"do": "coup", "by": me.name, "target": others[-1]}
        richest = max(others, key=lambda name: game.player(name).coins)
        if game.player(richest).coins >= 2 and len(stole) < 2 and me.name not in stole:
            stole.add(me.name)
            return {"do": "steal", "by": me.name, "target": richest}
        if me.coins >= 3:
            return {"do": "assassinate", "by": me.name, "target": others[0]}
        return {"do": "tax", "by": me.name}

    return play_out(started_table(app, SIX_LONG), declare, 600)


def test_six_long_names_and_their_chips_stay_whole_on_the_tablet_and_the_tv(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    t = steals_and_coups(live_app)
    page = open_timeline_of(live_server, new_context(viewport={"width": 1024, "height": 768}),
                            t, "Bartholomew")
    turns = page.locator("ol.turn-list > li").count()
    assert 11 <= turns <= 30, turns
    assert page.locator("table.lanes .chip.lose", has_text="Ambassador").count() >= 2
    assert page.locator("table.lanes .chip .w", has_text="→ Christopher").count() >= 1
    for width, height in ((1024, 768), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        screenshot(page, f"night-timeline-long-names-{width}")
        assert page.evaluate(BROKEN, FLOOR) == [], width
        assert wider_than_the_screen(page) == [], width

    tv = tv_timeline(t, new_context, live_server)
    screenshot(tv, "night-tv-timeline-long-names")
    assert tv.evaluate(BROKEN, FLOOR) == []
    assert fits_the_tv(tv)


def fits_the_tv(tv: Page) -> bool:
    """Nothing scrolls or is cut off on a 1920 x 1080 TV: every player's totals are on it."""
    height = tv.evaluate("() => document.documentElement.scrollHeight")
    assert height <= 1080, height
    totals = tv.locator("table.tallies")
    expect(totals).to_be_in_viewport(ratio=1)
    assert wider_than_the_screen(tv) == []
    return True


def test_a_tv_shrinks_a_crowded_timeline_to_fit_its_screen(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Issue 14 (outside tester): six players' lanes in three bands and more need more than
    1080 px in the style sheet's type: the TV draws them smaller until they fit, every
    player's totals included, and each word still whole."""

    t = play_out(started_table(live_app, SIX_LONG), coup_at_seven("tax"), 900)
    assert t.phone_post("Alexandra", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    turns = tv.locator("ol.turn-list > li").count()
    assert tv.locator("table.lanes").count() >= 3 and turns >= 30, turns
    screenshot(tv, "night-tv-timeline-crowded")
    assert fits_the_tv(tv)
    drawn = tv.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert drawn < 20, drawn  # the style sheet's 1.25rem, shrunk
    assert tv.evaluate(BROKEN, 6) == []


def test_a_tv_fits_a_hundred_turn_game_in_readable_type(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Outside testers: a game of 103 turns (six players: incomes, and a Coup at 7 coins) came
    out 1,111 px tall at 1920 x 1080, past the TV's smallest type. It fits, every player's
    totals on screen, every word whole and no smaller than the tablet's floor; a 1280 x 720
    TV shows it whole too."""
    hands: dict[str, list[str] | None] = {
        "Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
        "Cy": ["ambassador", "duke"], "Dee": ["captain", "contessa"],
        "Eve": ["assassin", "ambassador"], "Fay": ["duke", "contessa"]}

    t = play_out(started_table(live_app, hands), coup_at_seven("income"), 900)
    assert t.phone_post("Ann", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    turns = tv.locator("ol.turn-list > li").count()
    assert turns >= 100, turns
    expect(tv.locator("table.lanes").last.locator("thead th").last).to_have_text(str(turns))
    screenshot(tv, "night-tv-timeline-103-turns")
    assert fits_the_tv(tv)
    assert tv.evaluate(BROKEN, FLOOR) == []
    drawn = tv.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert drawn >= 11, drawn
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.wait_for_function("() => document.documentElement.scrollHeight <= 720")
    expect(tv.locator("table.tallies")).to_be_in_viewport(ratio=1)
    assert wider_than_the_screen(tv) == []
    screenshot(tv, "night-tv-timeline-103-turns-1280")


def test_the_longest_name_allowed_stays_whole(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
) -> None:
    """The longest name a player may have (24 letters) is drawn whole in its lane and in a
    Captain's steal, at the narrowest tablet."""
    hands: dict[str, list[str] | None] = {
        "Wolfgangmariaalexandrovi": ["captain", "duke"], "Al": ["duke", "contessa"]}

    def declare(game: Any, me: Any, others: list[str], t: Table) -> dict[str, str]:
        if me.coins >= 7:
            return {"do": "coup", "by": me.name, "target": others[0]}
        if me.name == "Al":
            return {"do": "tax", "by": me.name}
        if game.player(others[0]).coins >= 2:
            return {"do": "steal", "by": me.name, "target": others[0]}
        return {"do": "income", "by": me.name}

    t = play_out(started_table(live_app, hands), declare, 300)
    page = open_timeline_of(live_server, new_context(viewport={"width": 1024, "height": 768}),
                            t, "Al")
    assert page.evaluate(BROKEN, 0) == []


def open_timeline_of(live_server: str, context: BrowserContext, t: Table, name: str) -> Page:
    page = as_seat(context, live_server, t, name)
    page.goto(live_server + t.link(name) + "/timeline")
    if page.get_by_role("button", name="Open the timeline").count():
        page.get_by_role("button", name="Open the timeline").click()
    page.wait_for_load_state("load")
    return page
