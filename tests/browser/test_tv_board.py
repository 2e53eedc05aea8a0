"""The spectators' board on a TV, as outside testers looked at it from the sofa: a player who
is out is said to be out, in the table's language, as on the tablet; the live board uses the
whole screen, in type read from across the room, and never scrolls; and the timeline of a long
game's chips are no smaller than the screen's height makes them.

Games are played through the test client on the live server's own app; the TV is a browser
of its own on the spectators' link (nightscreenkit.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import (  # noqa: E402
    SIX,
    Shot,
    coup_until,
    play_out,
    tv_link,
    tv_timeline,
    wider_than_the_screen,
)
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import started_table  # noqa: E402
from test_night_tv_screens import coup_until_out  # noqa: E402
from test_timeline_whole_words import BROKEN, FLOOR, fits_the_tv  # noqa: E402

OUT = {"en": "out", "ru": "вне игры", "uk": "поза грою", "pt-BR": "fora", "ja": "脱落"}

# Each seat's coins line (or "out") drawn on more than one line or past its seat's edge.
CUT_LINES = """() => Array.from(document.querySelectorAll('.tv-seats .seat .coins')).filter(p => {
  const range = document.createRange();
  range.selectNodeContents(p);
  const lines = new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size;
  const seat = p.closest('li').getBoundingClientRect(), text = range.getBoundingClientRect();
  return lines > 1 || text.right > seat.right - 2 || text.left < seat.left;
}).map(p => p.textContent)"""


def tv_of(t: Any, live_server: str, new_context: Callable[..., BrowserContext],
          size: tuple[int, int]) -> Page:
    width, height = size
    tv = new_context(viewport={"width": width, "height": height}).new_page()
    tv.goto(live_server + tv_link(t))
    tv.wait_for_load_state("load")
    return tv


@pytest.mark.parametrize(("players", "language", "size"), [
    (4, "en", (1920, 1080)), (6, "ru", (1280, 720)), (6, "uk", (1920, 1080)),
    (3, "ja", (1920, 1080)), (3, "pt-BR", (1280, 720)),
])
def test_the_tv_says_out_for_a_player_who_is_out(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot, players: int, language: str, size: tuple[int, int],
) -> None:
    """Outside tester: the TV said nothing like "out" for a player who is out. It says so where
    the coins stood, in the table's language, as the tablet does, on one line inside the seat;
    the other seats still show their coins."""
    hands = dict(list(SIX.items())[:players])
    t = started_table(live_app, hands, language=language)
    tv = tv_of(t, live_server, new_context, size)
    seats = tv.locator("#tv .tv-seats > li")
    expect(seats).to_have_count(players)
    victim = list(hands)[-1]
    coup_until_out(t, victim)
    out = tv.locator("#tv .tv-seats > li.out")
    tv.reload()  # the board as drawn now (its live follow is test_night_tv_screens.py's)
    tv.wait_for_load_state("load")
    expect(out).to_have_count(1)
    expect(out.locator("h2")).to_contain_text(victim)
    expect(out.locator(".coins")).to_have_text(OUT[language])
    expect(out.locator(".coins .status")).to_have_count(1)
    expect(tv.locator("#tv .tv-seats > li:not(.out) .coins .status")).to_have_count(0)
    screenshot(tv, f"tv-board-out-{players}-{language}-{size[0]}")
    assert tv.evaluate(CUT_LINES) == []


def coup_until_lost(t: Any, victim: str, cards: int) -> None:
    """Incomes, and a Coup against ``victim`` by whoever has 7 coins, until ``victim`` has
    lost ``cards`` cards (turned up the first it holds)."""
    coup_until(t, victim, lambda player: len(player.revealed) >= cards)


# Each ruling on the TV drawn only in part: cut by the bottom of the rulings' box or the screen.
CUT_RULINGS = """() => {
  const box = document.querySelector('.tv-rulings').getBoundingClientRect();
  const foot = Math.min(box.bottom, window.innerHeight);
  return Array.from(document.querySelectorAll('.tv-log li')).filter(li => {
    if (getComputedStyle(li).visibility === 'hidden' || li.hidden) return false;
    const r = li.getBoundingClientRect();
    return r.height > 0 && r.top < foot && r.bottom > foot + 1;
  }).map(li => li.textContent);
}"""

# How far down the screen the lowest thing drawn on the board reaches (px).
LOWEST = """() => Math.max(...Array.from(
    document.querySelectorAll('#tv .tv-seats > li, #tv .waiting, #tv .tv-log li'))
  .filter(e => getComputedStyle(e).visibility !== 'hidden' && !e.hidden)
  .map(e => e.getBoundingClientRect().bottom).filter(b => b <= window.innerHeight))"""


def px(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate(
        "(e) => parseFloat(getComputedStyle(e).fontSize)"))


@pytest.mark.parametrize(("players", "language", "size"), [
    (2, "en", (1920, 1080)), (4, "en", (1920, 1080)), (4, "ru", (1920, 1080)),
    (6, "en", (1920, 1080)), (6, "ru", (1280, 720)), (3, "ja", (1280, 720)),
])
def test_the_tv_s_live_board_fills_the_screen(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot, players: int, language: str, size: tuple[int, int],
) -> None:
    """Outside tester: during a game the live board left the lower two thirds of a 1920 x 1080
    TV empty. The seats are drawn in type that grows with the screen (as far as their width
    lets them), the waiting line and the newest ruling larger, and the rulings reach down to
    the screen's foot, whole ones only; nothing scrolls or is cut at the side, and no hidden
    card shows. A player who has lost one card and one who is out, by then."""
    hands = dict(list(SIX.items())[:players])
    if players == 2:  # one out ends a game of two: Ann loses a card, Bob none
        hands = dict(list(SIX.items())[:3])
    t = started_table(live_app, hands, language=language)
    names = list(hands)
    coup_until_lost(t, names[-1], 2)
    if players > 2:
        coup_until_lost(t, names[0], 1)
    tv = tv_of(t, live_server, new_context, size)
    width, height = size
    game = t.live().game
    expect(tv.locator("#tv .tv-seats > li")).to_have_count(len(hands))
    expect(tv.locator("#tv .tv-log li")).to_have_count(12)
    screenshot(tv, f"tv-board-live-{players}-{language}-{width}")
    assert tv.evaluate("() => document.documentElement.scrollHeight") <= height
    assert wider_than_the_screen(tv) == []
    assert tv.evaluate(CUT_RULINGS) == []
    # only what the table has seen: the face-up cards lost, every other card face down
    shown = sum(len(p.revealed) for p in game.players)
    expect(tv.locator("#tv .card.up")).to_have_count(shown)
    expect(tv.locator("#tv .card.back")).to_have_count(2 * len(hands) - shown)
    # four seats and fewer grow to their type's height limit; six, to their width's
    seats = tv.locator("#tv .tv-seats").bounding_box()
    assert seats is not None and seats["height"] >= (0.3 if players > 4 else 0.4) * height
    assert tv.evaluate(LOWEST) >= 0.9 * height
    scale = height / 1080
    assert px(tv, "#tv .tv-seats > li") >= 45 * scale
    if players <= 4:  # six seats side by side: the coins as large as "10 монет" fits (17cqi)
        assert px(tv, "#tv .tv-seats .coins") >= 60 * scale
    coins = tv.evaluate("() => Array.from(document.querySelectorAll('.tv-seats .coins'),"
                        " p => Math.round(p.getBoundingClientRect().top))")
    assert len(set(coins)) == 1, coins  # level, a long name or not
    assert px(tv, "#tv .waiting") >= 40 * scale
    assert px(tv, "#tv .tv-log li") >= 40 * scale  # the newest


def mixed_game(game: Any, me: Any, others: list[str], t: Any) -> dict[str, str]:
    """A game as a table plays it: a Coup at 7 coins; every eleventh step a steal from the
    richest other player, else an Assassin's kill now and then; else a tax or foreign aid, by
    turns. Every claim and block is let stand."""
    step = len(t.steps())
    if me.coins >= 7:
        return {"do": "coup", "by": me.name, "target": others[-1]}
    richest = max(others, key=lambda name: game.player(name).coins)
    if step % 11 == 0 and game.player(richest).coins >= 2:
        return {"do": "steal", "by": me.name, "target": richest}
    if me.coins >= 3 and step % 11 == 0:
        return {"do": "assassinate", "by": me.name, "target": others[0]}
    return {"do": "tax" if step % 2 == 0 else "foreign_aid", "by": me.name}


# The font size of each chip's words on the timeline's lanes (px), smallest first.
CHIP_SIZES = """() => Array.from(document.querySelectorAll('table.lanes .chip'), chip =>
    parseFloat(getComputedStyle(chip.querySelector('.fit') || chip).fontSize))
  .sort((a, b) => a - b)"""


def test_a_long_game_s_chips_on_the_tv_are_no_smaller_than_its_plain_ones(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Outside tester: the TV's timeline of a six-player game of 62 turns fit, but its chips
    were 8 to 11 px. A steal or a Coup aimed at "Dmitri Alexandrovich" was drawn smallest:
    the arrow and the whole name one unbreakable unit, shrunk to a narrow turn's width. The
    name now breaks between its words (never inside one), so those chips are drawn as large
    as the rest, which the screen's height sets (tablet.js)."""
    t = play_out(started_table(live_app, SIX), mixed_game, 2000)
    assert t.phone_post("Ann", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    turns = tv.locator("ol.turn-list > li").count()
    assert 55 <= turns <= 70, turns
    expect(tv.locator("table.lanes .chip .w", has_text="→ Dmitri")).not_to_have_count(0)
    screenshot(tv, "tv-board-timeline-61-turns")
    assert fits_the_tv(tv)
    assert tv.evaluate(BROKEN, FLOOR) == []  # the lanes' names too (test_tv_timeline.py)
    sizes = tv.evaluate(CHIP_SIZES)
    assert sizes[0] >= 11.5, sizes[:10]
