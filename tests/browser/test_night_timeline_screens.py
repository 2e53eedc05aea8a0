"""Game night's timeline in a real browser: opened after the game on the tablet and a
phone, refused mid-game, and a long game's lanes fit a phone, a tablet and a TV.

Games are played through the test client on the live server's own app (quicker than tapping
through a whole game); the browser then opens the screens a person would (nightscreenkit.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import (  # noqa: E402
    HANDS,
    LIVE_MS,
    Shot,
    as_referee,
    as_seat,
    long_game,
    play_out,
    tv_link,
    tv_timeline,
    wider_than_the_screen,
)
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import Table, finished_game, started_table  # noqa: E402


def test_the_timeline_opens_after_the_game_on_the_tablet_and_a_phone(
    live_app: Any, live_server: str, tablet: Page, new_context: Callable[..., BrowserContext],
    playwright: Any, screenshot: Shot,
) -> None:
    t = finished_game(live_app)
    as_referee(tablet, t)
    tablet.get_by_role("link", name="Who bluffed when").click()
    expect(tablet.get_by_text("closes this game for good")).to_be_visible()
    tablet.get_by_role("button", name="Open the timeline").click()
    expect(tablet.locator("table.lanes").first.locator("tbody tr")).to_have_count(2)
    expect(tablet.locator("tr.lane.won th").first).to_contain_text("Ann")
    expect(tablet.locator("tr.lane").first.locator(".chip.claim.held").first).to_be_visible()
    expect(tablet.locator("table.lanes .chip.lose")).to_have_count(2)
    expect(tablet.locator("svg.spark polyline")).to_have_count(2)
    screenshot(tablet, "night-timeline-tablet")

    phone_context = new_context(**playwright.devices["Pixel 7"])
    bob = as_seat(phone_context, live_server, t, "Bob")
    bob.get_by_role("link", name="Who bluffed when").click()
    expect(bob.locator("ol.turn-list > li").first).to_be_visible()  # a phone: turns going down
    # nothing is wider than the phone: no sideways swipe
    bob.wait_for_load_state("load")  # measured with the style sheet applied (a busy machine)
    width = bob.evaluate("() => document.documentElement.scrollWidth")
    assert width <= bob.viewport_size["width"] + 1
    screenshot(bob, "night-timeline-phone")

    # a 390 x 844 phone: each player's totals stacked, nothing wider than the screen
    small = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                        device_scale_factor=2)
    ann = as_seat(small, live_server, t, "Ann")
    ann.goto(live_server + t.link("Ann") + "/timeline")
    ann.wait_for_load_state("load")
    totals = ann.locator("table.tallies")
    expect(totals.locator("tbody tr")).to_have_count(2)
    wide = totals.evaluate("(t) => [t.scrollWidth, t.getBoundingClientRect().right]")
    assert wide[0] <= 390 and wide[1] <= 390, wide
    expect(totals.locator("td[data-label='Challenges lost']").first).to_be_visible()
    totals.scroll_into_view_if_needed()
    screenshot(ann, "night-timeline-totals-390")



@pytest.mark.parametrize("size", [(390, 844), (1280, 800), (1920, 1080)])
def test_a_long_game_s_timeline_fits_the_width_of_a_phone_a_tablet_and_a_tv(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot, size: tuple[int, int],
) -> None:
    """Issue 14.1: 25 turns and more, read with vertical scrolling only: turns as rows on a
    phone, lanes in bands as wide as the screen on a tablet or a TV."""
    t = long_game(live_app)
    width, height = size
    context = new_context(viewport={"width": width, "height": height})
    page = as_seat(context, live_server, t, "Bob")
    page.goto(live_server + t.link("Bob") + "/timeline")
    if page.get_by_role("button", name="Open the timeline").count():
        page.get_by_role("button", name="Open the timeline").click()
    page.wait_for_load_state("load")
    turns = page.locator("ol.turn-list > li").count()
    assert turns >= 25, turns
    if width < 640:
        expect(page.locator("ol.turn-list")).to_be_visible()
        expect(page.locator("div.bands")).to_be_hidden()
    else:
        expect(page.locator("div.bands")).to_be_visible()
        expect(page.locator("ol.turn-list")).to_be_hidden()
        last = page.locator("table.lanes").last.locator("thead th").last
        expect(last).to_have_text(str(turns))  # the last turn is drawn, not cut off
        box = page.locator("div.bands").bounding_box()
        assert box is not None and box["width"] >= min(width, 1152) - 64, box
    assert wider_than_the_screen(page) == []
    screenshot(page, f"night-timeline-25-turns-{width}")


def test_a_phone_shows_no_empty_bar_before_the_first_ruling(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = started_table(live_app, {**HANDS, "Cleo": ["duke", "ambassador"]})
    context = new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                          has_touch=True)
    ann = as_seat(context, live_server, t, "Ann")
    expect(ann.locator("#table .others > li")).to_have_count(2)
    expect(ann.locator("#table ol.log")).to_be_hidden()
    assert t.post("/step", {"do": "income", "by": "Ann"}).status_code == 200
    expect(ann.locator("#table ol.log li").first).to_be_visible(timeout=LIVE_MS)
    screenshot(ann, "night-phone-first-ruling")


def test_the_timeline_is_refused_mid_game_in_the_browser(
    live_app: Any, tablet: Page
) -> None:
    t = started_table(live_app, HANDS)
    as_referee(tablet, t)
    expect(tablet.get_by_role("link", name="Who bluffed when")).to_have_count(0)
    response = tablet.goto(f"/t/{t.table_id}/timeline")
    assert response is not None and response.status == 409
    expect(tablet.get_by_role("alert")).to_contain_text("opens once the game is over")


def test_every_screen_on_the_timeline_follows_the_table_to_the_rematch(
    live_app: Any, live_server: str, tablet: Page, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Issue 14 (outside check): a TV waiting for the timeline shows it as soon as a player
    opens it (pushed, not polled), and the TV, the tablet and a phone left on the timeline go
    back to the live screen by themselves when the rematch's lobby opens: the phone offers its
    hand's form at once."""
    t = finished_game(live_app)
    link = tv_link(t)
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(live_server + link + "/timeline")
    expect(tv.get_by_text("once the referee or a player has opened it")).to_be_visible()
    as_referee(tablet, t)
    tablet.goto(live_server + t.url + "/timeline")
    bob = as_seat(new_context(viewport={"width": 390, "height": 844}), live_server, t, "Bob")
    bob.goto(live_server + t.link("Bob") + "/timeline")
    bob.get_by_role("button", name="Open the timeline").click()
    expect(bob.locator("main[data-shows=timeline]")).to_be_attached()
    for page in (tv, tablet):
        # well under the old poll's 10 s: the stream told it
        expect(page.locator("main[data-shows=timeline]")).to_be_attached(timeout=LIVE_MS)
    screenshot(tv, "night-tv-timeline-pushed")

    assert t.post("/rematch", {}).status_code == 200
    expect(tv.locator("#tv h1")).to_have_text("The players are taking their seats",
                                              timeout=LIVE_MS)
    expect(tablet.locator("#tablet")).to_be_visible(timeout=LIVE_MS)
    expect(bob.locator("#phone")).to_be_visible(timeout=LIVE_MS)
    expect(bob.get_by_role("button", name="Save my hand")).to_be_visible()
    screenshot(bob, "night-phone-back-to-the-rematch")
    screenshot(tv, "night-tv-back-to-the-rematch")


def quick_coups(app: Any) -> Table:
    """A finished game of four players, 25 turns or so: Ann takes Tax, the others Foreign
    Aid (nobody challenges or blocks), and whoever has 7 coins launches a Coup."""

    def declare(game: Any, me: Any, others: list[str], t: Table) -> dict[str, str]:
        if me.coins >= 7:
            return {"do": "coup", "by": me.name, "target": others[-1]}
        return {"do": "tax" if me.name == "Ann" else "foreign_aid", "by": me.name}

    return play_out(started_table(app, {
        "Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
        "Cy": ["ambassador", "duke"], "Dan": ["captain", "contessa"]}), declare, 300)


def test_a_tv_shows_a_25_turn_timeline_on_one_screen(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Issue 14 (outside check): on a 1920 x 1080 TV the timeline of a game of 25 turns and
    more, four players, fits with no scrolling, the per-player totals included, and its chips
    are in type read from across a room."""
    t = quick_coups(live_app)
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    turns = tv.locator("ol.turn-list > li").count()
    assert 25 <= turns <= 30, turns
    expect(tv.locator("table.lanes").last.locator("thead th").last).to_have_text(str(turns))
    height = tv.evaluate("() => document.documentElement.scrollHeight")
    screenshot(tv, "night-tv-timeline-25-turns")
    assert height <= 1080, height
    totals = tv.locator("table.tallies")
    expect(totals.locator("tbody tr")).to_have_count(4)
    box = totals.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080, box
    expect(totals).to_be_in_viewport(ratio=1)
    chip = tv.locator("table.lanes .chip").first
    size = chip.evaluate("(c) => parseFloat(getComputedStyle(c).fontSize)")
    assert size >= 18, size  # the phone's and tablet's chips are 13.6 px
    assert wider_than_the_screen(tv) == []
    screenshot(tv, "night-tv-timeline-25-turns")


def test_the_tablet_s_winner_screen_shows_the_night_and_the_timeline_above_the_fold(
    live_app: Any, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    """Issue 14 (outside check): at 1280 x 800, four players, the night's scoreboard and "Who
    bluffed when" stand beside "New game, same table", above the rulings and the fold."""
    t = quick_coups(live_app)
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    as_referee(page, t)
    rematch = page.get_by_role("button", name="New game, same table")
    expect(rematch).to_be_visible()
    for shown in (page.locator("#tablet .scores"),
                  page.get_by_role("link", name="Who bluffed when")):
        expect(shown).to_have_count(1)
        expect(shown).to_be_in_viewport(ratio=1)
        box = shown.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 800, box
    expect(page.locator("#tablet .scores li.leads")).to_contain_text("Ann")
    log = page.locator("#tablet .log").first
    if log.count():
        log_box, scores_box = log.bounding_box(), page.locator("#tablet .scores").bounding_box()
        assert log_box and scores_box and scores_box["y"] < log_box["y"]
    # the sticky prompt, taller now, never slides over the night's tools
    night, prompt = page.locator("#night").bounding_box(), page.locator("#prompt").bounding_box()
    assert night and prompt and night["x"] + night["width"] <= prompt["x"], (night, prompt)
    screenshot(page, "night-tablet-winner-1280")


def test_a_phone_refused_the_timeline_mid_game_goes_back_to_its_seat(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Issue 14 (outside tester): the refusal's one button leads the phone back to its seat,
    never to the start page (the referee's New table form)."""
    t = started_table(live_app, HANDS)
    bob = as_seat(new_context(viewport={"width": 390, "height": 844}), live_server, t, "Bob")
    response = bob.goto(live_server + t.link("Bob") + "/timeline")
    assert response is not None and response.status == 409
    expect(bob.get_by_role("link", name="Start page")).to_have_count(0)
    screenshot(bob, "night-phone-timeline-refused")
    bob.get_by_role("link", name="Back to the game").click()
    expect(bob.locator("#phone")).to_be_visible()
