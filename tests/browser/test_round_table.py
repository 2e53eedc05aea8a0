"""The round table at a tablet's sizes: no seat covers the bar's buttons, the prompt or another
seat, and every seat is on screen, even when each seat shows the most it ever shows (a "no phone"
tag, "Your move", two cards face up, a faction and "out"), and no card's name breaks in two."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, seat, settle, start, watch  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

from app.editions import EDITIONS  # noqa: E402
from app.web.pieces import card_face  # noqa: E402

SIZES = {"1280x800": (1280, 800), "1024x768": (1024, 768)}
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo"]
SEAT_COUNTS = range(2, 11)  # Reformation seats 2 to 10 players
NAME_FLOOR = 11  # px: the smallest a face-up card's name is drawn (README, design choices)
BACK_FLOOR = (37, 51)  # px: a face-down card in the grid is at least this wide and tall

# The fullest a seat gets, as the server draws it (two face-up cards, a faction, "out"): the
# game's own screens reach it only at the end of a long game, so the test fills each seat.
FULLEST = """([first, second]) => {
    const badge = '<p class="to-act must">Must answer</p>';
    const side = '<p class="faction faction-reformist">Reformist</p>';
    document.querySelectorAll('#seats > li').forEach(li => {
        li.classList.add('out', 'acting');
        li.querySelector('.cards').innerHTML = first + second;
        if (!li.querySelector('.to-act'))
            li.querySelector('h2').insertAdjacentHTML('afterend', badge);
        if (!li.querySelector('.faction')) li.insertAdjacentHTML('beforeend', side);
        li.querySelector('.coins').innerHTML = '<span class="status">out</span>';
    });
}"""

# The commonest face-up seat: one card lost (the longest name), one still face down.
ONE_UP = """card => document.querySelectorAll('#seats > li .cards').forEach(cards => {
    cards.innerHTML = '<span class="card back"></span>' + card;
})"""

# Each face-up card whose name is drawn on more than one line.
BROKEN_NAMES = """() => Array.from(document.querySelectorAll('#seats .card.up .name')).filter(n => {
    const range = document.createRange();
    range.selectNodeContents(n);
    return new Set(Array.from(range.getClientRects(), q => Math.round(q.top))).size > 1;
}).map(n => n.closest('li').querySelector('h2').textContent.trim() + ': ' + n.textContent)"""

# Each face-up card's name drawn smaller than the floor, with its size.
SMALL_NAMES = """floor => Array.from(document.querySelectorAll('#seats .card.up .name'))
    .map(n => [n.textContent, parseFloat(getComputedStyle(n).fontSize)])
    .filter(([, size]) => size < floor).map(([name, size]) => name + ': ' + size + 'px')"""

# Each face-up card whose name (its drawn text) runs past the card's edges.
SPILLED_NAMES = """() => Array.from(document.querySelectorAll('#seats .card.up .name'))
.filter(n => {
    const range = document.createRange();
    range.selectNodeContents(n);
    const text = range.getBoundingClientRect(), card = n.closest('.card').getBoundingClientRect();
    return text.left < card.left - 0.5 || text.right > card.right + 0.5
        || text.top < card.top - 0.5 || text.bottom > card.bottom + 0.5;
}).map(n => n.closest('li').querySelector('h2').textContent.trim() + ': ' + n.textContent)"""

# Each face-down card smaller than [width, height].
SMALL_BACKS = """([w, h]) => Array.from(document.querySelectorAll('#seats .card.back'))
    .map(c => c.getBoundingClientRect()).filter(r => r.width < w - 0.5 || r.height < h - 0.5)
    .map(r => Math.round(r.width) + 'x' + Math.round(r.height))"""

# The two longest names a card has in any box (in characters), drawn on the fullest seats.
# Each as the server draws a face-up card in a seat (its sign, its name).
LONGEST = [str(card_face(card, name, "up")) for _length, name, card in sorted(
    (len(name), name, card) for box in EDITIONS.values() for card, name in box.cards.items())[-2:]]

# Every overlap and every edge that is crossed, measured in one go.
PROBLEMS = """() => {
    const box = e => e.getBoundingClientRect();
    const apart = (a, b) =>
        a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
    const seats = Array.from(document.querySelectorAll('#seats > li'));
    const bar = box(document.querySelector('.tools'));
    const prompt = box(document.querySelector('#prompt'));
    const problems = [];
    seats.forEach((li, i) => {
        const r = box(li), name = li.querySelector('h2').textContent.trim();
        const say = what => problems.push(name + what);
        if (!apart(r, bar)) say(' covers the bar');
        if (!apart(r, prompt)) say(' covers the prompt');
        if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight)
            say(' is off screen');
        seats.slice(i + 1).forEach(o => { if (!apart(r, box(o))) say(' overlaps a seat'); });
        li.querySelectorAll('.card').forEach(c => {
            const k = box(c);
            if (k.left < r.left || k.right > r.right || k.bottom > r.bottom)
                say("'s card sticks out");
        });
    });
    const tools = '.tools > .button, .tools > button, .tools > form > button, '
        + '.tools > details > summary';
    document.querySelectorAll(tools).forEach(b => {
        const k = box(b);
        if (!k.width) return;
        const hit = document.elementFromPoint(k.left + k.width / 2, k.top + k.height / 2);
        if (!hit || !b.contains(hit)) problems.push(b.textContent.trim() + ' misses its tap');
    });
    return problems;
}"""


def shot(page: Page, name: str) -> None:
    path = Path(__file__).resolve().parents[1] / "artifacts" / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))


def untracked_reformation(tablet: Page, names: list[str]) -> None:
    """A Reformation table of these players, every seat without a phone, started."""
    watch(tablet)
    tablet.goto("/")
    tablet.locator("details.settings > summary").first.click()
    tablet.locator("select[name=reformation]").select_option("true")
    tablet.locator("textarea[name=players]").fill("\n".join(names))
    tablet.get_by_role("button", name="Create the table").click()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    settle(tablet)  # a tap while the page just loaded holds its buttons would only flash
    for name in names:
        seat(tablet, name).get_by_role("button", name="No phone").click()
        expect(seat(tablet, name)).to_contain_text("No phone: untracked")
    start(Night(tablet), names[0])


def round_table(tablet: Page, players: int) -> None:
    """A Reformation table of ``players`` seats without phones, started, shown as a round table."""
    untracked_reformation(tablet, NAMES[:players])
    tablet.get_by_role("button", name="Round table").click()
    expect(tablet.locator("body.round-table")).to_have_count(1)


def legible(tablet: Page, where: tuple[object, ...], grid: bool = False) -> None:
    """Every face-up name whole, inside its card and at least NAME_FLOOR px; in the grid,
    backs card-sized."""
    assert tablet.evaluate(BROKEN_NAMES) == [], where
    assert tablet.evaluate(SPILLED_NAMES) == [], where
    assert tablet.evaluate(SMALL_NAMES, NAME_FLOOR) == [], where
    if grid:
        assert tablet.evaluate(SMALL_BACKS, list(BACK_FLOOR)) == [], where


@pytest.mark.parametrize("players", SEAT_COUNTS)
def test_round_table_seats_stay_clear_of_the_bar_the_prompt_and_each_other(
        tablet: Page, players: int) -> None:
    round_table(tablet, players)
    tablet.evaluate(FULLEST, LONGEST)
    for size, (width, height) in SIZES.items():
        tablet.set_viewport_size({"width": width, "height": height})
        tablet.evaluate("() => window.scrollTo(0, 0)")
        shot(tablet, f"round-table-{players}-{size}")
        assert tablet.evaluate(PROBLEMS) == [], (players, size)
        legible(tablet, ("round", players, size))
    tablet.get_by_role("button", name="Round table").click()  # back to the grid
    expect(tablet.locator("body.round-table")).to_have_count(0)
    for size, (width, height) in SIZES.items():
        tablet.set_viewport_size({"width": width, "height": height})
        shot(tablet, f"grid-fullest-{players}-{size}")
        legible(tablet, ("grid", players, size))


@pytest.mark.parametrize("players", SEAT_COUNTS)
def test_one_card_face_up_shows_its_whole_name_in_either_layout(tablet: Page,
                                                                players: int) -> None:
    """A seat with one card lost shows the longest name any box gives a card whole and
    legible, beside or above the face-down one, in the round layout and the grid, at both
    tablet sizes; the grid's backs keep a card's size."""
    round_table(tablet, players)
    tablet.evaluate(ONE_UP, LONGEST[-1])
    for layout in ("round", "grid"):
        for size, (width, height) in SIZES.items():
            tablet.set_viewport_size({"width": width, "height": height})
            tablet.evaluate("() => window.scrollTo(0, 0)")
            shot(tablet, f"one-up-{layout}-{players}-{size}")
            legible(tablet, (layout, players, size), grid=layout == "grid")
        tablet.get_by_role("button", name="Round table").click()


@pytest.mark.parametrize("players", [4, 10])
def test_a_player_going_out_leaves_the_seats_as_they_were(tablet: Page, players: int) -> None:
    """From one card face up to both face up and "out": no seat moves or grows, in either
    layout, at both sizes."""
    round_table(tablet, players)
    for layout in ("round", "grid"):
        tablet.evaluate(ONE_UP, LONGEST[-1])
        before = seat_boxes(tablet)
        tablet.evaluate(FULLEST, LONGEST)
        after = seat_boxes(tablet)
        assert before == after, (layout, players)
        tablet.get_by_role("button", name="Round table").click()


SEAT_BOXES = """() => Array.from(document.querySelectorAll('#seats > li'), li => {
    const r = li.getBoundingClientRect();
    return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; })"""


def seat_boxes(tablet: Page) -> dict[str, list[list[int]]]:
    found = {}
    for size, (width, height) in SIZES.items():
        tablet.set_viewport_size({"width": width, "height": height})
        tablet.evaluate("() => window.scrollTo(0, 0)")
        found[size] = tablet.evaluate(SEAT_BOXES)
    return found
