"""The tablet's decision stays put, and on screen, with the decision timer on (outside tester:
turning the timer on or off moved the prompt, who must act and its buttons, 108 px; with the
timer on and five seats the fifth seat was below the fold at 1024x768 and 1280x800). The
countdown sits in the bar, on the title's line: every seat and the prompt's every button stand
where they stood without it, in the grid and round the table, in English and in Russian; the
prompt's buttons are on the screen, and so is every seat round the table, and in the grid at
1280x800 (three columns). In the grid at 1024x768 five seats still take three rows of two,
timer or not (the fifth seat's foot at 817 px in English with the timer off before this): not
this test's. Box positions, measured in the page."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import Shot, as_referee, night_settings  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from tablekit import started_table  # noqa: E402

FIVE = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"], "Cy": ["ambassador", "duke"],
        "Dmitri Alexandrovich": ["captain", "contessa"], "Eve": ["assassin", "ambassador"]}
SIZES = ((1024, 768), (1280, 800))

# Where the decision stands: the prompt's box, each of its buttons and each seat, as
# [left, top, right, bottom] in the viewport; and the screen's height.
PLACES = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom].map(Math.round); };
  return {prompt: box(document.querySelector('#prompt')),
          buttons: Array.from(document.querySelectorAll('#prompt button'), box),
          seats: Array.from(document.querySelectorAll('#seats > li'), box),
          height: innerHeight};
}"""
# The countdown's box, and whether it overlaps the title or the tools.
TIMER = """() => {
  const r = e => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const box = r(document.querySelector('#tablet .countdown'));
  const others = ['#bar h1', '#bar .bank', '#bar .tools'];
  return [Math.round(box.top), Math.round(box.bottom),
          others.filter(s => meet(box, r(document.querySelector(s))))];
}"""


def places(tablet: Page, size: tuple[int, int]) -> dict[str, Any]:
    tablet.set_viewport_size({"width": size[0], "height": size[1]})
    return dict(tablet.evaluate(PLACES))


@pytest.mark.parametrize("layout", ["grid", "round"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_timer_moves_nothing_and_five_seats_fit(live_app: Any, tablet: Page,
                                                    screenshot: Shot, language: str,
                                                    layout: str) -> None:
    t = started_table(live_app, FIVE, language=language)
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200  # four may challenge
    as_referee(tablet, t)
    if layout == "round":
        tablet.locator("[data-layout-toggle]").click()
    without = {size: places(tablet, size) for size in SIZES}

    night_settings(t, timer="60", stand="1")
    expect(tablet.locator("#tablet .countdown")).to_be_visible()  # the live update
    for size in SIZES:
        shown = places(tablet, size)
        assert shown == without[size], (size, "the timer moved the decision")
        seats = shown["seats"] if (layout, size) != ("grid", (1024, 768)) else []
        bottoms = [b[3] for b in shown["buttons"] + seats]
        assert max(bottoms) <= shown["height"], (size, "not all on the screen", bottoms)
        top, bottom, overlaps = tablet.evaluate(TIMER)
        assert top >= 0 and bottom <= shown["prompt"][1], (size, top, bottom)
        assert overlaps == [], (size, overlaps)
        screenshot(tablet, f"night-timer-in-bar-{language}-{layout}-{size[0]}")
