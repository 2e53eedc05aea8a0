"""Opening a target list ("Steal ▸") moves buttons: the actions after it slide into its place.
A double tap's second tap must not take the button that came under the finger (an outside
tester's double tap on "Assassinate ▸" declared an Exchange nobody chose): it waits the same
moment as a new screen's buttons (app.js), and what stayed in place does not."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import THREE, NewPhone, new_night  # noqa: E402

TARGETS = """() => Array.from(
  document.querySelectorAll("#tablet .prompt.declare details.targets[open] button"),
  (b) => [b.textContent.trim(), b.hasAttribute("data-settling")])"""

UNDER = """([x, y]) => {
  const b = document.elementFromPoint(x, y)?.closest("button, summary");
  return b ? [b.tagName, b.textContent.trim(), b.disabled, b.hasAttribute("data-settling")] : null;
}"""


def test_a_second_tap_on_an_opened_target_list_takes_nothing(tablet: Page,
                                                             new_phone: NewPhone) -> None:
    tablet.set_viewport_size({"width": 1024, "height": 768})
    night = new_night(tablet, new_phone, THREE)
    tablet.evaluate("() => document.body.setAttribute('data-tap-guard', '8000')")
    declare = tablet.locator("#tablet .prompt.declare")
    steal = declare.locator("details.targets > summary", has_text="Steal")
    expect(steal).to_be_visible()
    night.sync()
    tablet.wait_for_function("() => !document.querySelector('#tablet [data-settling]')")
    version = tablet.locator("#tablet").get_attribute("data-version")
    box = steal.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    income = declare.get_by_role("button", name="Income")
    income_before = income.bounding_box()

    tablet.mouse.click(x, y)  # a double tap: the list opens (its toggle event a moment later) ...
    tablet.wait_for_timeout(50)  # a double tap's second tap comes 100-300 ms after the first
    under = tablet.evaluate(UNDER, [x, y])
    tablet.mouse.click(x, y)  # ... and the second tap lands where "Steal ▸" stood
    assert under is not None and under[0] == "BUTTON", under  # another action slid in
    assert under[2] and under[3], f"{under[1]} came under the finger and took the tap at once"

    tablet.wait_for_timeout(500)
    assert tablet.locator("#tablet").get_attribute("data-version") == version  # nothing declared
    expect(steal.locator("xpath=..")).to_have_attribute("open", "")
    assert income.bounding_box() == income_before and income.is_enabled()  # kept in place: works
    targets = tablet.evaluate(TARGETS)  # new under the finger too: they wait
    assert targets == [["Bob", True], ["Cy", True]], targets
