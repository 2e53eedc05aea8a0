"""The README's pictures, from a real game: the tablet in the middle of a turn and the phone
of a player who was just challenged. Each run saves them as docs/screenshot-tablet.png and
docs/screenshot-phone.png (only when the picture changed, so an unchanged screen leaves git
clean), at the screens' CSS size to keep the files small.

Also: a rule tag's anchor on the Rules page (``/rules#E-13``) opens that rule in view.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table, seat_everyone, start  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"
HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["captain", "ambassador"], "Dee": ["duke", "contessa"]}
MAX_BYTES = 250_000  # a README picture should not weigh down a clone


def save(page: Page, name: str) -> Path:
    """The visible screen at CSS pixels, into docs/ if it differs from what is there."""
    picture = page.screenshot(scale="css", type="png")
    assert len(picture) < MAX_BYTES, f"{name}: {len(picture)} bytes"
    path = DOCS / name
    if not path.exists() or path.read_bytes() != picture:
        path.write_bytes(picture)
    return path


def test_the_readme_screenshots_come_from_a_real_game(
    tablet: Page, new_phone: Callable[[], Page], screenshot: Callable[[Page, str], Path]
) -> None:
    create_table(tablet, list(HANDS))
    night = Night(tablet)
    seat_everyone(night, new_phone, HANDS)
    start(night, "Ann")

    night.declare("Tax")
    night.tap("Nobody challenges")
    night.declare("Foreign Aid")  # Bob
    night.tap("Nobody blocks")
    night.declare("Steal", target="Ann")  # Cy claims the Captain
    night.expect_tablet("Does anyone challenge Cy’s Captain?")
    night.sync()
    save(tablet, "screenshot-tablet.png")

    night.tap("Ann challenges")
    night.expect_phone("Cy", "Ann challenges your Captain.")
    night.phone_open("Cy", "Tap to see your options")
    cy = night.phone("Cy")
    expect(cy.get_by_text("You hold the Captain.")).to_be_visible()
    save(cy, "screenshot-phone.png")

    tablet.goto(tablet.url.split("#")[0].split("?")[0] + "/rules#E-13")
    rule = tablet.locator('[id="E-13"]')
    expect(rule).to_contain_text("A proven block also gets a new card")
    expect(rule).to_be_in_viewport()
    screenshot(tablet, "rules-page-tablet")
