"""The fallback behind the live stream: a screen whose stream hears nothing for 10 s fetches
itself; one whose stream is alive does not poll. Time runs on Playwright's fake clock, held
still between the test's steps, so no real wait decides anything."""

from __future__ import annotations

from collections.abc import Callable

from nightkit import create_table, open_live, seat, seat_link
from playwright.sync_api import Page, expect

NAMES = ["Ann", "Bob", "Cy"]


def fetches_of(page: Page) -> list[str]:
    """The screen fetches (…/view) ``page`` makes from now on."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "/view" in r.url else None)
    return seen


def hold_the_clock(page: Page) -> None:
    """Stop ``page``'s installed clock where it is: from now on only ``run_for`` moves it, so
    the real time a busy machine takes to open a phone adds nothing to the quiet seconds."""
    page.clock.pause_at(page.evaluate("() => Date.now()") / 1000)  # seconds, in Python


def test_a_silent_stream_falls_back_to_a_fetch_after_10_quiet_seconds(
        tablet: Page, new_phone: Callable[[], Page]) -> None:
    create_table(tablet, NAMES)
    link = seat_link(tablet, "Ann")
    tablet.route("**/events*", lambda route: route.abort())  # a stream that never speaks
    tablet.clock.install()
    tablet.reload()
    expect(seat(tablet, "Ann")).to_contain_text("waiting for the phone")
    hold_the_clock(tablet)
    fetches = fetches_of(tablet)
    open_live(new_phone(), link)  # the lobby changes; the tablet hears nothing of it
    tablet.clock.run_for(8_000)
    assert fetches == []  # quiet for 8 s: not yet
    expect(seat(tablet, "Ann")).to_contain_text("waiting for the phone")
    tablet.clock.run_for(3_000)
    expect(seat(tablet, "Ann")).to_contain_text("phone connected")
    assert len(fetches) == 1


def test_a_stream_that_speaks_keeps_the_screen_from_polling(
        tablet: Page, new_phone: Callable[[], Page]) -> None:
    create_table(tablet, NAMES)
    links = {name: seat_link(tablet, name) for name in NAMES}
    tablet.clock.install()
    # The stream's opening fetch comes when the stream opens, in real time: on a busy machine
    # that can be after any fake seconds, so the test waits for that fetch itself.
    with tablet.expect_request(lambda r: "/view" in r.url):
        tablet.reload()
    expect(seat(tablet, "Ann")).to_contain_text("waiting for the phone")
    hold_the_clock(tablet)
    tablet.clock.run_for(2_000)
    fetches = fetches_of(tablet)
    for name in NAMES:  # an event every 6 s: each comes inside the stream, with the screen
        open_live(new_phone(), links[name])
        expect(seat(tablet, name)).to_contain_text("phone connected")
        tablet.clock.run_for(6_000)
    assert fetches == []
    tablet.clock.run_for(5_000)  # 11 s since the last event: the fallback fetch
    assert len(fetches) == 1
