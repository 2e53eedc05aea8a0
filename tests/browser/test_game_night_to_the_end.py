"""A game night in a real browser, to its end: a game to its winner and a new game at the same
table, and the laptop's server restarting mid-game. Every screen follows the others live
(see test_game_night.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from handkit import (  # noqa: E402
    assert_tablet_private,
    hold_to_see,
)
from nightkit import (  # noqa: E402
    NewPhone,
    Night,
    Shot,
    assert_not_reloaded,
    create_table,
    enter_hand,
    new_night,
    region,
    seat,
    seat_everyone,
    start,
    stream_openings,
    turn,
    wait_stream,
)
from playwright.sync_api import Page, expect  # noqa: E402

if TYPE_CHECKING:  # only a type: tests/web has a conftest module of the same name
    from serverkit import ServerProcess

RECONNECT_MS = 15_000
"""A stream that lost its server retries on its own (EventSource waits about 3 s, htmx's
extension backs off); the 10 s polling is the fallback behind it."""


# -- 4. a game to its winner, and a rematch ------------------------------------------------


def test_a_game_to_its_winner_then_a_new_game_at_the_same_table(
    tablet: Page, new_phone: NewPhone, screenshot: Shot
) -> None:
    hands = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]}
    night = new_night(tablet, new_phone, hands)  # two players: Ann starts with 1 coin

    night.declare("Tax")  # Ann: 4 coins
    night.tap("Nobody challenges")
    expect(tablet.get_by_role("heading", name=turn("Bob"))).to_be_visible()
    night.declare("Tax")  # Bob bluffs a Duke
    night.tap("Ann challenges")
    night.expect_phone("Bob", "Ann challenges your Duke.")
    night.phone_open("Bob", "Tap to see your options")
    night.phone_tap("Bob", "Concede")
    night.lose("Bob", "assassin")
    expect(tablet.get_by_role("heading", name=turn("Ann"))).to_be_visible()
    night.declare("Tax")  # Ann: 7 coins
    night.tap("Nobody challenges")
    expect(tablet.get_by_role("heading", name=turn("Bob"))).to_be_visible()
    night.declare("Income")
    expect(tablet.get_by_role("heading", name=turn("Ann"))).to_be_visible()
    night.declare("Coup", target="Bob")  # Bob's last card goes: nothing to choose

    expect(tablet.get_by_role("heading", name="Ann wins!")).to_be_visible()
    night.expect_phone("Ann", "You win!")
    night.expect_phone("Bob", "Ann wins.")
    night.expect_phone("Bob", "You are out of the game.")
    assert_tablet_private(tablet, {"assassin": 1, "contessa": 1})
    screenshot(tablet, "game-night-tablet-winner")
    screenshot(night.phone("Ann"), "game-night-phone-winner")

    night.tap("New game, same table")
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    for name in hands:
        expect(seat(tablet, name)).to_contain_text("phone connected")
        night.expect_phone(name, "Enter the two cards you were dealt")
    assert_not_reloaded(*night.pages)

    enter_hand(night.phone("Bob"), ["captain", "ambassador"])
    expect(seat(tablet, "Bob")).to_contain_text("hand entered")
    enter_hand(night.phone("Ann"), ["duke", "contessa"])
    night.tap("Start the game")
    expect(tablet.get_by_role("heading", name=turn("Ann"))).to_be_visible()  # the winner starts
    night.expect_phone("Bob", turn("Ann"))
    hold_to_see(night.phone("Bob"), ["captain", "ambassador"])
    assert_tablet_private(tablet, {})
    assert_not_reloaded(*night.pages)


# -- 6. the laptop's server restarts mid-game ---------------------------------------------


def test_a_restart_of_the_server_mid_game_loses_nothing(
    tablet: Page, new_phone: NewPhone, server_process: ServerProcess
) -> None:
    """The real `coup-referee serve` (gevent) is stopped with SIGTERM mid-challenge-window and
    started again on the same port and instance: the same pages, with the same cookies, show
    the game where it was, their event streams reconnect, and play goes on live."""
    server = server_process
    server.start()
    hands = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]}
    create_table(tablet, list(hands), home=f"{server.url}/")
    night = Night(tablet)
    seat_everyone(night, new_phone, hands)
    assert all(link.startswith(f"{server.url}/s/") for link in night.links.values())
    start(night, "Ann")
    night.declare("Income")
    expect(tablet.get_by_role("heading", name=turn("Bob"))).to_be_visible()
    night.declare("Tax")  # Bob bluffs a Duke; the challenge window is open
    night.expect_tablet("Does anyone challenge Bob’s Duke?")
    night.sync()
    before = {page: region(page).inner_text() for page in night.pages}
    openings = {page: stream_openings(page) for page in night.pages}

    assert server.stop() == 0, server.output()
    server.start()

    # Each page's stream reconnects by itself (app.js then fetches the view again).
    for page in night.pages:
        wait_stream(page, openings[page] + 1, timeout=RECONNECT_MS)
    night.sync()
    for page, text in before.items():
        assert region(page).inner_text() == text, f"{page.url} changed across the restart"
    # A fresh page with the same cookies sees the same table: it was stored, not remembered.
    for page, text in before.items():
        again = page.context.new_page()
        again.goto(page.url)
        assert region(again).inner_text() == text
        again.close()

    night.tap("Ann challenges")  # the old page's form: its tokens still hold
    night.expect_phone("Bob", "Ann challenges your Duke.")
    night.phone_open("Bob", "Tap to see your options")
    night.phone_tap("Bob", "Concede")
    night.lose("Bob", "assassin")
    night.expect_tablet("Bob turns the Assassin face up.")
    expect(tablet.get_by_role("heading", name=turn("Ann"))).to_be_visible()
    night.expect_phone("Ann", turn("Ann"))
    assert_tablet_private(tablet, {"assassin": 1})
    hold_to_see(night.phone("Bob"), ["contessa"])
    assert_not_reloaded(*night.pages)
