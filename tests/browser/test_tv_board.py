"""The spectators' board on a TV, as outside testers looked at it from the sofa: a player who
is out is said to be out, in the table's language, as on the tablet.

Games are played through the test client on the live server's own app; the TV is a browser
of its own on the spectators' link (nightscreenkit.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import SIX, Shot, tv_link  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import started_table  # noqa: E402
from test_night_tv_screens import coup_until_out  # noqa: E402

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
