"""The fetch after a tap (static/app.js): a push that comes while this device's own tap is on
its way is dropped (the tap's answer is the screen). The screen is fetched once more after the
answer only when such a dropped push was newer than the answer; a tap during which nothing newer
came costs no second request."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import HANDS, LIVE_MS, as_referee  # noqa: E402
from playwright.sync_api import Page, Route, expect  # noqa: E402
from tablekit import started_table, version_of  # noqa: E402

WATCH = """() => {
  window.pushesHeard = 0; window.postsSettled = 0; window.screenFetches = 0;
  document.addEventListener("htmx:sseBeforeMessage", () => { window.pushesHeard += 1; });
  document.addEventListener("htmx:beforeRequest", (e) => {
    if (e.detail.requestConfig.verb === "get") { window.screenFetches += 1; }
  });
  document.addEventListener("htmx:afterSettle", (e) => {
    const config = e.detail && e.detail.requestConfig;
    if (config && config.verb === "post") { window.postsSettled += 1; }
  });
}"""
"""Counters the test reads in the page. Registered after app.js's own listeners, so when a
POST's settle is counted, app.js has already made (or not made) its fetch: htmx issues a
triggered request at once."""


def wait_until(page: Page, condition: str) -> None:
    """Until ``condition`` (a function's source) holds in the page. Not wait_for_function: it
    evaluates a string, which the pages' CSP forbids (no 'unsafe-eval')."""
    for _ in range(LIVE_MS // 20):
        if page.evaluate(condition):
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"never: {condition}")


def screen_fetches_from_now(page: Page) -> list[str]:
    """The screen fetches (…/view) ``page`` makes from now on, as the network sees them."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "/view" in r.url else None)
    return seen


def shown_version(page: Page) -> int:
    return int(page.locator("[data-version]").first.get_attribute("data-version") or -1)


def opened_quietly(tablet: Page, t: Any) -> None:
    """The tablet's screen, once the fetch its stream's opening makes is done."""
    with tablet.expect_response(lambda r: "/view" in r.url):
        as_referee(tablet, t)
    tablet.evaluate(WATCH)


def test_no_fetch_after_a_tap_when_nothing_was_dropped(live_app: Any, tablet: Page) -> None:
    t = started_table(live_app, HANDS)
    opened_quietly(tablet, t)
    before = shown_version(tablet)
    fetches = screen_fetches_from_now(tablet)
    tablet.locator("#tablet .prompt.declare").get_by_role(
        "button", name=re.compile(r"^Income\b")).click()
    wait_until(tablet, "() => window.postsSettled >= 1")
    assert shown_version(tablet) == before + 1
    assert t.steps() == [{"do": "income", "by": "Ann"}]
    assert tablet.evaluate("window.screenFetches") == 0
    assert fetches == []


def test_a_push_dropped_during_a_tap_is_fetched_after_it(live_app: Any, tablet: Page) -> None:
    t = started_table(live_app, HANDS)
    opened_quietly(tablet, t)
    held: list[Route] = []
    tablet.route("**/step", lambda route: held.append(route))  # the tap waits here, unsent
    tablet.locator("#tablet .prompt.declare").get_by_role(
        "button", name=re.compile(r"^Income\b")).click()
    for _ in range(LIVE_MS // 20):  # until the route has the request (Playwright's calls run it)
        if held:
            break
        tablet.wait_for_timeout(20)
    assert held, "the tap's request never left"
    answer = held[0].fetch()  # the server takes Ann's income; the answer is held back
    answered_at = version_of(answer.text())
    assert t.post("/step", {"do": "income", "by": "Bob"}).status_code == 200  # another change
    wait_until(tablet, "() => window.pushesHeard >= 2")  # both were dropped
    assert shown_version(tablet) < int(answered_at)
    fetches = screen_fetches_from_now(tablet)
    held[0].fulfill(response=answer)
    expect(tablet.locator("[data-version]").first).to_have_attribute(
        "data-version", str(int(answered_at) + 1), timeout=LIVE_MS)
    expect(tablet.locator("#tablet .prompt.declare")).to_contain_text("Ann")  # Ann's turn again
    assert tablet.evaluate("window.screenFetches") == 1
    assert len(fetches) == 1


def test_taps_fetch_no_file_or_image_again(live_app: Any, tablet: Page) -> None:
    """A redraw keeps the page's files and the spectators' QR image (sent no-store): the
    browser reuses what the page already has, so taps cost no download but the screen."""
    t = started_table(live_app, HANDS)
    opened_quietly(tablet, t)
    assert tablet.locator("img.qr").count() == 1
    fetched: list[str] = []
    tablet.on("request", lambda r: fetched.append(r.url))
    for taps in range(1, 4):
        tablet.locator("#tablet .prompt.declare").get_by_role(
            "button", name=re.compile(r"^Income\b")).click()
        wait_until(tablet, f"() => window.postsSettled >= {taps}")
        assert len(t.steps()) == taps and t.steps()[-1]["do"] == "income"
        tablet.wait_for_timeout(700)  # the guard against a double tap on a new screen
    assert fetched and all(url.endswith("/step") for url in fetched), fetched
