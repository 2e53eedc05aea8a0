"""The tablet's headline while a player chooses on their phone which card to lose, in a real
browser (outside tester: it still showed the block that had just failed). Bob blocks Ann's
Steal claiming the Ambassador, Ann challenges, Bob concedes: while Bob chooses, the tablet says
whom it waits for and the Steal going ahead, not the block; then the Steal goes through."""

from __future__ import annotations

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import SIZES, THREE, NewPhone, new_night, viewport_shot  # noqa: E402


@pytest.mark.parametrize("size", SIZES)
def test_while_the_blocker_loses_a_card_the_headline_is_the_steal(tablet: Page,
                                                                   new_phone: NewPhone,
                                                                   size: str) -> None:
    width, height = SIZES[size]
    tablet.set_viewport_size({"width": width, "height": height})
    night = new_night(tablet, new_phone, THREE)
    night.declare("Steal", "Bob")
    night.tap("Nobody challenges")
    night.tap("Bob blocks with the Ambassador")
    night.tap("Ann challenges")
    night.phone_open("Bob", "Tap to see your options")
    night.phone_tap("Bob", "Concede")
    night.expect_phone("Bob", "choose the card to turn face up")
    night.sync()
    prompt = tablet.locator("#prompt")
    expect(prompt.locator(".waiting")).to_have_text("Waiting for Bob to turn a card face up.")
    expect(prompt.locator(".claim")).to_have_text("Ann: Steal → Bob (Captain)")
    expect(prompt).not_to_contain_text("to block")
    viewport_shot(tablet, f"headline-tablet-blocker-loses-{size}")
    night.lose("Bob", "contessa")
    night.expect_tablet("Ann steals 2 coins from Bob.")
