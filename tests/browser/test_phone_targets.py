"""A phone's opened "Steal ▸" on a small screen: every target comes into sight at once, clear
of the decision timer in the bar at the top of the screen, with no scrolling by hand; and the
lobby's "Change your cards" closes, unticked, once a hand is saved."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table, seat_everyone  # noqa: E402
from nightscreenkit import as_seat, night_settings  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import NewPhone  # noqa: E402
from tablekit import started_table  # noqa: E402

SIX = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
       "Cy": ["ambassador", "captain"], "Dee": ["duke", "contessa"],
       "Eve": ["assassin", "ambassador"], "Fay": ["duke", "assassin"]}

# Each opened target's box, the foot of the bar that stays at the top of the screen while the
# decision timer runs in it (0 without one), and the screen's foot.
IN_SIGHT = """() => {
    const bar = document.querySelector('.phone > .bar:has(.countdown)');
    const head = bar ? bar.getBoundingClientRect().bottom : 0;
    const targets = document.querySelectorAll('#answer details[open] button.target');
    return [head, innerHeight, Array.from(targets,
        b => { const r = b.getBoundingClientRect(); return [r.top, r.bottom]; })];
}"""


@pytest.mark.parametrize("timer", [None, "60"])
def test_every_target_comes_into_sight_when_steal_opens(live_app: Any, live_server: str,
                                                         new_context: Any, playwright: Any,
                                                         timer: str | None) -> None:
    t = started_table(live_app, SIX)
    if timer:
        night_settings(t, timer=timer)
    ann = as_seat(new_context(**playwright.devices["Pixel 7"]), live_server, t, "Ann")
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.reload()
    ann.locator("#answer summary", has_text="Steal").click()
    expect(ann.locator("#answer details[open] button.target")).to_have_count(5)
    ann.wait_for_timeout(300)  # let the page settle where it was brought
    head, foot, targets = ann.evaluate(IN_SIGHT)
    assert all(top >= head - 1 and bottom <= foot + 1 for top, bottom in targets), (
        head, foot, targets)


def test_a_saved_hand_closes_change_your_cards_unticked(tablet: Page,
                                                        new_phone: NewPhone) -> None:
    create_table(tablet, ["Ann", "Bob"])
    night = Night(tablet)
    seat_everyone(night, new_phone, {"Ann": ["duke", "captain"], "Bob": ["contessa", "duke"]})
    ann = night.phone("Ann")
    change = ann.locator("#lobby details.change")
    change.locator("summary").click()
    ann.locator("input[name=card1][value=assassin]").check()
    ann.locator("input[name=card2][value=contessa]").check()
    ann.get_by_role("button", name="Save my hand").click()
    expect(change).not_to_have_attribute("open", "")
    expect(ann.locator("#lobby input[type=radio]:checked")).to_have_count(0)
    ann.reload()
    expect(change).not_to_have_attribute("open", "")
    expect(ann.locator("#lobby input[type=radio]:checked")).to_have_count(0)
