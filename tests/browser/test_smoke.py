"""The placeholder page opens on the referee tablet and on a phone, with htmx loaded."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from playwright.sync_api import Page, expect  # noqa: E402


def test_placeholder_page_on_tablet_and_phone(
    tablet: Page, phone: Page, screenshot: Callable[[Page, str], Path]
) -> None:
    for page, name in ((tablet, "smoke-tablet"), (phone, "smoke-phone")):
        page.goto("/")
        expect(page.get_by_role("heading", name="Coup referee")).to_be_visible()
        assert page.evaluate("typeof htmx") == "object"  # the vendored script loaded
        assert screenshot(page, name).stat().st_size > 0

    assert phone.viewport_size is not None and phone.viewport_size["width"] < 500
    assert tablet.viewport_size == {"width": 1280, "height": 800}
