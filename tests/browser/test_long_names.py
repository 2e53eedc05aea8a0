"""Long player names on the tablet's seats (grid and round, both tablet sizes, six and ten
seats, each seat as full as it gets) and on the TV: a name is drawn smaller where its seat is
narrow, never broken inside a word."""

from __future__ import annotations

from collections.abc import Callable

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import open_tv  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from test_round_table import FULLEST, LONGEST, SIZES, shot, untracked_reformation  # noqa: E402

LONG = ["Bartholomew", "Konstantinos", "Alexandrina", "Maximiliano", "Christopher",
        "Александра", "Gwendolyn", "Константин", "Evangeline", "Jo"]

# Each seat whose player's name is drawn on more than one line, smaller than the floor, or
# past its seat's edge.
BROKEN_SEAT_NAMES = """([where, floor]) => Array.from(document.querySelectorAll(where))
.filter(who => {
    const range = document.createRange();
    range.selectNodeContents(who);
    const lines = new Set(Array.from(range.getClientRects(), q => Math.round(q.top))).size;
    const seat = who.closest('li').getBoundingClientRect(), text = range.getBoundingClientRect();
    return lines > 1 || parseFloat(getComputedStyle(who).fontSize) < floor
        || text.right > seat.right - 2 || text.left < seat.left;
}).map(who => who.textContent + ' ' + getComputedStyle(who).fontSize)"""
NAME_FLOOR = 11  # px: the smallest a seat's name is drawn on the tablet (as a card's name)
TV_FLOOR = 14  # px: on the TV, ten seats side by side


def long_named_table(tablet: Page, players: int) -> None:
    """A Reformation table of ``players`` long-named seats without phones, started."""
    untracked_reformation(tablet, LONG[:players])


@pytest.mark.parametrize("players", [6, 10])
def test_long_names_stay_whole_on_the_tablet(tablet: Page, players: int) -> None:
    long_named_table(tablet, players)
    tablet.evaluate(FULLEST, LONGEST)
    for layout in ("grid", "round"):
        for size, (width, height) in SIZES.items():
            tablet.set_viewport_size({"width": width, "height": height})
            tablet.evaluate("() => window.scrollTo(0, 0)")
            shot(tablet, f"long-names-{layout}-{players}-{size}")
            broken = tablet.evaluate(BROKEN_SEAT_NAMES, ["#seats > li h2 .who", NAME_FLOOR])
            assert broken == [], (layout, players, size)
        tablet.get_by_role("button", name="Round table").click()


@pytest.mark.parametrize("players", [6, 10])
def test_long_names_stay_whole_on_the_tv(tablet: Page, new_context: Callable[..., BrowserContext],
                                         players: int) -> None:
    long_named_table(tablet, players)
    tv = open_tv(tablet, new_context)
    expect(tv.locator(".tv-seats")).to_be_visible()
    shot(tv, f"long-names-tv-{players}")
    assert tv.evaluate(BROKEN_SEAT_NAMES, [".tv-seats .seat h2 .who", TV_FLOOR]) == [], players
