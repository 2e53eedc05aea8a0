"""The table always knows who must act (issue 13), in a real browser: a double tap rules once,
the phone that must act says so and buzzes, players answer on their own phones, and a join code
once shown stays open.
"""

from __future__ import annotations

import re

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import create_table  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import (  # noqa: E402
    RECORD_TOO_SOON,
    THREE,
    NewPhone,
    Shot,
    new_night,
)

HANDS = THREE


# Records each buzz instead of buzzing (injected by Playwright before the page's own scripts).
BUZZ_PROBE = """
window.__buzzes = 0;
Object.defineProperty(navigator, "vibrate", {
  configurable: true,
  value: function () { window.__buzzes += 1; return true; }
});
"""


def buzzing(new_phone: NewPhone) -> NewPhone:
    def make() -> Page:
        page = new_phone()
        page.context.add_init_script(BUZZ_PROBE)
        return page

    return make


def buzzes(page: Page) -> int:
    return int(page.evaluate("() => window.__buzzes"))


# -- 1. a double tap rules once ----------------------------------------------------------------


def test_a_double_tap_does_not_pass_the_next_window(tablet: Page, new_phone: NewPhone,
                                                     screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, HANDS)
    # A long guard, so that the second tap surely comes while the new screen settles.
    tablet.evaluate("() => document.body.setAttribute('data-tap-guard', '8000')")
    night.declare("Steal", "Bob")
    nobody_challenges = tablet.get_by_role("button", name="Nobody challenges")
    expect(nobody_challenges).to_be_enabled()
    box = nobody_challenges.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tablet.mouse.click(x, y)
    nobody_blocks = tablet.get_by_role("button", name="Nobody blocks")
    expect(nobody_blocks).to_be_visible()
    tablet.mouse.click(x, y)  # the second tap of the double tap, where the first one was
    # No tap was sent (a live refresh may be on its way: that is the refresher, not a form).
    assert tablet.evaluate("() => document.querySelector('form.htmx-request') === null")
    expect(nobody_blocks).to_be_disabled()
    screenshot(tablet, "who-acts-tablet-block-window-settling")
    # The next window's "Nobody" is not where the last one was, nor does it look the same.
    moved = nobody_blocks.bounding_box()
    assert moved is not None and abs(moved["y"] - box["y"]) > box["height"]
    look = "b => getComputedStyle(b).backgroundColor"
    assert nobody_blocks.evaluate(look) != "rgb(242, 193, 78)"  # the challenge bar's gold
    expect(nobody_blocks).to_be_enabled(timeout=30_000)  # then it works as usual
    night.expect_tablet("Nobody challenges.")
    expect(tablet.locator("#log")).not_to_contain_text("Nobody blocks.")
    night.tap("Nobody blocks")
    night.expect_tablet("Nobody blocks.")


def test_a_button_the_new_screen_keeps_in_place_works_at_once(tablet: Page,
                                                              new_phone: NewPhone) -> None:
    """Outside tester: after Bob let it stand, Cy's own unchanged "Let it stand" and the
    tablet's "Nobody challenges" were disabled for the guard's moment, and a tap on them was
    lost. A button the new screen keeps as it was (its words, its step, its place) is not new
    under the finger: it works at once, while the buttons that moved or are new still wait."""
    night = new_night(tablet, new_phone, HANDS)
    cy = night.phone("Cy")
    for page in (tablet, cy):  # a long guard: a button it holds can't be enabled by chance
        page.evaluate("() => document.body.setAttribute('data-tap-guard', '8000')")
    night.declare("Tax")
    nobody = tablet.locator("#tablet").get_by_role("button", name="Nobody challenges")
    cy_lets_it_stand = cy.locator("#phone").get_by_role("button", name="Let it stand")
    expect(nobody).to_be_enabled(timeout=30_000)
    expect(cy_lets_it_stand).to_be_enabled(timeout=30_000)
    shown = tablet.locator("#tablet").get_attribute("data-version")
    night.phone_tap("Bob", "Let it stand")
    expect(tablet.locator("#tablet")).not_to_have_attribute("data-version", shown or "")
    expect(cy.locator("#phone")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(cy.locator("#phone")).not_to_have_attribute("data-version", shown or "")
    expect(nobody).to_be_enabled(timeout=1_000)
    expect(cy_lets_it_stand).to_be_enabled(timeout=1_000)
    # "Bob challenges" is gone: "Cy challenges" moved into its place, and waits.
    expect(tablet.locator("#tablet").get_by_role("button", name="Cy challenges")).to_be_disabled()
    cy_lets_it_stand.click()  # at once, and it counts: the last one asked lets it stand
    night.expect_tablet("Ann takes 3 coins")




def test_a_tap_too_soon_on_a_new_screen_is_not_taken_and_says_so(tablet: Page,
                                                                  new_phone: NewPhone) -> None:
    """A tap on a button of a screen still settling is not taken, and not silent: the button
    flashes its edge; once settled, the same tap works."""
    night = new_night(tablet, new_phone, HANDS)
    tablet.evaluate("() => document.body.setAttribute('data-tap-guard', '8000')")
    tablet.evaluate(RECORD_TOO_SOON)
    night.declare("Steal", "Bob")
    nobody_challenges = tablet.get_by_role("button", name="Nobody challenges")
    expect(nobody_challenges).to_be_enabled()
    nobody_challenges.click()
    nobody_blocks = tablet.get_by_role("button", name="Nobody blocks")
    expect(nobody_blocks).to_be_disabled()
    nobody_blocks.click(force=True)  # a player's tap, on the button as it settles
    assert tablet.evaluate("() => window.__tooSoon") == ["Nobody blocks"]
    assert tablet.evaluate("() => document.querySelector('form.htmx-request') === null")
    expect(nobody_blocks).to_be_enabled(timeout=30_000)
    expect(tablet.locator("#log")).not_to_contain_text("Nobody blocks.")
    night.tap("Nobody blocks")
    night.expect_tablet("Nobody blocks.")


# -- 2. who must act ---------------------------------------------------------------------------


def test_the_phone_that_must_act_says_it_and_buzzes(tablet: Page, new_phone: NewPhone,
                                                    screenshot: Shot) -> None:
    night = new_night(tablet, buzzing(new_phone), HANDS)
    ann, bob, cy = (night.phone(n) for n in ("Ann", "Bob", "Cy"))
    expect(ann.locator("#alert")).to_contain_text("It’s you")
    night.declare("Steal", "Bob")
    expect(bob.locator("#alert")).to_contain_text("Ann targets you with the Steal.")
    expect(bob.locator("#alert")).to_contain_text("It’s you")
    expect(bob.locator("#alert")).to_contain_text("You may challenge Ann’s Captain.")
    bob.wait_for_function("() => window.__buzzes >= 1", timeout=15_000)
    expect(cy.locator("#alert")).to_contain_text("You may challenge Ann’s Captain.")
    expect(cy.locator("#alert")).not_to_contain_text("It’s you")
    assert buzzes(cy) == 0
    # The tablet marks the seats the table waits for: Bob and Cy, not Ann.
    seats = tablet.locator("#seats > li")
    expect(seats.filter(has_text="Bob")).to_have_class(re.compile(r"\bacting\b"))
    expect(seats.filter(has_text="Cy")).to_have_class(re.compile(r"\bacting\b"))
    expect(seats.filter(has_text="Ann")).not_to_have_class(re.compile(r"\bacting\b"))
    screenshot(tablet, "who-acts-tablet-challenge-window")
    screenshot(bob, "who-acts-phone-targeted-challenge-window")
    screenshot(cy, "who-acts-phone-may-challenge")
    # Another seat's answer in the same window is no new question for Bob: no second buzz.
    once = buzzes(bob)
    night.sync()
    cy.locator("#answer").get_by_role("button", name="Let it stand").click()
    night.expect_tablet("Waiting for Bob")
    night.sync()
    assert buzzes(bob) == once
    # The block window is a new question: it buzzes.
    before = buzzes(bob)
    night.tap("Nobody challenges")
    expect(bob.locator("#alert")).to_contain_text("You may block it by claiming")
    bob.wait_for_function("n => window.__buzzes > n", arg=before)
    screenshot(tablet, "who-acts-tablet-block-window")
    screenshot(bob, "who-acts-phone-targeted-block-window")


def test_the_blocked_players_phone_says_who_blocks_what(tablet: Page, new_phone: NewPhone,
                                                        screenshot: Shot) -> None:
    """Bob blocks Ann's Foreign Aid: Ann's phone says so, in blue (she may challenge, as
    anyone may), and in her own language."""
    night = new_night(tablet, buzzing(new_phone), HANDS)
    ann = night.phone("Ann")
    ann.set_viewport_size({"width": 390, "height": 844})
    night.declare("Foreign Aid")
    night.tap("Bob blocks with the Duke")
    alert = ann.locator("#alert")
    expect(alert).to_contain_text("Bob blocks your Foreign Aid, claiming the Duke.")
    expect(alert).to_contain_text("You may challenge Bob’s Duke.")
    expect(alert).to_have_class(re.compile(r"\bmay\b"))
    expect(night.phone("Cy").locator("#alert")).not_to_contain_text("blocks your")
    screenshot(ann, "who-acts-phone-blocked-actor")
    screenshot(tablet, "who-acts-tablet-block-claimed")
    ann.locator("select[name=language]").select_option("ru")
    ann.get_by_role("button", name="Change").click()
    expect(alert).to_contain_text("Bob блокирует ваше действие")
    screenshot(ann, "who-acts-phone-blocked-actor-ru")


# -- 4. answering from a phone -----------------------------------------------------------------


def test_players_answer_on_their_own_phones(tablet: Page, new_phone: NewPhone,
                                            screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, HANDS)
    ann, bob, cy = (night.phone(n) for n in ("Ann", "Bob", "Cy"))
    screenshot(ann, "who-acts-phone-declare")
    night.sync()
    ann.locator("#answer summary", has_text="Steal").click()
    ann.locator("#answer").get_by_role("button", name="Bob", exact=True).click()
    night.expect_tablet("Ann: Steal → Bob (Captain)")
    night.sync()
    cy.locator("#answer").get_by_role("button", name="Let it stand").click()
    night.expect_tablet("Waiting for Bob")
    night.sync()
    first = bob.locator("#answer").get_by_role("button", name="Let it stand").bounding_box()
    bob.locator("#answer").get_by_role("button", name="Let it stand").click()
    expect(bob.locator("#answer")).to_contain_text("Block with the Captain")
    night.sync()
    # The block window's "Let it stand" is nowhere near where the challenge window's stood.
    second = bob.locator("#answer").get_by_role("button", name="Let it stand").bounding_box()
    assert first and second and second["y"] >= first["y"] + first["height"], (first, second)
    bob.locator("#answer").get_by_role("button", name="Block with the Captain").click()
    night.expect_tablet("Bob claims the Captain to block the Steal.")
    night.sync()
    ann.locator("#answer").get_by_role("button", name="Challenge").click()
    expect(bob.locator("#phone")).to_contain_text("Ann challenges your Captain.")
    expect(bob.locator("#alert")).to_contain_text("It’s you")
    screenshot(bob, "who-acts-phone-challenged")
    screenshot(tablet, "who-acts-tablet-challenged")
    night.phone_open("Bob", "Tap to see your options")
    night.phone_tap("Bob", "Concede")
    night.expect_phone("Bob", "choose the card to turn face up")
    screenshot(bob, "who-acts-phone-lose")
    screenshot(tablet, "who-acts-tablet-lose")


# -- a join code -------------------------------------------------------------------------------


def test_the_join_code_stays_open_once_shown(tablet: Page) -> None:
    """A referee taps "Another referee", then "Show a code": the code stays on screen (the
    panel used to fold up with the new screen, hiding the code it had just made)."""
    create_table(tablet, ["Ann", "Bob"])
    tablet.get_by_text("Another referee").click()
    tablet.get_by_role("button", name="Show a code").click()
    expect(tablet.locator("details.join .code")).to_be_visible()
    expect(tablet.locator("details.join .code")).to_have_text(re.compile(r"^\d{6}$"))

