"""A refusal is shown to the device that tapped (issue 13, in a real browser): by the form that
asked when it is still there, at the top when the table moved on, and never lost to a live
update."""

from __future__ import annotations

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import TWO, NewPhone, Shot, new_night  # noqa: E402


def test_a_refusal_shows_beside_the_form_that_asked(tablet: Page, new_phone: NewPhone,
                                                    screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, {"Ann": ["ambassador", "duke"], "Bob": TWO["Bob"]})
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
