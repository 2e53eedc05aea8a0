"""The decision timer's time-out in a real browser, with two referee tablets on one table and
"On time-out, let it stand" (outside tester): each tablet's page sends the time-out by itself
when its countdown runs out. It went half a second early (the seconds rounded to the nearest),
the server refused it, and the red refusal showed just before "Time is up. Nobody challenges";
the second tablet's came after the first had passed the table, and was refused too.

Both pages' clocks are Playwright's, the service's is stopped (tablekit.stop_the_clock) and
moved by the test: first half a second behind the pages' (each page's time-out is early by the
service's clock and must be answered quietly, the page sending again later), then past the
deadline (one tablet's time-out passes the table; the other's finds it moved on)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import HANDS, Shot, as_referee, night_settings  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import started_table, stop_the_clock  # noqa: E402

# Each time-out the page sends: when (the page's clock) and the moment its countdown ends; and
# each refusal shown. Injected by Playwright (the page's content security policy allows no
# inline script; this is no part of the page).
PROBE = """
window.__timeouts = [];
window.__refusals = [];
document.addEventListener("htmx:beforeRequest", function (e) {
  var form = e.target.closest && e.target.closest("form[data-timeout]");
  if (!form) { return; }
  var box = form.closest("[data-countdown]");
  window.__timeouts.push([Date.now(), Number(box.getAttribute("data-ends"))]);
});
new MutationObserver(function () {
  document.querySelectorAll("#tablet .flash").forEach(function (f) {
    window.__refusals.push(f.textContent);
  });
}).observe(document, {subtree: true, childList: true});
"""

TIME_UP = "Time is up. Nobody challenges"


def referee_tablet(page: Page) -> Page:
    """A tablet page that counts its time-outs and refusals, on Playwright's clock."""
    page.context.add_init_script(PROBE)
    page.clock.install()
    return page


def test_two_tablets_time_out_once_and_neither_shows_a_refusal(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext],
    monkeypatch: Any, screenshot: Shot,
) -> None:
    stop_the_clock(live_app, monkeypatch, 0.2)
    t = started_table(live_app, HANDS)
    night_settings(t, timer="60", stand="1")
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    other = new_context(viewport=tablet.viewport_size, has_touch=True).new_page()
    tablets = [referee_tablet(tablet), referee_tablet(other)]
    answers: list[int] = []
    for page in tablets:
        page.on("response", lambda r: answers.append(r.status) if r.url.endswith("/timeout")
                else None)
        as_referee(page, t)
        expect(page.locator(".countdown [data-left]")).to_have_text("1:00")
        page.clock.fast_forward(58_000)
        expect(page.locator(".countdown [data-left]")).to_have_text("0:02")

    stop_the_clock(live_app, monkeypatch, 59.5)  # the pages' clocks run half a second ahead
    for page in tablets:
        page.clock.run_for(2_500)  # every tick of the countdown, a quarter second apart
        page.wait_for_function("() => window.__timeouts.length > 0")
    for page in tablets:
        expect(page.locator(".countdown")).to_contain_text("Time to decide for Bob")
    assert t.steps() == [{"do": "tax", "by": "Ann"}]  # nothing passed early

    stop_the_clock(live_app, monkeypatch, 61)  # past the deadline: each page sends again
    for page in tablets:
        expect(page.locator("#tablet .log")).to_contain_text(TIME_UP)
        expect(page.locator("#tablet")).to_contain_text("Bob’s turn")
    assert t.steps() == [{"do": "tax", "by": "Ann"}, {"do": "pass"}]  # exactly one step
    for n, page in enumerate(tablets):
        sent = page.evaluate("() => window.__timeouts")
        assert all(at >= ends for at, ends in sent), (n, sent)  # never before its moment
        assert page.evaluate("() => window.__refusals") == [], n
        screenshot(page, f"night-timeout-two-tablets-{n}")
    assert answers and all(status == 200 for status in answers), answers
