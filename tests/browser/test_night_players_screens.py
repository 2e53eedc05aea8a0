"""Game night's players' page in a real browser: the numbers across nights and a rename.

Games are played through the test client on the live server's own app (quicker than tapping
through a whole game); the browser then opens the screens a person would (nightscreenkit.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import (  # noqa: E402
    Shot,
    as_referee,
    wider_than_the_screen,
)
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import finished_game  # noqa: E402


def test_the_players_page_and_a_rename(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = finished_game(live_app)
    assert t.post("/rematch", {}).status_code == 200
    as_referee(tablet, t)  # only a referee's device renames or merges (issue 14.4)
    tablet.goto("/")
    tablet.get_by_role("link", name=re.compile("Players")).click()
    expect(tablet.locator("table.stats")).to_contain_text("Ann")
    screenshot(tablet, "night-players")
    form = tablet.locator("form", has=tablet.get_by_role("button", name="Rename"))
    form.locator("select").select_option("Bob")
    form.locator("input[name=new]").fill("Roberto")
    form.get_by_role("button", name="Rename").click()
    expect(tablet.locator("table.stats")).to_contain_text("Roberto")
    expect(tablet.get_by_role("status")).to_contain_text("Bob is now called Roberto.")

    # A 390 px phone that referees nothing: each player a card, nothing cut at the right, a
    # note on "—", and no tools.
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                        has_touch=True).new_page()
    phone.goto("/players")
    phone.wait_for_load_state("load")
    expect(phone.locator("table.stats td[data-label='Favourite claim']").first).to_be_visible()
    expect(phone.get_by_text("— means not known yet")).to_be_visible()
    expect(phone.get_by_text("Only a referee’s device")).to_be_visible()
    expect(phone.locator("form")).to_have_count(0)
    assert wider_than_the_screen(phone) == []
    screenshot(phone, "night-players-390")
