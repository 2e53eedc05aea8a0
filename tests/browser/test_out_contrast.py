"""The screens at the end of a game keep every word readable: an out player's face-up cards
and faction pass axe-core's contrast audit on the tablet and on the phones (Reformation)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import Table, started_table  # noqa: E402

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


def audit(page: Page) -> list[str]:
    """axe-core's serious and critical findings (WCAG 2 A and AA) on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    return list(page.evaluate("""async () => {
      const r = await axe.run(document, {runOnly: {type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
      return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
    }"""))


def reformation_won(app: Any) -> Table:
    """Ann (Loyalist) coups Bob (Reformist) out twice: Bob is out with two cards face up."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]},
                      reformation="true")
    turns = ({"do": "tax", "by": "Ann"}, {"do": "pass"}, {"do": "income", "by": "Bob"})
    for _round in range(3):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    assert t.phone_post("Bob", "/step", {"do": "lose", "card": "assassin"}).status_code == 200
    assert t.post("/step", {"do": "income", "by": "Bob"}).status_code == 200
    for _round in range(2):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    assert "Ann wins!" in t.page()
    return t


def test_the_game_over_screens_with_an_out_player_pass_the_audit(
        live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
        playwright: Any) -> None:
    t = reformation_won(live_app)
    tablet = new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
    tablet.goto(f"/t/{t.table_id}?key={t.live().table.referee_token}")
    expect(tablet.locator("#seats li.out")).to_have_count(1)
    shots = Path(__file__).resolve().parents[1] / "artifacts"
    shots.mkdir(parents=True, exist_ok=True)
    tablet.screenshot(path=str(shots / "out-contrast-tablet.png"))
    found = {"tablet": audit(tablet)}
    tablet.get_by_role("button", name="Round table").click()
    found["tablet, round table"] = audit(tablet)
    for name in ("Ann", "Bob"):
        context = new_context(**playwright.devices["Pixel 7"], bypass_csp=True)
        cookie = t.phone(name).get_cookie("coup_device")
        assert cookie is not None
        context.add_cookies([{"name": "coup_device", "value": cookie.value, "url": live_server}])
        phone = context.new_page()
        phone.goto(t.link(name))
        expect(phone.locator("#phone")).to_contain_text("Ann")
        phone.screenshot(path=str(shots / f"out-contrast-phone-{name}.png"))
        found[f"{name}'s phone"] = audit(phone)
    problems = {page: v for page, v in found.items() if v}
    assert not problems, "\n".join(f"{page}: {v}" for page, v in problems.items())
