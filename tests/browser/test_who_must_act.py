"""The table always knows who must act (issue 13), in a real browser: a double tap rules once,
the phone that must act says so and buzzes, what a phone was filling in survives a live update,
players answer on their own phones, every window kind looked at on the tablet and the phones,
and an accessibility audit (axe-core, vendored under tests/browser/vendor) of every kind of page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table, seat_everyone, start, turn  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402

Shot = Callable[[Page, str], Path]
NewPhone = Callable[[], Page]

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
# The devices of conftest.py's tablet and phone fixtures (a module named conftest can't be
# imported from here: each test folder has one).
AUDIT_TABLET = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1,
                "has_touch": True}
AUDIT_PHONE = "Pixel 7"

# Records each buzz instead of buzzing (injected by Playwright before the page's own scripts).
BUZZ_PROBE = """
window.__buzzes = 0;
Object.defineProperty(navigator, "vibrate", {
  configurable: true,
  value: function () { window.__buzzes += 1; return true; }
});
"""

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"]}


def buzzing(new_phone: NewPhone) -> NewPhone:
    def make() -> Page:
        page = new_phone()
        page.context.add_init_script(BUZZ_PROBE)
        return page

    return make


def new_night(tablet: Page, new_phone: NewPhone, hands: dict[str, list[str]],
              first: str | None = None) -> Night:
    create_table(tablet, list(hands))
    night = Night(tablet)
    seat_everyone(night, new_phone, hands)
    start(night, first or next(iter(hands)))
    return night


def buzzes(page: Page) -> int:
    return int(page.evaluate("() => window.__buzzes"))


def phone_region(night: Night, name: str) -> Any:
    return night.phone(name).locator("#phone")


# -- 1. a double tap rules once -------------------------------------------------------------


def test_a_double_tap_does_not_pass_the_next_window(tablet: Page, new_phone: NewPhone,
                                                     screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, HANDS)
    # A long guard, so that the second tap surely comes while the new screen settles.
    tablet.evaluate("() => document.body.setAttribute('data-tap-guard', '8000')")
    night.declare("Steal", "Bob")
    nobody_challenges = tablet.get_by_role("button", name="Nobody challenges")
    expect(nobody_challenges).to_be_enabled()
    box = nobody_challenges.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tablet.mouse.click(x, y)
    nobody_blocks = tablet.get_by_role("button", name="Nobody blocks")
    expect(nobody_blocks).to_be_visible()
    tablet.mouse.click(x, y)  # the second tap of the double tap, where the first one was
    # No tap was sent (a live refresh may be on its way: that is the refresher, not a form).
    assert tablet.evaluate("() => document.querySelector('form.htmx-request') === null")
    expect(nobody_blocks).to_be_disabled()
    screenshot(tablet, "who-acts-tablet-block-window-settling")
    # The next window's "Nobody" is not where the last one was, nor does it look the same.
    moved = nobody_blocks.bounding_box()
    assert moved is not None and abs(moved["y"] - box["y"]) > box["height"]
    look = "b => getComputedStyle(b).backgroundColor"
    assert nobody_blocks.evaluate(look) != "rgb(242, 193, 78)"  # the challenge bar's gold
    expect(nobody_blocks).to_be_enabled(timeout=30_000)  # then it works as usual
    night.expect_tablet("Nobody challenges.")
    expect(tablet.locator("#log")).not_to_contain_text("Nobody blocks.")
    night.tap("Nobody blocks")
    night.expect_tablet("Nobody blocks.")


# -- 2. who must act --------------------------------------------------------------------------


def test_the_phone_that_must_act_says_it_and_buzzes(tablet: Page, new_phone: NewPhone,
                                                    screenshot: Shot) -> None:
    night = new_night(tablet, buzzing(new_phone), HANDS)
    ann, bob, cy = (night.phone(n) for n in ("Ann", "Bob", "Cy"))
    expect(ann.locator("#alert")).to_contain_text("It’s you")
    night.declare("Steal", "Bob")
    expect(bob.locator("#alert")).to_contain_text("Ann targets you with the Steal.")
    expect(bob.locator("#alert")).to_contain_text("It’s you")
    expect(bob.locator("#alert")).to_contain_text("You may challenge Ann’s Captain.")
    bob.wait_for_function("() => window.__buzzes >= 1", timeout=15_000)
    expect(cy.locator("#alert")).to_contain_text("You may challenge Ann’s Captain.")
    expect(cy.locator("#alert")).not_to_contain_text("It’s you")
    assert buzzes(cy) == 0
    # The tablet marks the seats the table waits for: Bob and Cy, not Ann.
    seats = tablet.locator("#seats > li")
    expect(seats.filter(has_text="Bob")).to_have_class(re.compile(r"\bacting\b"))
    expect(seats.filter(has_text="Cy")).to_have_class(re.compile(r"\bacting\b"))
    expect(seats.filter(has_text="Ann")).not_to_have_class(re.compile(r"\bacting\b"))
    screenshot(tablet, "who-acts-tablet-challenge-window")
    screenshot(bob, "who-acts-phone-targeted-challenge-window")
    screenshot(cy, "who-acts-phone-may-challenge")
    # A refresh of the same question does not buzz again.
    before = buzzes(bob)
    night.tap("Nobody challenges")
    expect(bob.locator("#alert")).to_contain_text("You may block it by claiming")
    bob.wait_for_function("n => window.__buzzes > n", arg=before)
    screenshot(tablet, "who-acts-tablet-block-window")
    screenshot(bob, "who-acts-phone-targeted-block-window")


# -- 3. a form survives a live update ---------------------------------------------------------


def test_a_draw_being_entered_survives_a_live_update(tablet: Page, new_phone: NewPhone,
                                                     screenshot: Shot) -> None:
    hands = {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"],
             "Cy": ["captain", "captain"]}
    night = new_night(tablet, new_phone, hands)
    night.declare("Exchange")
    night.tap("Nobody challenges")
    ann = night.phone("Ann")
    first = ann.locator("#phone select[name=cards]").first
    expect(first).to_be_visible()
    first.select_option("contessa")
    version = ann.locator("#phone").get_attribute("data-version")
    # Meanwhile Bob changes his phone's language: every screen gets the new version.
    bob = night.phone("Bob")
    bob.locator("select[name=language]").select_option("en")
    bob.get_by_role("button", name="Change").click()
    expect(ann.locator("#phone")).not_to_have_attribute("data-version", version or "")
    expect(ann.locator("#phone select[name=cards]").first).to_have_value("contessa")
    screenshot(ann, "who-acts-phone-exchange-draw")
    screenshot(tablet, "who-acts-tablet-exchange-draw")
    ann.locator("#phone select[name=cards]").nth(1).select_option("duke")
    night.sync()
    ann.locator("#phone").get_by_role("button", name="Done").click()
    expect(ann.locator("#phone")).to_contain_text("Keep 2 cards")
    ann.locator("#phone details.secret > summary").click()
    ann.locator("#phone input[name=cards]").nth(0).check()
    version = ann.locator("#phone").get_attribute("data-version")
    bob.get_by_role("button", name="Change").click()
    expect(ann.locator("#phone")).not_to_have_attribute("data-version", version or "")
    expect(ann.locator("#phone details.secret")).to_have_attribute("open", "")
    expect(ann.locator("#phone input[name=cards]").nth(0)).to_be_checked()
    screenshot(ann, "who-acts-phone-exchange-keep")
    screenshot(tablet, "who-acts-tablet-exchange-keep")


# -- 4. answering from a phone ----------------------------------------------------------------


def test_players_answer_on_their_own_phones(tablet: Page, new_phone: NewPhone,
                                            screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, HANDS)
    ann, bob, cy = (night.phone(n) for n in ("Ann", "Bob", "Cy"))
    screenshot(ann, "who-acts-phone-declare")
    night.sync()
    ann.locator("#answer summary", has_text="Steal").click()
    ann.locator("#answer").get_by_role("button", name="Bob", exact=True).click()
    night.expect_tablet("Ann: Steal → Bob (Captain)")
    night.sync()
    cy.locator("#answer").get_by_role("button", name="Let it stand").click()
    night.expect_tablet("Waiting for Bob")
    night.sync()
    first = bob.locator("#answer").get_by_role("button", name="Let it stand").bounding_box()
    bob.locator("#answer").get_by_role("button", name="Let it stand").click()
    expect(bob.locator("#answer")).to_contain_text("Block with the Captain")
    night.sync()
    # The block window's "Let it stand" is nowhere near where the challenge window's stood.
    second = bob.locator("#answer").get_by_role("button", name="Let it stand").bounding_box()
    assert first and second and second["y"] >= first["y"] + first["height"], (first, second)
    bob.locator("#answer").get_by_role("button", name="Block with the Captain").click()
    night.expect_tablet("Bob claims the Captain to block the Steal.")
    night.sync()
    ann.locator("#answer").get_by_role("button", name="Challenge").click()
    expect(bob.locator("#phone")).to_contain_text("Ann challenges your Captain.")
    expect(bob.locator("#alert")).to_contain_text("It’s you")
    screenshot(bob, "who-acts-phone-challenged")
    screenshot(tablet, "who-acts-tablet-challenged")
    night.phone_open("Bob", "Tap to see your options")
    night.phone_tap("Bob", "Concede")
    night.expect_phone("Bob", "choose the card to turn face up")
    screenshot(bob, "who-acts-phone-lose")
    screenshot(tablet, "who-acts-tablet-lose")


# -- every window kind, looked at --------------------------------------------------------------


def test_an_examination_and_a_game_over_on_every_screen(tablet: Page, new_phone: NewPhone,
                                                        screenshot: Shot) -> None:
    create_table(tablet, ["Ann", "Bob"])
    night = Night(tablet)
    seat_everyone(night, new_phone, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    screenshot(tablet, "who-acts-tablet-lobby")
    screenshot(night.phone("Ann"), "who-acts-phone-lobby")
    start(night, "Ann")
    # Bob challenges Ann's Duke twice and loses both challenges: the game is over.
    for last in (False, True):
        night.declare("Tax")
        night.tap("Bob challenges")
        night.phone_open("Ann", "Tap to see your options")
        night.phone_tap("Ann", "Show the Duke")
        if last:  # Bob's last card turns face up by itself
            break
        night.expect_phone("Bob", "choose the card to turn face up")
        screenshot(night.phone("Bob"), "who-acts-phone-lose-after-challenge")
        night.phone_open("Bob", "Tap to choose")
        night.phone_tap("Bob", "Assassin")
        night.draw("Ann", "duke")
        night.declare("Income")
    expect(tablet.get_by_role("heading", name="Ann wins!")).to_be_visible()
    screenshot(tablet, "who-acts-tablet-game-over")
    screenshot(night.phone("Ann"), "who-acts-phone-game-over-winner")
    screenshot(night.phone("Bob"), "who-acts-phone-game-over")


def test_an_examination_seen_on_the_tablet_and_phones(tablet: Page, new_phone: NewPhone,
                                                      screenshot: Shot) -> None:
    watch_home = "/"
    tablet.goto(watch_home)
    tablet.locator("details.settings > summary").first.click()
    tablet.locator("select[name=exchanger]").select_option("inquisitor")
    tablet.locator("textarea[name=players]").fill("Ann\nBob\nCy")
    tablet.get_by_role("button", name="Create the table").click()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    night = Night(tablet)
    seat_everyone(night, new_phone, {"Ann": ["inquisitor", "duke"],
                                     "Bob": ["contessa", "assassin"],
                                     "Cy": ["captain", "duke"]})
    start(night, "Ann")
    night.declare("Examine", "Bob")
    night.tap("Nobody challenges")
    night.expect_phone("Bob", "examines you")
    screenshot(night.phone("Bob"), "who-acts-phone-examined")
    screenshot(tablet, "who-acts-tablet-examine")
    night.phone_open("Bob", "Tap to choose")
    night.phone_tap("Bob", "Contessa")
    night.expect_phone("Ann", "showed you a card")
    screenshot(night.phone("Ann"), "who-acts-phone-examiner-decides")
    screenshot(tablet, "who-acts-tablet-examiner-decides")


def test_the_round_table_mirrors_the_seats(tablet: Page, new_phone: NewPhone,
                                           screenshot: Shot) -> None:
    hands = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
             "Cy": ["ambassador", "captain"], "Dee": ["duke", "contessa"],
             "Eve": ["assassin", "ambassador"]}
    night = new_night(tablet, new_phone, hands)
    toggle = tablet.get_by_role("button", name="Round table")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    night.declare("Income")  # a live update keeps the layout
    expect(tablet.get_by_role("heading", name=turn("Bob"))).to_be_visible()
    night.sync()
    expect(tablet.get_by_role("button", name="Round table")).to_have_attribute(
        "aria-pressed", "true")
    # The seats' places, measured in one go (the screen may be replaced between two looks).
    places = tablet.evaluate("""() => Array.from(document.querySelectorAll('#seats > li'))
        .map(li => { const r = li.getBoundingClientRect(); return [r.x, r.y]; })""")
    assert len(places) == 5
    assert len({round(x) for x, _y in places}) >= 3 and len({round(y) for _x, y in places}) >= 3
    screenshot(tablet, "who-acts-tablet-round-table")


# -- accessibility -------------------------------------------------------------------------------


def audit(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now (WCAG 2 A
    and AA, colour contrast included)."""
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("""async () => {
      const r = await axe.run(document, {runOnly: {type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
      return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
    }""")
    return list(results)


def test_every_kind_of_page_passes_an_accessibility_audit(
        new_context: Callable[..., BrowserContext], playwright: Any, screenshot: Shot) -> None:
    # The audit's script is injected into the page: these contexts let it past the page's
    # content security policy (the app's own pages never need that).
    tablet = new_context(**AUDIT_TABLET, bypass_csp=True).new_page()

    def new_phone() -> Page:
        return new_context(**playwright.devices[AUDIT_PHONE], bypass_csp=True).new_page()

    found: dict[str, list[str]] = {}
    tablet.goto("/")
    found["home"] = audit(tablet)
    create_table(tablet, list(HANDS))
    found["lobby"] = audit(tablet)
    night = Night(tablet)
    seat_everyone(night, new_phone, HANDS)
    start(night, "Ann")
    found["tablet game"] = audit(tablet)
    found["phone game"] = audit(night.phone("Bob"))
    found["phone turn"] = audit(night.phone("Ann"))
    night.declare("Tax")
    night.tap("Bob challenges")
    night.expect_phone("Ann", "challenges your Duke")
    night.phone_open("Ann", "Tap to see your options")
    found["phone prompt"] = audit(night.phone("Ann"))
    found["tablet prompt"] = audit(tablet)
    tablet.get_by_role("link", name="Rules").first.click()
    expect(tablet.get_by_role("heading", name="Rule codes")).to_be_visible()
    found["rules page"] = audit(tablet)
    problems = {page: v for page, v in found.items() if v}
    assert not problems, "\n".join(f"{page}: {v}" for page, v in problems.items())


def test_the_join_code_stays_open_once_shown(tablet: Page) -> None:
    """A referee taps "Another referee", then "Show a code": the code stays on screen (the
    panel used to fold up with the new screen, hiding the code it had just made)."""
    create_table(tablet, ["Ann", "Bob"])
    tablet.get_by_text("Another referee").click()
    tablet.get_by_role("button", name="Show a code").click()
    expect(tablet.locator("details.join .code")).to_be_visible()
    expect(tablet.locator("details.join .code")).to_have_text(re.compile(r"^\d{6}$"))
