"""Game night's screens in a real browser: the timeline of a finished game on the tablet and on
a phone, the spectators' board following the game live, and the decision timer's countdown on
the tablet and on the phone of whoever the table waits for.

Games are played through the test client on the live server's own app (quicker than tapping
through a whole game); the browser then opens the screens a person would: the tablet with the
referee's key link, a phone with the device cookie of the client that holds its seat.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import Table, finished_game, started_table  # noqa: E402

Shot = Callable[[Page, str], Path]
LIVE_MS = 5_000
HANDS: dict[str, list[str] | None] = {"Ann": ["duke", "captain"],
                                      "Bob": ["contessa", "assassin"]}


def as_referee(tablet: Page, t: Table) -> None:
    tablet.goto(f"/t/{t.table_id}?key={t.live().table.referee_token}")
    expect(tablet.locator("#tablet")).to_be_visible()


def as_seat(context: BrowserContext, live_server: str, t: Table, name: str) -> Page:
    """A browser that holds the seat the test client opened (its device cookie)."""
    cookie = t.phone(name).get_cookie("coup_device")
    assert cookie is not None
    context.add_cookies([{"name": "coup_device", "value": cookie.value, "url": live_server}])
    page = context.new_page()
    page.goto(t.link(name))
    expect(page.locator("#phone")).to_be_visible()
    return page


def night_settings(t: Table, **form: str) -> None:
    assert t.post("/night", form).status_code == 200


def test_the_timeline_opens_after_the_game_on_the_tablet_and_a_phone(
    live_app: Any, live_server: str, tablet: Page, new_context: Callable[..., BrowserContext],
    playwright: Any, screenshot: Shot,
) -> None:
    t = finished_game(live_app)
    as_referee(tablet, t)
    tablet.get_by_role("link", name="Who bluffed when").click()
    expect(tablet.get_by_text("closes this game for good")).to_be_visible()
    tablet.get_by_role("button", name="Open the timeline").click()
    expect(tablet.locator("table.lanes tbody tr")).to_have_count(2)
    expect(tablet.locator("tr.lane.won th")).to_contain_text("Ann")
    expect(tablet.locator("tr.lane").first.locator(".chip.claim.held").first).to_be_visible()
    expect(tablet.locator("table.lanes .chip.lose")).to_have_count(2)
    expect(tablet.locator("svg.spark polyline")).to_have_count(2)
    screenshot(tablet, "night-timeline-tablet")

    phone_context = new_context(**playwright.devices["Pixel 7"])
    bob = as_seat(phone_context, live_server, t, "Bob")
    bob.get_by_role("link", name="Who bluffed when").click()
    expect(bob.locator("table.lanes tbody tr")).to_have_count(2)
    # the lanes scroll inside their box: the page itself is no wider than the phone
    bob.wait_for_load_state("load")  # measured with the style sheet applied (a busy machine)
    width = bob.evaluate("() => document.documentElement.scrollWidth")
    assert width <= bob.viewport_size["width"] + 1
    screenshot(bob, "night-timeline-phone")

    # a 390 x 844 phone: each player's totals stacked, nothing wider than the screen
    small = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                        device_scale_factor=2)
    ann = as_seat(small, live_server, t, "Ann")
    ann.goto(live_server + t.link("Ann") + "/timeline")
    ann.wait_for_load_state("load")
    totals = ann.locator("table.tallies")
    expect(totals.locator("tbody tr")).to_have_count(2)
    wide = totals.evaluate("(t) => [t.scrollWidth, t.getBoundingClientRect().right]")
    assert wide[0] <= 390 and wide[1] <= 390, wide
    expect(totals.locator("td[data-label='Challenges lost']").first).to_be_visible()
    totals.scroll_into_view_if_needed()
    screenshot(ann, "night-timeline-totals-390")


def test_the_timeline_is_refused_mid_game_in_the_browser(
    live_app: Any, tablet: Page
) -> None:
    t = started_table(live_app, HANDS)
    as_referee(tablet, t)
    expect(tablet.get_by_role("link", name="Who bluffed when")).to_have_count(0)
    response = tablet.goto(f"/t/{t.table_id}/timeline")
    assert response is not None and response.status == 409
    expect(tablet.get_by_role("alert")).to_contain_text("opens once the game is over")


def test_the_tv_follows_the_game_live_and_shows_no_control(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = started_table(live_app, {**HANDS, "Cy": None})
    as_referee(tablet, t)
    tablet.get_by_text("Game night").click()
    link = tablet.locator(".watch a").get_attribute("href")
    assert link and "/w/" in link
    qr = tablet.locator(".watch img.qr")
    expect(qr).to_be_visible()
    assert tablet.evaluate("(img) => img.naturalWidth > 0", qr.element_handle())
    screenshot(tablet, "night-tablet-tools")

    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(link)
    expect(tv.locator("#tv h1")).to_contain_text("Ann’s turn")
    expect(tv.locator("#tv")).to_contain_text("Ann to declare an action")
    expect(tv.locator("form, button")).to_have_count(0)
    assert tv.locator(".card.back").count() == 6
    for card in ("duke", "captain", "contessa", "assassin"):
        expect(tv.locator(f".card-{card}")).to_have_count(0)
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    expect(tv.locator("#tv .tv-log")).to_contain_text("Ann", timeout=LIVE_MS)
    expect(tv.locator("#tv .waiting")).to_contain_text("challenge", timeout=LIVE_MS)
    screenshot(tv, "night-tv")


def test_the_tv_shows_the_night_s_scoreboard_at_the_game_s_end(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = finished_game(live_app)
    night_settings(t, target="3")
    as_referee(tablet, t)
    tablet.get_by_text("Game night").click()
    link = tablet.locator(".watch a").get_attribute("href")
    assert link
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(link)
    expect(tv.locator("#tv h1")).to_contain_text("Ann wins!")
    scores = tv.locator("#tv .scores")
    expect(scores).to_contain_text("first to 3 wins")
    expect(scores.locator("li.leads")).to_contain_text("Ann")
    box = scores.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080  # above the fold of the TV
    screenshot(tv, "night-tv-scores")


def test_the_timer_counts_down_on_the_tablet_and_the_waited_for_phone(
    live_app: Any, live_server: str, tablet: Page, new_context: Callable[..., BrowserContext],
    playwright: Any, screenshot: Shot,
) -> None:
    t = started_table(live_app, HANDS)
    night_settings(t, timer="10")
    tablet.clock.install()
    as_referee(tablet, t)
    box = tablet.locator(".countdown")
    expect(box).to_contain_text("Time to decide for Ann")
    expect(box.locator("[data-left]")).to_have_text(re.compile(r"0:(0\d|10)"))
    screenshot(tablet, "night-timer-tablet")

    ann_context = new_context(**playwright.devices["Pixel 7"])
    ann = as_seat(ann_context, live_server, t, "Ann")
    expect(ann.locator(".countdown")).to_be_visible()
    screenshot(ann, "night-timer-phone")
    bob_context = new_context(**playwright.devices["Pixel 7"])
    bob = as_seat(bob_context, live_server, t, "Bob")
    expect(bob.locator(".countdown")).to_have_count(0)

    tablet.clock.fast_forward(5_000)
    # another region's swap runs the page's scripts again: the count goes on, it does not
    # start again from the number the box was drawn with
    tablet.evaluate("document.body.dispatchEvent(new CustomEvent('htmx:afterSettle', "
                    "{bubbles: true}))")  # the listener draws the seconds left synchronously
    left = tablet.evaluate("document.querySelector('[data-left]').textContent")  # at once
    assert re.fullmatch(r"0:0[0-6]", left), left
    tablet.clock.fast_forward(6_000)
    expect(box.locator("[data-up]")).to_be_visible()
    expect(box).to_contain_text("Time is up for Ann.")
    expect(box).to_contain_text("The referee decides what happens.")
    screenshot(tablet, "night-timer-up")
    assert t.steps() == []  # nothing was applied


def test_on_time_out_the_tablet_lets_the_claim_stand(
    live_app: Any, tablet: Page
) -> None:
    t = started_table(live_app, HANDS)
    night_settings(t, timer="10", stand="1")
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    as_referee(tablet, t)
    expect(tablet.locator(".countdown")).to_contain_text("Time to decide for Bob")
    # The server checks its own clock, so this waits the real ten seconds.
    expect(tablet.locator("#tablet")).to_contain_text("Bob’s turn", timeout=20_000)
    assert t.steps() == [{"do": "tax", "by": "Ann"}, {"do": "pass"}]


def test_the_players_page_and_a_rename(live_app: Any, tablet: Page, screenshot: Shot) -> None:
    assert finished_game(live_app).post("/rematch", {}).status_code == 200
    tablet.goto("/")
    tablet.get_by_role("link", name=re.compile("Players")).click()
    expect(tablet.locator("table.stats")).to_contain_text("Ann")
    screenshot(tablet, "night-players")
    form = tablet.locator("form", has=tablet.get_by_role("button", name="Rename"))
    form.locator("select").select_option("Bob")
    form.locator("input[name=new]").fill("Roberto")
    form.get_by_role("button", name="Rename").click()
    expect(tablet.locator("table.stats")).to_contain_text("Roberto")


FAKE_SPEECH = """
(() => {
  window.__spoken = [];
  const voices = %s;
  Object.defineProperty(window, "speechSynthesis", {value: {
    getVoices: () => voices,
    speak: (u) => window.__spoken.push([u.text, u.lang]),
    cancel: () => {},
    addEventListener: () => {},
  }});
  window.SpeechSynthesisUtterance = function (text) { this.text = text; };
})();
"""


def speech_on(live_app: Any, tablet: Page, language: str, voices: str) -> Any:
    """A started table in ``language`` on a tablet whose (stand-in) speech engine has
    ``voices``, with the read-aloud switch turned on."""
    t = started_table(live_app, HANDS, language=language)
    tablet.context.add_init_script(FAKE_SPEECH % voices)
    as_referee(tablet, t)
    tablet.locator(".night-tools summary").click()
    tablet.locator("[data-speech-switch]").check()
    return t


def test_rulings_are_read_aloud_in_the_table_s_language(
    live_app: Any, tablet: Page
) -> None:
    t = speech_on(live_app, tablet, "ru", '[{"lang": "en-US"}, {"lang": "ru-RU"}]')
    tablet.wait_for_timeout(300)  # let the stream open
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    tablet.wait_for_function("() => window.__spoken.length > 0", timeout=LIVE_MS)
    spoken = tablet.evaluate("() => window.__spoken")
    assert spoken[0][1] == "ru-RU"
    assert "Ann" in spoken[0][0] and "Duke" in spoken[0][0]
    assert all("captain" not in text.lower() for text, _lang in spoken)
    expect(tablet.locator("[data-speech-none]")).to_be_hidden()


def test_the_tablet_says_when_the_device_has_no_voice_for_the_language(
    live_app: Any, tablet: Page
) -> None:
    speech_on(live_app, tablet, "ja", '[{"lang": "en-US"}]')
    expect(tablet.locator("[data-speech-none]")).to_be_visible()
    assert tablet.evaluate("() => window.__spoken.length") == 0
