"""What the table must decide is on screen without scrolling at the tablets' sizes and a
phone's, a seat's "no phone" and "waiting for them" both read, the phone's undo line stays in
its log, and a disabled button looks disabled (issue 13, in a real browser)."""

from __future__ import annotations

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table, seat, start  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import (  # noqa: E402
    GOLD,
    SIZES,
    TWO,
    NewPhone,
    Shot,
    in_view,
    new_night,
    reformation_night,
    untracked_night,
    viewport_shot,
)


def badges_apart(page: Page, name: str) -> bool:
    """Whether a seat's "no phone" tag and its "Your move" badge are both shown and do
    not overlap (measured in one go: the screen may be replaced between two looks)."""
    return bool(page.evaluate("""name => {
        const seat = Array.from(document.querySelectorAll('#seats > li'))
            .find(li => li.querySelector('h2').textContent.trim().startsWith(name));
        const tag = seat && seat.querySelector('h2 .tag');
        const badge = seat && seat.querySelector('.to-act');
        if (!tag || !badge) return false;
        const a = tag.getBoundingClientRect(), b = badge.getBoundingClientRect();
        return a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
    }""", name))


# -- the prompt above the fold -----------------------------------------------------------------


def look_at_sizes(tablet: Page, name: str) -> None:
    """Screenshot the tablet as it first shows at each size; what the table must decide (the
    waiting line and the prompt's first button) is on screen without scrolling."""
    for size, (width, height) in SIZES.items():
        tablet.set_viewport_size({"width": width, "height": height})
        tablet.evaluate("() => window.scrollTo(0, 0)")
        viewport_shot(tablet, f"polish-tablet-{name}-{size}")
        assert in_view(tablet, "#prompt .waiting"), (name, size)
        if tablet.locator("#prompt button").count():
            assert in_view(tablet, "#prompt button"), (name, size)


@pytest.mark.parametrize("layout", ["grid", "round"])
def test_the_prompt_is_on_screen_without_scrolling(tablet: Page, new_phone: NewPhone,
                                                   layout: str) -> None:
    night = untracked_night(tablet, new_phone)
    if layout == "round":
        tablet.get_by_role("button", name="Round table").click()
    look_at_sizes(tablet, f"{layout}-declare")
    night.declare("Steal", "Eve")
    night.sync()
    look_at_sizes(tablet, f"{layout}-challenge")
    assert badges_apart(tablet, "Eve"), "'no phone' and 'Your move' overlap"
    bob = night.phone("Bob")
    bob.set_viewport_size({"width": 390, "height": 844})
    viewport_shot(bob, f"polish-phone-{layout}-challenge")
    assert in_view(bob, "#alert") and in_view(bob, "#answer button.challenge")
    night.tap("Nobody challenges")
    night.sync()
    look_at_sizes(tablet, f"{layout}-block")
    night.tap("Eve blocks with the Captain")
    night.sync()
    look_at_sizes(tablet, f"{layout}-block-challenge")
    night.tap("Ann challenges")
    night.sync()
    look_at_sizes(tablet, f"{layout}-untracked-answer")  # Eve has no phone: the tablet asks
    night.tap("Concedes")
    night.sync()
    look_at_sizes(tablet, f"{layout}-untracked-lose")


@pytest.mark.parametrize("layout", ["grid", "round"])
def test_the_reformation_declare_prompt_is_on_screen_with_converts_targets_open(
        tablet: Page, new_phone: NewPhone, layout: str) -> None:
    """Reformation's nine actions and Convert's targets, open, all show without scrolling."""
    reformation_night(tablet, new_phone, ["Ann", "Bob", "Cy", "Dee"])
    if layout == "round":
        tablet.get_by_role("button", name="Round table").click()
    tablet.locator("#prompt summary", has_text="Convert").click()
    expect(tablet.locator("#prompt details.targets[open] button.target").first).to_be_visible()
    for size, (width, height) in SIZES.items():
        tablet.set_viewport_size({"width": width, "height": height})
        tablet.evaluate("() => window.scrollTo(0, 0)")
        viewport_shot(tablet, f"polish-tablet-{layout}-reformation-convert-{size}")
        off = tablet.evaluate("""() => Array.from(document.querySelectorAll(
                '#prompt .actions button, #prompt .actions summary'))
            .filter(b => b.getClientRects().length)
            .map(b => [b.textContent.trim(), b.getBoundingClientRect()])
            .filter(([, r]) => r.top < 0 || r.bottom > innerHeight
                               || r.left < 0 || r.right > innerWidth)
            .map(([t]) => t)""")
        assert off == [], (layout, size)


def test_the_game_starts_at_the_top_of_the_tablet(tablet: Page) -> None:
    """Start is tapped at the bottom of a long lobby; the game shows from its top line."""
    tablet.set_viewport_size({"width": 1024, "height": 480})  # a tablet in landscape, zoomed
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
    create_table(tablet, names)
    for name in names:
        seat(tablet, name).get_by_role("button", name="No phone").click()
        expect(seat(tablet, name)).to_contain_text("No phone: untracked")
    tablet.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert tablet.evaluate("() => window.scrollY") > 0
    start(Night(tablet), "Ann")
    expect(tablet.get_by_role("heading", name="Ann’s turn")).to_be_in_viewport()
    assert tablet.evaluate("() => window.scrollY") == 0


def test_the_undo_line_stays_inside_the_phones_log(tablet: Page, new_phone: NewPhone,
                                                   screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, TWO)
    night.declare("Income")
    night.sync()
    tablet.once("dialog", lambda dialog: dialog.accept())
    tablet.locator(".tools").get_by_role("button", name="Undo").click()
    bob = night.phone("Bob")
    expect(bob.locator("#table .log li.undone")).to_be_visible()
    inside = bob.evaluate("""() => {
        const line = document.querySelector('#table .log li.undone');
        const panel = line.closest('.log').getBoundingClientRect();
        const mark = line.querySelector('.n').getBoundingClientRect();
        return mark.left >= panel.left && mark.right <= panel.right; }""")
    screenshot(bob, "polish-phone-undo-line")
    assert inside


# -- a disabled button looks disabled ----------------------------------------------------------


def test_a_disabled_gold_button_does_not_look_primary(tablet: Page, new_phone: NewPhone,
                                                      screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, {"Ann": ["captain", "contessa"], "Bob": TWO["Bob"]})
    night.declare("Tax")
    night.tap("Bob challenges")
    night.phone_open("Ann", "Tap to see your options")
    ann = night.phone("Ann")
    show = ann.locator("#phone").get_by_role("button", name="Show the Duke")
    concede = ann.locator("#phone").get_by_role("button", name="Concede")
    expect(show).to_be_disabled()
    expect(concede).to_be_enabled()  # the screen has settled
    look = "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).borderTopStyle]"
    background, border = show.evaluate(look)
    assert background != GOLD and border == "dashed"
    screenshot(ann, "polish-phone-disabled-proof")
