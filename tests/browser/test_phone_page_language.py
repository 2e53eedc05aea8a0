"""Two things a phone's page keeps in step with what it shows: its ``<html lang>`` follows a
language switched on the phone at once (the screen swaps in by htmx; lang stayed until a
reload), and the old phone after "New code", which shows "There is nothing here", holds no
event stream (it asked for the gone link every minute, for ever). Time runs on Playwright's
fake clock where it matters, so no real wait decides anything."""

from __future__ import annotations

from collections.abc import Callable

from nightkit import create_table, open_live, seat, seat_link
from playwright.sync_api import Page, expect

NAMES = ["Ann", "Bob"]


def test_html_lang_follows_the_phone_s_language_at_once(
        tablet: Page, new_phone: Callable[[], Page]) -> None:
    create_table(tablet, NAMES)
    ann = new_phone()
    open_live(ann, seat_link(tablet, "Ann"))
    expect(ann.locator("html")).to_have_attribute("lang", "en")
    for language in ("ru", "ja", "pt-BR"):
        ann.select_option("form.language select[name=language]", language)
        ann.locator("form.language button[type=submit]").click()
        expect(ann.locator("#phone")).to_have_attribute("lang", language)
        expect(ann.locator("html")).to_have_attribute("lang", language)
    assert ann.evaluate("window.__coupSamePage === true")  # swapped in, never reloaded


def test_the_old_phone_after_new_code_holds_no_event_stream(
        tablet: Page, new_phone: Callable[[], Page]) -> None:
    create_table(tablet, NAMES)
    ann = new_phone()
    ann.clock.install()
    open_live(ann, seat_link(tablet, "Ann"))
    tablet.on("dialog", lambda dialog: dialog.accept())
    seat(tablet, "Ann").get_by_role("button", name="New code").click()
    ann.clock.run_for(11_000)  # the stream's end, its first retry, the 10 s fallback fetch
    expect(ann.get_by_text("There is nothing here.")).to_be_visible()
    assert ann.evaluate("document.querySelector('[sse-connect]') === null")
    asked: list[str] = []
    ann.on("request", lambda r: asked.append(r.url) if "/events" in r.url else None)
    ann.clock.run_for(300_000)  # five minutes: the stream's retries came every minute
    assert asked == []
