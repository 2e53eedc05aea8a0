"""Game night's spectators' board in a real browser: it follows the game live with no
control, shows the night's scoreboard at the game's end, and its winner screen fits.

Games are played through the test client on the live server's own app (quicker than tapping
through a whole game); the browser then opens the screens a person would (nightscreenkit.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import (  # noqa: E402
    HANDS,
    LIVE_MS,
    SIX,
    Shot,
    as_referee,
    coup_until,
    long_game,
    night_settings,
    open_tv,
    tv_link,
    tv_timeline,
    wider_than_the_screen,
)
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import finished_game, new_table, started_table  # noqa: E402


def test_the_tv_follows_the_game_live_and_shows_no_control(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = started_table(live_app, {**HANDS, "Cy": None})
    as_referee(tablet, t)
    tablet.get_by_text("Game night").click()
    link = tablet.locator(".watch a").get_attribute("href")
    assert link and "/w/" in link
    qr = tablet.locator(".watch img.qr")
    expect(qr).to_be_visible()
    assert tablet.evaluate("(img) => img.naturalWidth > 0", qr.element_handle())
    screenshot(tablet, "night-tablet-tools")

    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(link)
    expect(tv.locator("#tv h1")).to_contain_text("Ann’s turn")
    expect(tv.locator("#tv")).to_contain_text("Ann to declare an action")
    expect(tv.locator("form, button")).to_have_count(0)
    assert tv.locator(".card.back").count() == 6
    for card in ("duke", "captain", "contessa", "assassin"):
        expect(tv.locator(f".card-{card}")).to_have_count(0)
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    expect(tv.locator("#tv .tv-log")).to_contain_text("Ann", timeout=LIVE_MS)
    expect(tv.locator("#tv .waiting")).to_contain_text("challenge", timeout=LIVE_MS)
    screenshot(tv, "night-tv")


def test_the_tv_shows_the_night_s_scoreboard_at_the_game_s_end(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = finished_game(live_app)
    night_settings(t, target="3")
    as_referee(tablet, t)
    tv = open_tv(tablet, new_context)
    expect(tv.locator("#tv h1")).to_contain_text("Ann wins!")
    scores = tv.locator("#tv .scores")
    expect(scores).to_contain_text("first to 3 wins")
    expect(scores.locator("li.leads")).to_contain_text("Ann")
    box = scores.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080  # above the fold of the TV
    screenshot(tv, "night-tv-scores")




@pytest.mark.parametrize(("players", "language", "size"), [
    (2, "pt-BR", (1920, 1080)), (4, "en", (1920, 1080)), (6, "en", (1920, 1080)),
    (4, "en", (1280, 720)), (6, "ru", (1280, 720)),
])
def test_the_tv_s_winner_screen_fits_without_scrolling(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
    players: int, language: str, size: tuple[int, int],
) -> None:
    """Issue 14.2: a TV can't scroll. Every seat, the night's scoreboard and its winner line,
    and the newest rulings are above the fold; the seats use the whole width."""
    t = long_game(live_app, dict(list(SIX.items())[:players]), language=language)
    night_settings(t, target="1")
    as_referee(tablet, t)
    tablet.locator("details.night-tools > summary").click()
    link = tablet.locator(".watch a").get_attribute("href")
    assert link
    width, height = size
    tv = new_context(viewport={"width": width, "height": height}).new_page()
    tv.goto(link)
    tv.wait_for_load_state("load")
    expect(tv.locator("#tv .tv-seats > li")).to_have_count(players)
    wanted = ["#tv h1", "#tv .scores", "#tv .scores .champion", "#tv .tv-log li >> nth=0",
              *(f"#tv .tv-seats > li >> nth={i}" for i in range(players))]
    for selector in wanted:
        box = tv.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["y"] + box["height"] <= height, (selector, box)
        assert box["x"] + box["width"] <= width, (selector, box)
    seats = tv.locator("#tv .tv-seats").bounding_box()
    assert seats is not None and seats["width"] >= width * 0.85, seats
    assert tv.evaluate("() => document.documentElement.scrollHeight") <= height
    assert wider_than_the_screen(tv) == []
    screenshot(tv, f"night-tv-{players}-{language}-{width}")


CARD_NAMES_CUT = """() => [...document.querySelectorAll('.tv-seats .card.up .name')].filter(n => {
  const range = document.createRange();
  range.selectNodeContents(n);
  const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  const card = n.closest('.card').getBoundingClientRect(), text = range.getBoundingClientRect();
  return lines > 1 || text.left < card.left || text.right > card.right + 1
    || text.top < card.top || text.bottom > card.bottom + 1;
}).map(n => n.textContent)"""


def coup_until_out(t: Any, victim: str) -> None:
    """Incomes, and a Coup against ``victim`` by whoever has 7 coins, until ``victim`` is out:
    the loser turns up the first card it holds."""
    coup_until(t, victim, lambda player: player.out)


@pytest.mark.parametrize(("players", "language", "size"), [
    (4, "en", (1920, 1080)), (4, "ru", (1920, 1080)), (6, "ru", (1280, 720)),
])
def test_the_tv_s_seats_keep_their_height_when_a_player_goes_out(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot, players: int, language: str, size: tuple[int, int],
) -> None:
    """Outside testers: the TV's row of seats grew by about 90 px when the first player went
    out (both cards face up, one above the other). It keeps its height through the game, and
    every face-up card's name is whole on one line inside its card (the Russian box's longest
    names: "Полицейский", "Губернатор")."""
    hands = dict(list(SIX.items())[:players])
    edition = {"ru": "la_mame_ru_2015"}.get(language, "official")
    t = started_table(live_app, hands, language=language, edition=edition)
    width, height = size
    tv = new_context(viewport={"width": width, "height": height}).new_page()
    tv.goto(live_server + tv_link(t))
    tv.wait_for_load_state("load")
    row = tv.locator("#tv .tv-seats")
    expect(row.locator("> li")).to_have_count(players)
    steady = [row.evaluate("(r) => r.getBoundingClientRect().height")]
    victim = list(hands)[-1]
    coup_until_out(t, victim)
    tv.reload()  # the board as drawn now (its live follow is the tests' above)
    tv.wait_for_load_state("load")
    expect(row.locator("> li.out .card.up")).to_have_count(2)
    steady.append(row.evaluate("(r) => r.getBoundingClientRect().height"))
    screenshot(tv, f"night-tv-seats-one-out-{players}-{language}-{width}")
    assert abs(steady[1] - steady[0]) <= 1, steady
    assert tv.evaluate(CARD_NAMES_CUT) == []
    assert tv.evaluate("() => document.documentElement.scrollHeight") <= height


def test_the_tv_follows_the_table_from_the_winner_screen_into_the_timeline(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Issue 14 (outside tester): a TV left on the winner's screen shows the timeline by itself
    as soon as a phone opens it (pushed by the stream, well within LIVE_MS)."""
    t = finished_game(live_app)
    found = re.search(r'href="(?:https?://[^/"]+)?(/w/[^"]+)"', t.page())
    assert found, "no spectators' link on the tablet"
    link = found.group(1)
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(live_server + link)
    expect(tv.locator("#tv h1")).to_contain_text("Ann wins!")
    screenshot(tv, "night-tv-winner-before-timeline")
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    expect(tv.locator("main[data-shows=timeline]")).to_be_attached(timeout=LIVE_MS)
    assert tv.url.endswith(link + "/timeline")
    screenshot(tv, "night-tv-winner-into-timeline")


def lowest(page: Page, selector: str) -> float:
    """How far down the page the bottom of the lowest of ``selector`` is (px)."""
    return float(page.evaluate(
        "(s) => Math.max(...[...document.querySelectorAll(s)].map("
        "(e) => e.getBoundingClientRect().bottom))", selector))


def test_a_short_game_s_timeline_fills_the_tv(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Issue 14 (outside tester): a 13-turn game of two used the top third of 1920 x 1080; its
    type grows until the page fills most of the screen, still unscrolled and uncut."""
    t = finished_game(live_app)
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    expect(tv.locator("table.tallies")).to_be_visible()
    screenshot(tv, "night-tv-timeline-short")
    assert tv.evaluate("() => document.documentElement.scrollHeight") <= 1080
    assert lowest(tv, "main.timeline > *") >= 1080 * 0.75
    assert wider_than_the_screen(tv) == []
    chip = tv.locator("table.lanes .chip").first
    assert chip.evaluate("(c) => parseFloat(getComputedStyle(c).fontSize)") >= 30


@pytest.mark.parametrize("players", [2, 6])
def test_the_tv_s_lobby_fills_the_screen(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
    players: int,
) -> None:
    """Issue 14 (outside tester): the lobby's names (and, after a game, the night's scoreboard)
    in type read from the sofa, filling the screen's height, with no scrolling."""
    if players == 2:
        t = finished_game(live_app)
        night_settings(t, target="2")
        assert t.post("/rematch", {}).status_code == 200
    else:
        t = new_table(live_app, list(SIX))
    as_referee(tablet, t)
    tv = open_tv(tablet, new_context)
    expect(tv.locator("#tv h1")).to_have_text("The players are taking their seats")
    tv.wait_for_load_state("load")
    screenshot(tv, f"night-tv-lobby-{players}")
    assert tv.evaluate("() => document.documentElement.scrollHeight") <= 1080
    assert lowest(tv, "#tv > *:not([hidden])") >= 1080 * 0.6
    names = tv.locator(".tv-names li").first
    assert names.evaluate("(n) => parseFloat(getComputedStyle(n).fontSize)") >= 48
    assert wider_than_the_screen(tv) == []
