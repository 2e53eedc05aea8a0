"""The decision timer on the phone the table waits for covers none of its answers (outside
tester: on an iPhone 13, 390 x 664, the timer floating at the foot of the screen sat over "Show
the Contessa" and "Concede", and the player had to scroll). Each answer is tapped as a player
would: scrolled to if it is below the fold, then found at its centre (elementFromPoint), not
the timer; at 390 x 664, 360 x 640 and a Pixel 7, in English and in Russian (longer words).
Nor does the timer make the bar any taller: nothing under it moves when it appears."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import Shot, as_seat, night_settings  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from tablekit import Table, started_table  # noqa: E402

HANDS = {"Ann": ["assassin", "captain"], "Bob": ["contessa", "duke"]}
SIZES = {"iphone-13": (390, 664), "small": (360, 640), "pixel-7": (412, 839)}

# The element at the centre of each answer the phone shows (its step buttons): is it the
# button itself? One below the fold is first scrolled to as a finger would, just until it is
# all on the screen (a scroll that does not know where a timer floats).
UNCOVERED = """() => Array.from(document.querySelectorAll('#phone form.step button'))
  .filter(b => b.getClientRects().length > 0)
  .map(b => {
    const below = b.getBoundingClientRect().bottom - innerHeight;
    if (below > 0) { window.scrollBy(0, Math.ceil(below)); }
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return [b.textContent.trim(), r.top >= 0 && r.bottom <= innerHeight && b.contains(hit)];
  })"""
UNDER_BAR = "() => document.querySelector('#phone #alert').getBoundingClientRect().top"


def challenged(t: Table) -> None:
    """Ann assassinates Bob, Bob blocks with the Contessa, Ann challenges: Bob must show the
    Contessa or concede, on his phone, with the timer counting."""
    for _turn in range(3):
        for name in ("Ann", "Bob"):
            assert t.post("/step", {"do": "income", "by": name}).status_code == 200
    for step in ({"do": "assassinate", "by": "Ann", "target": "Bob"}, {"do": "pass"},
                 {"do": "block", "by": "Bob", "as": "contessa"},
                 {"do": "challenge", "by": "Ann"}):
        assert t.post("/step", step).status_code == 200


def phone_of(new_context: Any, live_server: str, t: Table, name: str, size: str) -> Page:
    width, height = SIZES[size]
    context = new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                          is_mobile=True, has_touch=True)
    return as_seat(context, live_server, t, name)


def answers_uncovered(page: Page) -> list[str]:
    found = page.evaluate(UNCOVERED)
    assert found, "no answer on the phone"
    return [text for text, clear in found if not clear]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_phone_s_timer_covers_no_answer(live_app: Any, live_server: str, new_context: Any,
                                            screenshot: Shot, language: str, size: str) -> None:
    t = started_table(live_app, HANDS, language=language)
    night_settings(t, timer="60")
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200  # Bob may challenge
    bob = phone_of(new_context, live_server, t, "Bob", size)
    expect(bob.locator("#phone .countdown")).to_be_visible()
    assert answers_uncovered(bob) == []  # "Challenge", "Let it stand"

    t = started_table(live_app, HANDS, language=language)
    challenged(t)
    still = phone_of(new_context, live_server, t, "Bob", size)
    under_without = still.evaluate(UNDER_BAR)
    night_settings(t, timer="60")
    bob = phone_of(new_context, live_server, t, "Bob", size)
    expect(bob.locator("#phone .countdown")).to_be_visible()
    assert bob.evaluate(UNDER_BAR) == under_without  # the timer takes no line of its own
    bob.locator("#phone details.secret > summary").first.click()
    bob.wait_for_timeout(300)  # let the page settle where the tap brought it
    screenshot(bob, f"night-timer-phone-answers-{language}-{size}")
    assert answers_uncovered(bob) == []  # "Show the Contessa", "Concede"
