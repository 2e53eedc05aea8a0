"""Game night's tablet tools in a real browser: the decision timer's countdown on the tablet
and the waited-for phone, "let it stand" on time-out, and rulings read aloud.

Games are played through the test client on the live server's own app (quicker than tapping
through a whole game); the browser then opens the screens a person would (nightscreenkit.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import wait_stream, watch  # noqa: E402
from nightscreenkit import (  # noqa: E402
    HANDS,
    LIVE_MS,
    Shot,
    as_referee,
    as_seat,
    night_settings,
)
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import started_table  # noqa: E402


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

    seats_top = "() => document.querySelector('#seats').getBoundingClientRect().top"
    before = tablet.evaluate(seats_top)
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
    expect(box).to_contain_text("Remind them: the game waits until they decide.")
    assert tablet.evaluate(seats_top) == before  # "Time is up" moves no seat
    screenshot(tablet, "night-timer-up")
    assert t.steps() == []  # nothing was applied


def test_on_time_out_the_tablet_lets_the_claim_stand(
    live_app: Any, live_server: str, tablet: Page, new_context: Callable[..., BrowserContext],
    playwright: Any, screenshot: Shot,
) -> None:
    t = started_table(live_app, HANDS)
    night_settings(t, timer="10", stand="1")
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    as_referee(tablet, t)
    expect(tablet.locator(".countdown")).to_contain_text("Time to decide for Bob")
    # The server checks its own clock, so this waits the real ten seconds.
    expect(tablet.locator("#tablet")).to_contain_text("Bob’s turn", timeout=20_000)
    assert t.steps() == [{"do": "tax", "by": "Ann"}, {"do": "pass"}]
    # every log says the clock decided it (issue 14.4)
    expect(tablet.locator("#tablet .log")).to_contain_text("Time is up. Nobody challenges")
    screenshot(tablet, "night-time-up-tablet")
    bob = as_seat(new_context(**playwright.devices["Pixel 7"]), live_server, t, "Bob")
    expect(bob.locator("#phone .log")).to_contain_text("Time is up. Nobody challenges")
    screenshot(bob, "night-time-up-phone")



OVERLAP = """([a, b]) => { const r = document.querySelector(a).getBoundingClientRect(),
    s = document.querySelector(b).getBoundingClientRect();
  return Math.max(0, Math.min(r.right, s.right) - Math.max(r.left, s.left))
    * Math.max(0, Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top)); }"""


@pytest.mark.parametrize("language", ["en", "ru"])
def test_another_referee_s_box_leaves_the_countdown_in_sight(
    live_app: Any, tablet: Page, screenshot: Shot, language: str,
) -> None:
    """Outside testers: "Another referee" opened a box over the decision timer's countdown. It
    opens under it, at both tablet sizes, in the grid and round the table, before and after it
    shows a code (a new screen, the box kept open); nor does it cover the prompt."""
    t = started_table(live_app, HANDS, language=language)
    night_settings(t, timer="60")
    as_referee(tablet, t)
    expect(tablet.locator("#tablet .bar > .countdown")).to_be_visible()
    box = tablet.locator(".tools details.join .join-box")
    for layout in ("grid", "round"):
        if layout == "round":
            tablet.locator("[data-layout-toggle]").click()
        for width, height in ((1280, 800), (1024, 768)):
            tablet.set_viewport_size({"width": width, "height": height})
            if not box.is_visible():
                tablet.locator("details.join > summary").click()
            for shown in ("before", "code"):
                if shown == "code" and not tablet.locator(".join-box .code").count():
                    box.locator("button[type=submit]").click()
                    expect(tablet.locator(".join-box .code")).to_be_visible()
                expect(box).to_be_visible()
                expect(tablet.locator("#tablet .bar > .countdown [data-left]")).to_be_in_viewport()
                for other in ("#tablet .bar > .countdown", "#prompt"):
                    covered = tablet.evaluate(OVERLAP, [".tools details.join .join-box", other])
                    assert covered == 0, (layout, width, shown, other, covered)
            screenshot(tablet, f"night-timer-another-referee-{language}-{layout}-{width}")


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
    watch(tablet)
    as_referee(tablet, t)
    wait_stream(tablet, 1)  # the rulings to read come by the stream
    tablet.locator(".night-tools summary").click()
    tablet.locator("[data-speech-switch]").check()
    return t


def test_rulings_are_read_aloud_in_the_table_s_language(
    live_app: Any, tablet: Page
) -> None:
    t = speech_on(live_app, tablet, "ru", '[{"lang": "en-US"}, {"lang": "ru-RU"}]')
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


@pytest.mark.parametrize(("language", "said"), [
    ("en", "The timer must be from 10 to"),
    ("pt-BR", "O tempo deve ser de 10 a"),
    ("ja", "タイマーは10〜"),
])
def test_the_night_settings_speak_with_the_server_s_words_not_the_browser_s(
    live_app: Any, tablet: Page, screenshot: Shot, language: str, said: str,
) -> None:
    """Issue 14 (outside tester): a timer under its least is not stopped by the browser's own
    bubble (in the browser's language): the form is sent and the server's message, in the
    table's language, stands beside the field; the number keyboard's hints stay."""
    t = started_table(live_app, HANDS, language=language)
    as_referee(tablet, t)
    tablet.locator("details.night-tools > summary").click()
    timer = tablet.locator("form.night-settings input[name=timer]")
    assert timer.get_attribute("inputmode") == "numeric" and timer.get_attribute("min") == "10"
    timer.fill("5")
    tablet.locator("form.night-settings button[type=submit]").click()
    problem = tablet.locator("#night-problem-timer")
    expect(problem).to_contain_text(said)
    expect(timer).to_have_attribute("aria-invalid", "true")
    screenshot(tablet, f"night-settings-refused-{language}")
