"""A refused tap's reason moves nothing (outside tester: at the top of the screen it pushed the
tablet's seats and prompt 70 px down for 10 s, then everything jumped back up under a finger
aiming at a button). On the tablet at both sizes and on a phone, at the top (the table moved on)
and beside the form that asked (the form still there): every button, seat and region stands
where it stood when the reason comes, through a live update that draws it again, and when it
goes; the reason floats over the bar, readable and on no button."""

from __future__ import annotations

import re

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table  # noqa: E402
from playwright.sync_api import Locator, Page, expect  # noqa: E402
from screenkit import (  # noqa: E402
    SIZES,
    THREE,
    NewPhone,
    ann_keeps_one_of_two,
    new_night,
    viewport_shot,
)

SLACK = 1  # pixels
MOVED_ON = "The table moved on before your tap"

# Where each thing on the screen stands in the viewport: every button, fold, link and heading
# and the screen's regions, by what it is, its words and its place in the page's order.
PLACES = """() => {
  const out = {}; const seen = {};
  document.querySelectorAll(':is(#tablet, #phone) :is(button, summary, a, h1, h2, h3, li,'
      + ' header, .prompt, .log, .mine, .alert, .answer)').forEach(e => {
    if (e.closest('.flash')) return;
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) return;
    const what = e.tagName + ':' + e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 30);
    seen[what] = (seen[what] || 0) + 1;
    out[what + '#' + seen[what]] = [r.x, r.y, r.width, r.height].map(Math.round);
  });
  return out; }"""

# What of the screen's buttons, folds and links the reason lies over (only enabled ones, and
# those still settling: buttons a finger may aim at).
COVERED = """([flash, also]) => {
  const f = document.querySelector(flash).getBoundingClientRect();
  return Array.from(document.querySelectorAll(':is(#tablet, #phone) :is(button, summary' + also
      + ')')).filter(e => !e.closest('.flash') && (!e.disabled || e.hasAttribute('data-settling')))
    .filter(e => { const r = e.getBoundingClientRect(); return r.width
      && r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom; })
    .map(e => e.textContent.trim()); }"""

# The reason's type against the page's, and its words' contrast with their ground (WCAG).
LOOK = """f => {
  const style = getComputedStyle(f);
  const lum = c => { const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(v => {
      v = v / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return [parseFloat(style.fontSize), parseFloat(getComputedStyle(document.body).fontSize),
          (a + 0.05) / (b + 0.05)]; }"""


def places(page: Page) -> dict[str, list[int]]:
    return dict(page.evaluate(PLACES))


def moved(before: dict[str, list[int]], after: dict[str, list[int]]) -> list[str]:
    """What moved or changed size by more than SLACK, or came or went."""
    out = [f"{what}: {was} -> {after.get(what)}" for what, was in before.items()
           if what not in after
           or any(abs(a - b) > SLACK for a, b in zip(was, after[what], strict=True))]
    return out + [f"{what}: new" for what in after if what not in before]


def settled(page: Page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, [data-settling], [data-sending]')")


def check_the_reason(page: Page, flash: Locator, also: str = ", a") -> None:
    """The reason is in sight, on no button, in the page's type or larger, high in contrast;
    over the top of the screen, or at its foot only where a button lies under the top."""
    expect(flash).to_be_in_viewport(ratio=1)
    assert page.evaluate(COVERED, [".flash", also]) == []
    size, body, contrast = flash.evaluate(LOOK)
    assert size >= body and contrast >= 7, (size, body, contrast)
    if "foot" in (flash.get_attribute("class") or "").split():
        flash.evaluate("f => f.classList.remove('foot')")
        assert page.evaluate(COVERED, [".flash", ""]) != []
        flash.evaluate("f => f.classList.add('foot')")


def stale_tap(page: Page, name: str) -> None:
    """A tap on a form drawn a version ago: refused, "the table moved on", its form gone."""
    form = page.locator("#tablet form, #phone form").filter(
        has=page.get_by_role("button", name=name, exact=True))
    form.locator("input[name=version]").evaluate("i => { i.value = String(i.value - 1); }")
    form.get_by_role("button", name=name, exact=True).click()


def another_seat_changes_something(night: Night, page: Page) -> None:
    """A live update: Cy's phone changes its language, and ``page`` shows the new version."""
    shown = page.locator("#tablet, #phone").get_attribute("data-version") or ""
    night.phone("Cy").locator("select[name=language]").select_option("en")
    night.phone("Cy").get_by_role("button", name="Change").click()
    expect(page.locator("#tablet, #phone")).not_to_have_attribute("data-version", shown)


def refused_through_an_update_and_gone(night: Night, page: Page, tap: str, shot: str,
                                       also: str = ", a") -> None:
    """``tap`` refused as the table moved on: nothing on ``page`` moves when the reason comes,
    when a live update draws it again, nor when it goes."""
    page.evaluate("() => document.body.setAttribute('data-refusal-ms', '8000')")
    night.sync()
    settled(page)
    before = places(page)
    stale_tap(page, tap)
    flash = page.locator("#tablet .flash, #phone .flash")
    expect(flash).to_contain_text(MOVED_ON)
    expect(flash).to_have_attribute("role", "alert")
    settled(page)
    assert moved(before, places(page)) == []
    check_the_reason(page, flash, also)
    viewport_shot(page, shot)  # what the screen shows: the reason floats over it
    night.sync()
    another_seat_changes_something(night, page)
    expect(flash).to_contain_text(MOVED_ON)  # drawn again on the new screen
    settled(page)
    assert moved(before, places(page)) == []
    expect(flash).to_have_count(0, timeout=30_000)
    assert moved(before, places(page)) == []


@pytest.mark.parametrize("size", SIZES)
def test_a_refusal_on_the_tablet_moves_nothing(tablet: Page, new_phone: NewPhone,
                                               size: str) -> None:
    width, height = SIZES[size]
    tablet.set_viewport_size({"width": width, "height": height})
    night = new_night(tablet, new_phone, THREE)
    refused_through_an_update_and_gone(night, tablet, "Income", f"refusal-tablet-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_refusal_beside_its_form_on_the_tablet_moves_nothing(tablet: Page, size: str) -> None:
    """The lobby's "Start the game" before any hand is entered: refused, and the form is still
    there (the reason is read after it); the seats and the button stay where they were. The
    page is scrolled down to the button: where a seat's button lies under the top of the
    screen, the reason floats at its foot."""
    width, height = SIZES[size]
    tablet.set_viewport_size({"width": width, "height": height})
    create_table(tablet, ["Ann", "Bob", "Cy", "Dee"])
    start = tablet.get_by_role("button", name="Start the game")
    start.scroll_into_view_if_needed()
    settled(tablet)
    before = places(tablet)
    start.click()
    flash = tablet.locator("#tablet .flash")
    expect(flash).to_have_attribute("role", "alert")
    assert flash.evaluate("f => f.previousElementSibling.matches('form.start')")
    settled(tablet)
    assert moved(before, places(tablet)) == []
    check_the_reason(tablet, flash)
    viewport_shot(tablet, f"refusal-tablet-lobby-{size}")
    flash.click()  # a tap on the reason puts it away
    expect(flash).to_have_count(0)
    assert moved(before, places(tablet)) == []


def test_a_refusal_on_a_phone_moves_nothing(tablet: Page, new_phone: NewPhone) -> None:
    """At the top (the table moved on) and beside the form that asked (an exchange keeping one
    card of two). The phone's reason lies over its bar: the player's name and the Rules link,
    no button."""
    night = new_night(tablet, new_phone, {"Ann": ["ambassador", "duke"], **{
        name: THREE[name] for name in ("Bob", "Cy")}})
    ann = night.phone("Ann")
    refused_through_an_update_and_gone(night, ann, "Income", "refusal-phone-moved-on", also="")
    ann_keeps_one_of_two(night)
    keep = ann.locator("#phone").get_by_role("button", name="Keep these")
    keep.scroll_into_view_if_needed()
    night.sync()
    settled(ann)
    before = places(ann)
    keep.click()
    flash = ann.locator("#phone .flash")
    expect(flash).to_have_text(re.compile("Keep 2 cards, not 1"))
    settled(ann)
    assert moved(before, places(ann)) == []
    check_the_reason(ann, flash, also="")
    viewport_shot(ann, "refusal-phone-beside-keep")
    expect(flash).to_have_count(0, timeout=30_000)
    assert moved(before, places(ann)) == []
