"""A refused tap's reason hides nothing the player must act on (outside tester: on a phone, a
three-line Russian refusal covered the top of the "It's you" panel that says what to do). At
360x640 in Russian, on Ann's turn: the reason covers none of the panel's lines and no button,
moves nothing, is announced once (role=alert), and can be read whole."""

from __future__ import annotations

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import THREE, NewPhone, new_night, viewport_shot  # noqa: E402
from test_refusals_move_nothing import (  # noqa: E402
    check_the_reason,
    moved,
    places,
    settled,
    stale_tap,
)

MOVED_ON_RU = "Пока вы нажимали, игра пошла дальше; вот что сейчас на столе."

# The lines of the phone's alert ("It's you", what to do) the reason lies over.
COVERED_LINES = """() => {
  const f = document.querySelector('#phone .flash').getBoundingClientRect();
  return Array.from(document.querySelectorAll('#alert:not([hidden]) > *')).filter(e => {
    const r = e.getBoundingClientRect();
    return r.width && r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom;
  }).map(e => e.textContent.trim()); }"""


def in_russian_at_360(night: Night, name: str) -> Page:
    """``name``'s phone at 360x640, switched to Russian from its foot, scrolled to the top."""
    phone = night.phone(name)
    phone.set_viewport_size({"width": 360, "height": 640})
    phone.locator("form.language select[name=language]").select_option("ru")
    phone.locator("form.language button[type=submit]").click()
    expect(phone.locator("form.language button[type=submit]")).to_have_text("Сменить")
    phone.evaluate("() => window.scrollTo(0, 0)")
    night.sync()
    return phone


def test_a_refusal_on_a_small_russian_phone_spares_its_you(tablet: Page,
                                                            new_phone: NewPhone) -> None:
    night = new_night(tablet, new_phone, THREE)
    ann = in_russian_at_360(night, "Ann")
    ann.evaluate("() => document.body.setAttribute('data-refusal-ms', '60000')")
    settled(ann)
    expect(ann.locator("#alert .its-you")).to_be_in_viewport(ratio=1)
    before = places(ann)
    stale_tap(ann, "Income")
    flash = ann.locator("#phone .flash")
    expect(flash).to_have_text(MOVED_ON_RU)
    expect(flash).to_have_attribute("role", "alert")
    expect(flash).to_have_count(1)
    settled(ann)
    assert moved(before, places(ann)) == []
    assert ann.evaluate(COVERED_LINES) == []
    check_the_reason(ann, flash, also="")
    viewport_shot(ann, "refusal-phone-ru-360-its-you")
    if "brief" in (flash.get_attribute("class") or "").split():
        flash.click()  # one line: a tap reads it whole
        expect(flash).not_to_have_class("brief")
        viewport_shot(ann, "refusal-phone-ru-360-read-whole")
        assert moved(before, places(ann)) == []
    flash.click()
    expect(flash).to_have_count(0)
    assert moved(before, places(ann)) == []
