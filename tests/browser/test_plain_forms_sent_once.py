"""A plain form (not htmx) is sent once (outside tester: a double tap on "Create the table"
made two tables). The server holds the first "Create the table" until the second tap is made,
as a slow answer would: the second tap sends nothing, and the start page lists one table. Back
on the start page with the browser's back button, the form works again."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from playwright.sync_api import Page, expect  # noqa: E402

WAIT_S = 30  # a wait, not a limit: a busy machine is slow


class HeldCreation:
    """The service's table creation, each call held until :meth:`release` (and counted)."""

    def __init__(self, create: Any) -> None:
        self.create = create
        self.calls = 0
        self.entered = threading.Event()
        self.released = threading.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        self.entered.set()
        assert self.released.wait(WAIT_S), "the test never released the creation"
        return self.create(*args, **kwargs)

    def release(self) -> None:
        self.released.set()


@pytest.fixture
def held(live_app: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldCreation]:
    tables = live_app.extensions["tables"]
    holder = HeldCreation(tables.create)
    monkeypatch.setattr(tables, "create", holder)
    yield holder
    holder.release()


def tables_listed(tablet: Page) -> int:
    tablet.goto("/")
    listed = tablet.locator("section.resume li")
    return listed.count()


def create_button_point(tablet: Page) -> tuple[float, float]:
    """Where "Create the table" is, once it has settled (a page just loaded holds its buttons
    a moment) and is in view."""
    button = tablet.get_by_role("button", name="Create the table")
    expect(button).to_be_enabled()
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_double_tap_on_create_the_table_makes_one_table(tablet: Page, held: HeldCreation
                                                          ) -> None:
    tablet.goto("/")
    tablet.locator("textarea[name=players]").fill("Ann\nBob\nCy")
    x, y = create_button_point(tablet)
    tablet.mouse.click(x, y)  # by the mouse: it waits for no page to load
    assert held.entered.wait(WAIT_S)  # the first tap's form reached the server, unanswered
    tablet.mouse.click(x, y)  # the second tap of the double tap, while the first is on its way
    held.release()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    tablet.wait_for_load_state("networkidle")
    assert held.calls == 1
    assert tables_listed(tablet) == 1


def test_back_on_the_start_page_the_form_is_sent_again(tablet: Page, held: HeldCreation
                                                      ) -> None:
    held.release()
    tablet.goto("/")
    tablet.locator("textarea[name=players]").fill("Ann\nBob")
    tablet.get_by_role("button", name="Create the table").click()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    tablet.go_back()
    expect(tablet.get_by_role("button", name="Create the table")).to_be_visible()
    tablet.locator("textarea[name=players]").fill("Dee\nEve")
    tablet.get_by_role("button", name="Create the table").click()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    assert held.calls == 2 and tables_listed(tablet) == 2


def test_a_page_back_from_the_browsers_cache_sends_its_form_again(tablet: Page) -> None:
    """The browser's own event as it shows a page again from its cache (pageshow, persisted;
    this headless browser reloads the page instead): the form sent before the page was left
    works again. The page stands for one that was left: its first submit goes nowhere."""
    tablet.goto("/")
    tablet.evaluate("""() => window.addEventListener(
        "submit", e => e.preventDefault(), {once: true})""")
    tablet.locator("textarea[name=players]").fill("Ann\nBob")
    button = tablet.get_by_role("button", name="Create the table")
    expect(button).to_be_enabled()
    button.click()  # sent, and the page left...
    tablet.evaluate("""() => window.dispatchEvent(
        new PageTransitionEvent("pageshow", {persisted: true}))""")  # ...and back
    expect(button).to_be_enabled()
    button.click()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    assert tables_listed(tablet) == 1
