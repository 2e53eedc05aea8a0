"""A refusal is shown to the device that tapped (issue 13, in a real browser): by the form that
asked when it is still there, at the top when the table moved on, and never lost to a live
update."""

from __future__ import annotations

import re

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import turn  # noqa: E402
from playwright.sync_api import Page, Route, expect  # noqa: E402
from screenkit import THREE, TWO, NewPhone, Shot, ann_keeps_one_of_two, new_night  # noqa: E402


def test_a_refusal_shows_beside_the_form_that_asked(tablet: Page, new_phone: NewPhone,
                                                    screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, {"Ann": ["ambassador", "duke"], "Bob": TWO["Bob"]})
    ann = ann_keeps_one_of_two(night)
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


def test_a_tap_the_table_moved_past_is_told_at_the_top(tablet: Page, new_phone: NewPhone) -> None:
    """A refusal about a screen that is gone ("the table moved on") has no form to stand by:
    it stays at the top of the new screen."""
    night = new_night(tablet, new_phone, TWO)
    night.sync()
    income = tablet.locator("#tablet .prompt.declare form").filter(
        has=tablet.get_by_role("button", name="Income", exact=True))
    income.locator("input[name=version]").evaluate("i => { i.value = String(i.value - 1); }")
    income.get_by_role("button", name="Income", exact=True).click()
    flash = tablet.locator("#tablet > .flash")
    expect(flash).to_contain_text("The table moved on before your tap")
    expect(flash).to_have_attribute("role", "alert")


def held_taps(page: Page) -> list[Route]:
    """Hold this page's taps (its posts of a step) until the test lets them go: the list fills
    with each tap held on its way."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(re.compile(r"/step$"), hold)
    return held


def wait_until_held(page: Page, held: list[Route]) -> None:
    for _ in range(600):
        if held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the tap never left the phone")


def test_two_conflicting_answers_at_once_one_applies_and_the_other_is_told_why(
        tablet: Page, new_phone: NewPhone, screenshot: Shot) -> None:
    """Bob taps Challenge on his phone while the referee taps "Nobody challenges": Bob's tap is
    still on its way when the tablet's is applied and the new screen is pushed to his phone.
    Exactly one applies, and Bob's phone says why his did not, through live updates, until his
    next tap."""
    night = new_night(tablet, new_phone, THREE)
    bob = night.phone("Bob")
    bob.evaluate("() => document.body.setAttribute('data-refusal-ms', '600000')")
    night.declare("Tax")
    night.sync()
    held = held_taps(bob)
    bob.locator("#answer").get_by_role("button", name="Challenge").click()
    wait_until_held(bob, held)
    # (Not night.tap: it waits for every screen to settle, and Bob's tap is held on its way.)
    tablet.locator("#tablet").get_by_role("button", name="Nobody challenges").click()
    night.expect_tablet("Nobody challenges.")
    expect(tablet.get_by_role("heading", name=turn("Bob"))).to_be_visible()
    held[0].continue_()
    bob.unroute(re.compile(r"/step$"))
    flash = bob.locator("#phone > .flash")
    expect(flash).to_contain_text("The table moved on before your tap")
    expect(bob.locator("#alert")).to_contain_text("Your turn")  # the screen as it is now
    expect(tablet.locator("#log")).not_to_contain_text("Bob challenges")
    screenshot(bob, "refusal-phone-conflicting-answers")
    # Another seat's step brings a new screen: the reason is still there.
    night.sync()
    version = bob.locator("#phone").get_attribute("data-version")
    night.phone("Cy").locator("select[name=language]").select_option("en")
    night.phone("Cy").get_by_role("button", name="Change").click()
    expect(bob.locator("#phone")).not_to_have_attribute("data-version", version or "")
    expect(flash).to_contain_text("The table moved on before your tap")
    # Bob's next tap clears it.
    night.sync()
    night.phone_tap("Bob", "Income")
    night.expect_tablet("Bob takes 1 coin (Income).")
    expect(bob.locator("#phone .flash")).to_have_count(0)
