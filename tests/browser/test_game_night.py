"""A game night in a real browser: the tablet and three phones as separate browser contexts.

Every screen must follow the others live (server-sent events): each test marks its pages once
they are open and checks at the end that none was reloaded, and each wait is shorter than the
10 s polling fallback. Hands are entered by hand, as with a real deck, so every game is
deterministic.

Here: seating by QR code, a challenged Tax, and a double assassination with the hands
private at every step (test_game_night_to_the_end.py: a winner, a rematch, a restart).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from handkit import (  # noqa: E402
    assert_hand_hidden,
    assert_tablet_private,
    hold_to_see,
    touch_and_hold,
)
from nightkit import (  # noqa: E402
    HANDS,
    NewPhone,
    Night,
    Shot,
    assert_not_reloaded,
    create_table,
    expected_qr_svg,
    new_night,
    seat,
    seat_everyone,
    seat_link,
    seat_qr_svg,
    start,
    svg_shape,
    turn,
)
from playwright.sync_api import Page, expect  # noqa: E402

# -- 1. seating by QR code -----------------------------------------------------------------


def test_seats_are_joined_by_their_qr_links_and_the_lobby_follows_live(
    tablet: Page, new_phone: NewPhone, screenshot: Shot
) -> None:
    create_table(tablet, list(HANDS))
    night = Night(tablet)

    for name in HANDS:
        link = seat_link(tablet, name)
        assert "/s/" in link and link.startswith("http")
        page_svg = seat_qr_svg(tablet, name)
        want = expected_qr_svg(link)
        assert page_svg == want or svg_shape(page_svg) == svg_shape(want), (
            f"{name}'s QR code does not encode the link under it"
        )
        expect(seat(tablet, name)).to_contain_text("waiting for the phone")
    assert len({seat_link(tablet, n) for n in HANDS}) == len(HANDS)

    seat_everyone(night, new_phone, HANDS, check_tablet=True)
    expect(tablet.locator("#tablet li").filter(has_text="hand entered")).to_have_count(3)
    screenshot(tablet, "game-night-tablet-lobby")

    start(night, "Ann")
    night.expect_phone("Ann", "you")
    assert_tablet_private(tablet, {})
    for phone in night.phones.values():
        assert_hand_hidden(phone)
        expect(phone.get_by_role("button", name="Hold to see your cards")).to_be_visible()
    assert_not_reloaded(*night.pages)


# -- 2. a challenged Tax -------------------------------------------------------------------


def test_a_challenged_tax_updates_every_screen_live(
    tablet: Page, new_phone: NewPhone, screenshot: Shot
) -> None:
    night = new_night(tablet, new_phone, HANDS)

    night.declare("Tax")
    night.expect_tablet("Does anyone challenge Ann’s Duke?")
    screenshot(tablet, "game-night-tablet-challenge-window")
    night.tap("Bob challenges")

    night.expect_phone("Ann", "Bob challenges your Duke.")
    ann = night.phone("Ann")
    night.phone_open("Ann", "Tap to see your options")
    expect(ann.get_by_text("You hold the Duke.")).to_be_visible()
    screenshot(ann, "game-night-phone-challenged")
    expect(night.phone("Bob").locator("#phone")).not_to_contain_text("You hold")
    night.phone_tap("Ann", "Show the Duke")

    night.expect_phone("Ann", "Draw 1 card from the court deck and enter it.")
    screenshot(ann, "game-night-phone-draw")
    night.draw("Ann", "ambassador")

    night.lose("Bob", "assassin")
    night.expect_tablet("Ann shows the Duke, so Bob loses an influence.")
    expect(tablet.get_by_role("heading", name=turn("Bob"))).to_be_visible()
    ann_seat = tablet.locator("#tablet li").filter(
        has=tablet.get_by_role("heading", name="Ann", exact=True))
    expect(ann_seat).to_contain_text(re.compile(r"\b5\s*coins"))  # Tax paid after the proof
    assert_tablet_private(tablet, {"assassin": 1})
    night.expect_phone("Cy", "Ann shows the Duke, so Bob loses an influence.")
    night.sync()  # a live swap during the hold would replace the held button (as in a tap)
    hold_to_see(ann, ["captain", "ambassador"])
    assert_not_reloaded(*night.pages)


# -- 3 and 5. a double assassination, with the hands private at every step ---------------


def test_a_bluffed_contessa_is_caught_and_the_target_loses_both_cards_privately(
    tablet: Page, new_phone: NewPhone
) -> None:
    """Record 04: Bob blocks Ann's Assassinate with a Contessa he doesn't hold, Ann challenges,
    Bob concedes and loses both cards in one turn. After every step the tablet's HTML shows
    no face-down card, and every phone's hand stays hidden until held."""
    hands = {"Ann": ["assassin", "duke"], "Bob": ["captain", "duke"],
             "Cy": ["ambassador", "captain"]}
    night = new_night(tablet, new_phone, hands)
    face_up: dict[str, int] = {}

    def private() -> None:
        assert_tablet_private(tablet, face_up)
        for name, phone in night.phones.items():
            if name != "Bob" or not face_up:
                assert_hand_hidden(phone)

    private()
    hold_to_see(night.phone("Ann"), ["assassin", "duke"])
    for following in ("Bob", "Cy", "Ann"):
        night.declare("Income")
        expect(tablet.get_by_role("heading", name=turn(following))).to_be_visible()
        private()

    assassinate_bob_who_blocks_with_a_contessa(night, private)

    night.expect_phone("Bob", "Ann challenges your Contessa.")
    touch_and_hold(night.phone("Bob"), ["captain", "duke"])
    private()
    night.phone_open("Bob", "Tap to see your options")
    bob = night.phone("Bob")
    expect(bob.get_by_text("You don’t hold a Contessa.")).to_be_visible()
    expect(bob.get_by_role("button", name="Show the Contessa")).to_be_disabled()
    # E-2: the phone states the real cost of conceding the bluff, both cards (to Bob, as you).
    expect(bob.get_by_text("Concede: you lose an influence, then the Assassinate takes the "
                           "other one: you are out.")).to_be_visible()
    night.phone_tap("Bob", "Concede")
    private()

    night.lose("Bob", "captain")
    night.expect_phone("Bob", "You are out of the game.")
    expect(tablet.get_by_role("heading", name=turn("Cy"))).to_be_visible()
    face_up = {"captain": 1, "duke": 1}
    private()
    expect(bob.get_by_role("button", name="Hold to see your cards")).to_have_count(0)
    expect(tablet.locator("#tablet .seat.out")).to_have_count(1)
    expect(tablet.locator("#tablet .seat.out")).to_contain_text("Bob")
    for ruling in ("Bob does not show the Contessa: the block fails and Bob loses an influence.",
                   "The Assassinate goes ahead: Bob loses an influence.",
                   "Bob has no influence left and is out of the game."):
        night.expect_tablet(ruling)
        night.expect_phone("Cy", ruling)
    hold_to_see(night.phone("Ann"), ["assassin", "duke"])
    touch_and_hold(night.phone("Cy"), ["ambassador", "captain"])
    assert_not_reloaded(*night.pages)


def assassinate_bob_who_blocks_with_a_contessa(night: Night, private: Callable[[], None]) -> None:
    """Ann assassinates Bob, nobody challenges, Bob blocks with a Contessa, Ann challenges:
    the hands stay private at every step."""
    night.declare("Assassinate", target="Bob")
    night.expect_tablet("Does anyone challenge Ann’s Assassin?")
    night.expect_phone("Bob", "claims the Assassin to assassinate Bob")
    private()
    night.tap("Nobody challenges")
    night.expect_tablet("Does anyone block the Assassinate?")
    private()
    night.tap("Bob blocks with the Contessa")
    night.expect_tablet("Does anyone challenge Bob’s Contessa?")
    private()
    night.tap("Ann challenges")
