"""An accessibility audit of every kind of page with axe-core (vendored under
tests/browser/vendor): no serious or critical violation, text contrast at WCAG AA (issue 13)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table, seat_everyone, start  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from screenkit import THREE, Shot  # noqa: E402

HANDS = THREE


AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


# The devices of conftest.py's tablet and phone fixtures (a module named conftest can't be
# imported from here: each test folder has one).
AUDIT_TABLET = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1,
                "has_touch": True}


AUDIT_PHONE = "Pixel 7"


def audit(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now (WCAG 2 A
    and AA, colour contrast included), once its buttons are settled: a button held a moment
    after the page or a screen came (app.js) is disabled, and axe checks no disabled button's
    contrast."""
    page.wait_for_function("() => !document.querySelector('[data-settling]')")
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
