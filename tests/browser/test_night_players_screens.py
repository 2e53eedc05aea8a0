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
    long_game,
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


def test_a_merge_asks_with_both_names_and_its_refusal_stands_by_its_form(
    live_app: Any, tablet: Page, screenshot: Shot,
) -> None:
    """Issue 14 (outside check): the question names the two players chosen; declining it
    changes nothing; "played in the same game" shows in the merge form."""
    t = long_game(live_app, {"Mira": ["duke", "captain"], "Nils": ["contessa", "assassin"]})
    assert t.post("/rematch", {}).status_code == 200  # names of their own: the app is shared
    as_referee(tablet, t)
    tablet.goto("/players")
    form = tablet.locator("form[data-merge]")
    form.locator("select[name=name]").select_option("Nils")
    form.locator("select[name=into]").select_option("Mira")
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if len(asked) == 1:
            dialog.dismiss()
        else:
            dialog.accept()

    tablet.on("dialog", answer)
    form.get_by_role("button", name="Merge").click()
    expect(tablet.locator(".field-problem")).to_have_count(0)
    assert asked == ["Merge Nils into Mira? Every game of Nils becomes Mira’s. "
                     "This can’t be undone."], asked
    form.get_by_role("button", name="Merge").click()
    problem = tablet.locator("form[data-merge] .field-problem")
    expect(problem).to_contain_text("Nils and Mira played in the same game")
    expect(tablet.locator("form[data-merge] select[name=into]")).to_have_value("Mira")
    expect(tablet.locator("main > .flash")).to_have_count(0)
    screenshot(tablet, "night-players-merge-refused")
