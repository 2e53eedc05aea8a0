"""Every window kind looked at on the tablet and the phones (issue 13, in a real browser): the
lobby, an examination, a game over, and the round table that mirrors the seats. The screenshots
go to tests/artifacts/who-acts-*.png."""

from __future__ import annotations

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table, seat_everyone, start, turn  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import NewPhone, Shot, new_night  # noqa: E402


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
