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


# -- a seat's badge beside its player's name ------------------------------------------------

# Six names as the outside tester's Russian table had them: short ones the badge covered the
# end of, and a long one drawn at 9 px beside it.
RUSSIAN = ["Борис", "Дмитрий", "Клеопатра", "Александра", "Святослав", "Ян"]
# The longest badge any language and box gives a seat: La Mame's "May block" (ru), one word
# of 13 letters that cannot wrap; Mosigra's "Может наложить вето" is as long, in three words.
LONGEST_BADGE = "Может заблокировать"
MARK_EVERY_SEAT = """words => document.querySelectorAll('#seats > li').forEach(li => {
    li.classList.add('acting', 'may');
    const badge = li.querySelector('.to-act');
    badge.className = 'to-act may';
    badge.textContent = words;
})"""
SEAT_HEIGHTS = "() => Array.from(document.querySelectorAll('#seats > li'), li => li.offsetHeight)"
# Each seat whose badge overlaps its player's name (the name's drawn text, not its box).
COVERED_NAMES = """() => Array.from(document.querySelectorAll('#seats > li')).filter(li => {
    const range = document.createRange();
    range.selectNodeContents(li.querySelector('h2 .who'));
    const name = range.getBoundingClientRect(), badge = li.querySelector('.to-act')
        .getBoundingClientRect();
    return !(name.right <= badge.left || badge.right <= name.left
             || name.bottom <= badge.top || badge.bottom <= name.top);
}).map(li => li.querySelector('h2 .who').textContent)"""
# Each seat whose badge leaves its seat, is cut short (an ellipsis), takes more than two
# lines, or breaks a word in two.
SPILLED_BADGES = """() => Array.from(document.querySelectorAll('#seats > li')).filter(li => {
    const badge = li.querySelector('.to-act'), seat = li.getBoundingClientRect();
    const box = badge.getBoundingClientRect(), text = badge.firstChild;
    const lines = range => new Set(Array.from(range.getClientRects(), q => Math.round(q.top))).size;
    const whole = document.createRange();
    whole.selectNodeContents(badge);
    let offset = 0, broken = false;
    for (const word of text.data.split(' ')) {
        const range = document.createRange();
        range.setStart(text, offset);
        range.setEnd(text, offset + word.length);
        broken = broken || lines(range) > 1;
        offset += word.length + 1;
    }
    return broken || lines(whole) > 2 || badge.scrollWidth > badge.clientWidth
        || box.right > seat.right || box.left < seat.left;
}).map(li => li.querySelector('h2 .who').textContent)"""


# Each word on a seat (its badge, "no phone", "Turn") drawn under the floor, with its size.
SMALL_SEAT_WORDS = """floor => Array.from(document.querySelectorAll(
    '#seats > li .to-act:not(.idle), #seats > li h2 .tag, #seats > li .turn-mark'))
  .map(w => [w.textContent.trim(), parseFloat(getComputedStyle(w).fontSize)])
  .filter(([, size]) => size < floor).map(([w, size]) => w + ': ' + size + 'px')"""


def test_a_seat_s_badge_never_covers_its_name_nor_moves_its_lines(tablet: Page) -> None:
    """Every seat marked with the longest badge, at both tablet sizes, in the grid and round:
    no badge covers a name, leaves its seat or is cut short (where the seat is too narrow for
    it on one line, it has two), every name stays whole and at least NAME_FLOOR px, and
    marking the seats changes no seat's height."""
    untracked_reformation(tablet, RUSSIAN)
    for layout in ("grid", "round"):
        for size, (width, height) in SIZES.items():
            tablet.set_viewport_size({"width": width, "height": height})
            tablet.reload()
            expect(tablet.locator("#seats > li")).to_have_count(len(RUSSIAN))
            idle = tablet.evaluate(SEAT_HEIGHTS)
            tablet.evaluate(MARK_EVERY_SEAT, LONGEST_BADGE)
            shot(tablet, f"long-badges-{layout}-{size}")
            where = (layout, size)
            assert tablet.evaluate(COVERED_NAMES) == [], where
            assert tablet.evaluate(SPILLED_BADGES) == [], where
            names = ["#seats > li h2 .who", NAME_FLOOR]
            assert tablet.evaluate(BROKEN_SEAT_NAMES, names) == [], where
            assert tablet.evaluate(SEAT_HEIGHTS) == idle, where
            assert tablet.evaluate(SMALL_SEAT_WORDS, NAME_FLOOR) == [], where
        tablet.get_by_role("button", name="Round table").click()
