"""A screen that fetches itself on each event (the TV's: its events carry only the version)
drops an event that comes while its fetch is on its way (hx-sync drop). If that fetch then
brings an older screen than the event said, it must fetch once more at once, not wait for the
10 s fallback poll (an outside tester saw a TV 10 s behind quick steps).

And no screen loses an event that comes just after one of its swaps: htmx listens for the
stream's events on the swapped-in screen only once it has settled it, so with htmx's default
20 ms settle an event in between reached nobody (a TV was left one step behind in 1 burst of
quick steps in 4). The screens settle at once (base.html's htmx-config)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import HANDS, as_seat, tv_link  # noqa: E402
from playwright.sync_api import APIResponse, BrowserContext, Route, expect  # noqa: E402
from tablekit import started_table  # noqa: E402

CAUGHT_UP_MS = 4_000  # well under app.js's 10 s poll, which would also catch it up


def test_a_tv_whose_fetch_was_overtaken_fetches_the_newer_screen_at_once(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
) -> None:
    t = started_table(live_app, HANDS)
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(live_server + tv_link(t))
    expect(tv.locator("#tv h1")).to_contain_text("Ann’s turn")
    expect(tv.locator("#tv")).to_contain_text("Ann to declare an action")

    held: list[tuple[Route, APIResponse]] = []

    def hold_the_first(route: Route) -> None:
        if held:  # only the first fetch is held
            route.continue_()
            return
        held.append((route, route.fetch()))  # the screen as it is now, answered later

    tv.route("**/view?*", hold_the_first)
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    for _ in range(100):  # the TV's fetch for the tax: its answer (the tax's screen) held
        if held:
            break
        tv.wait_for_timeout(50)
    assert held, "the TV did not fetch after the first step"
    assert t.post("/step", {"do": "pass"}).status_code == 200  # nobody challenges: Bob's turn
    tv.wait_for_timeout(500)  # its event arrives while the first fetch is on its way
    route, answer = held[0]
    route.fulfill(response=answer)  # the older screen lands after the newer event
    expect(tv.locator("#tv h1")).to_contain_text("Bob’s turn", timeout=CAUGHT_UP_MS)


@pytest.mark.parametrize("steps", [2, 3, 4, 5, 6, 2, 3, 4, 5, 6])
def test_every_screen_shows_the_last_of_a_burst_of_steps(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext], steps: int,
) -> None:
    """Steps milliseconds apart (the referee's and a phone's taps landing together): the TV,
    which fetches on each event, and a phone, whose events carry its screen, both end on the
    last step, well before the 10 s poll would bring it."""
    t = started_table(live_app, HANDS)
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(live_server + tv_link(t))
    bob = as_seat(new_context(), live_server, t, "Bob")
    expect(tv.locator("#tv h1")).to_contain_text("Ann’s turn")
    names = list(HANDS)
    for i in range(steps):
        assert t.step(do="income", by=names[i % len(names)]).status_code == 200
    expect(tv.locator("#tv")).to_have_attribute("data-version", t.version(),
                                                timeout=CAUGHT_UP_MS)
    expect(bob.locator("#phone")).to_have_attribute("data-version", t.version(),
                                                    timeout=CAUGHT_UP_MS)
