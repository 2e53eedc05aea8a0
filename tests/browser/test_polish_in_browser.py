"""Polish found by a picky player after issue 13, in a real browser: what the table must decide
is on screen without scrolling at the tablets' and a phone's sizes, a seat's "no phone" and
"waiting for them" both read, a disabled button looks disabled, a refusal shows by the button
that caused it, and a half-made choice on a phone survives the other seats' steps and the
referee's changes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table, seat, seat_everyone, start  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

Shot = Callable[[Page, str], Path]
NewPhone = Callable[[], Page]

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"], "Dee": ["duke", "contessa"]}
SIZES = {"1280x800": (1280, 800), "1024x768": (1024, 768)}
GOLD = "rgb(242, 193, 78)"


def untracked_night(tablet: Page, new_phone: NewPhone, untracked: str = "Eve") -> Night:
    """Ann, Bob, Cy, Dee with phones and one seat played without a phone."""
    create_table(tablet, [*HANDS, untracked])
    seat(tablet, untracked).get_by_role("button", name="No phone").click()
    expect(seat(tablet, untracked)).to_contain_text("No phone: untracked")
    night = Night(tablet)
    seat_everyone(night, new_phone, HANDS)
    start(night, "Ann")
    return night


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport as the page first shows it."""
    return bool(page.evaluate("""s => { const e = document.querySelector(s);
        if (!e) return false; const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""", selector))


def badges_apart(page: Page, name: str) -> bool:
    """Whether a seat's "no phone" tag and its "Waiting for them" badge are both shown and do
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


def viewport_shot(page: Page, name: str) -> Path:
    path = Path(__file__).resolve().parents[1] / "artifacts" / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    return path


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
    assert badges_apart(tablet, "Eve"), "'no phone' and 'Waiting for them' overlap"
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
    create_table(tablet, ["Ann", "Bob"])
    night = Night(tablet)
    seat_everyone(night, new_phone, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    start(night, "Ann")
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


# -- a disabled button looks disabled ---------------------------------------------------------


def test_a_disabled_gold_button_does_not_look_primary(tablet: Page, new_phone: NewPhone,
                                                      screenshot: Shot) -> None:
    create_table(tablet, ["Ann", "Bob"])
    night = Night(tablet)
    seat_everyone(night, new_phone, {"Ann": ["captain", "contessa"],
                                     "Bob": ["contessa", "assassin"]})
    start(night, "Ann")
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


# -- a refusal by the form that caused it -----------------------------------------------------


def test_a_refusal_shows_beside_the_form_that_asked(tablet: Page, new_phone: NewPhone,
                                                    screenshot: Shot) -> None:
    create_table(tablet, ["Ann", "Bob"])
    night = Night(tablet)
    seat_everyone(night, new_phone, {"Ann": ["ambassador", "duke"],
                                     "Bob": ["contessa", "assassin"]})
    start(night, "Ann")
    night.declare("Exchange")
    night.tap("Nobody challenges")
    ann = night.phone("Ann")
    selects = ann.locator("#phone select[name=cards]")
    selects.nth(0).select_option("captain")
    selects.nth(1).select_option("captain")
    night.sync()
    ann.locator("#phone").get_by_role("button", name="Done").click()
    night.expect_phone("Ann", "Keep 2 cards")
    night.phone_open("Ann", "Your cards and the cards drawn")
    ann.locator("#phone input[name=cards]").nth(0).check()
    night.sync()
    ann.locator("#phone").get_by_role("button", name="Keep these").click()
    flash = ann.locator("#phone .flash")
    expect(flash).to_have_text("Keep 2 cards, not 1.")
    expect(flash).to_have_attribute("role", "alert")
    # Right under the form that asked (inside its fold), not at the top of the screen.
    assert flash.evaluate("f => f.previousElementSibling.matches('form.keep')")
    expect(ann.locator("#phone > .flash")).to_have_count(0)
    expect(flash).to_be_in_viewport()
    screenshot(ann, "polish-phone-refusal-beside-keep")


# -- a half-made choice survives another seat's step and the referee's settings ---------------


def reformation_night(tablet: Page, new_phone: NewPhone,
                      names: list[str] | None = None) -> Night:
    """A Reformation table of three with phones, or of ``names`` with no phones."""
    tablet.goto("/")
    tablet.locator("details.settings > summary").first.click()
    tablet.locator("select[name=reformation]").select_option("true")
    tablet.locator("textarea[name=players]").fill("\n".join(names or ["Ann", "Bob", "Cy"]))
    tablet.get_by_role("button", name="Create the table").click()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    night = Night(tablet)
    if names:
        for name in names:
            seat(tablet, name).get_by_role("button", name="No phone").click()
            expect(seat(tablet, name)).to_contain_text("No phone: untracked")
        start(night, names[0])
        return night
    seat_everyone(night, new_phone, {"Ann": ["captain", "contessa"],
                                     "Bob": ["contessa", "assassin"],
                                     "Cy": ["ambassador", "captain"]})
    start(night, "Ann")
    return night


@pytest.mark.parametrize("first", ["Bob", "Ann"])
def test_two_seats_acting_at_once_keep_their_half_made_choices(
        tablet: Page, new_phone: NewPhone, screenshot: Shot, first: str) -> None:
    """Ann's Embezzle (no Duke) is challenged by Bob and proven: Bob must lose a card while Ann
    draws two. Whoever acts first, the other's half-made choice survives the new screen."""
    night = reformation_night(tablet, new_phone)
    night.declare("Embezzle")
    night.tap("Bob challenges")
    night.phone_open("Ann", "Tap to see your options")
    night.phone_tap("Ann", "Show all my cards")
    ann, bob = night.phone("Ann"), night.phone("Bob")
    night.expect_phone("Bob", "choose the card to turn face up")
    night.expect_phone("Ann", "Card drawn")
    night.sync()
    ann.locator("#phone select[name=cards]").first.select_option("duke")
    bob.locator("#phone details.secret > summary", has_text="Tap to choose").click()
    if first == "Bob":
        screenshot(ann, "polish-phone-reformation-draw-half-made")
        version = ann.locator("#phone").get_attribute("data-version")
        night.phone_tap("Bob", "Assassin")  # Bob's step pushes a new screen to Ann
        expect(ann.locator("#phone")).not_to_have_attribute("data-version", version or "")
        expect(ann.locator("#phone select[name=cards]").first).to_have_value("duke")
    else:
        version = bob.locator("#phone").get_attribute("data-version")
        ann.locator("#phone select[name=cards]").nth(1).select_option("captain")
        ann.locator("#phone").get_by_role("button", name="Done").click()
        expect(bob.locator("#phone")).not_to_have_attribute("data-version", version or "")
        expect(bob.locator("#phone details.secret")).to_have_attribute("open", "")
        expect(bob.locator("#phone").get_by_role("button", name="Assassin")).to_be_visible()
        screenshot(bob, "polish-phone-reformation-lose-kept-open")


def test_an_open_card_to_lose_stays_open_through_a_reload(tablet: Page, new_phone: NewPhone,
                                                         screenshot: Shot) -> None:
    night = reformation_night(tablet, new_phone)
    night.declare("Embezzle")
    night.tap("Bob challenges")
    night.phone_open("Ann", "Tap to see your options")
    night.phone_tap("Ann", "Show all my cards")
    bob = night.phone("Bob")
    night.expect_phone("Bob", "choose the card to turn face up")
    night.sync()
    bob.locator("#phone details.secret > summary", has_text="Tap to choose").click()
    expect(bob.locator("#phone details.secret")).to_have_attribute("open", "")
    bob.reload()
    expect(bob.locator("#phone details.secret")).to_have_attribute("open", "")
    expect(bob.locator("#phone").get_by_role("button", name="Assassin")).to_be_visible()
    screenshot(bob, "polish-phone-lose-open-after-reload")
    # Closed by its owner, it stays closed through the next reload.
    bob.locator("#phone details.secret > summary", has_text="Tap to choose").click()
    expect(bob.locator("#phone details.secret")).not_to_have_attribute("open", "")
    bob.reload()
    expect(bob.locator("#phone details.secret")).not_to_have_attribute("open", "")


def test_a_half_made_choice_survives_the_night_settings(tablet: Page, new_phone: NewPhone,
                                                        screenshot: Shot) -> None:
    night = reformation_night(tablet, new_phone)
    night.declare("Embezzle")
    night.tap("Bob challenges")
    night.phone_open("Ann", "Tap to see your options")
    night.phone_tap("Ann", "Show all my cards")
    ann = night.phone("Ann")
    night.expect_phone("Ann", "Card drawn")
    night.sync()
    ann.locator("#phone select[name=cards]").first.select_option("captain")
    version = ann.locator("#phone").get_attribute("data-version")
    tablet.locator("details.night-tools > summary").click()
    tablet.locator("input[name=timer]").fill("90")
    tablet.locator("form.night-settings").get_by_role("button", name="Save").click()
    expect(ann.locator("#phone")).not_to_have_attribute("data-version", version or "")
    expect(ann.locator("#phone select[name=cards]").first).to_have_value("captain")
    screenshot(ann, "polish-phone-draw-after-night-settings")


def test_a_tap_the_table_moved_past_is_told_at_the_top(tablet: Page, new_phone: NewPhone) -> None:
    """A refusal about a screen that is gone ("the table moved on") has no form to stand by:
    it stays at the top of the new screen."""
    create_table(tablet, ["Ann", "Bob"])
    night = Night(tablet)
    seat_everyone(night, new_phone, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    start(night, "Ann")
    night.sync()
    income = tablet.locator("#tablet .prompt.declare form").filter(
        has=tablet.get_by_role("button", name="Income", exact=True))
    income.locator("input[name=version]").evaluate("i => { i.value = String(i.value - 1); }")
    income.get_by_role("button", name="Income", exact=True).click()
    flash = tablet.locator("#tablet > .flash")
    expect(flash).to_contain_text("The table moved on before your tap")
    expect(flash).to_have_attribute("role", "alert")
