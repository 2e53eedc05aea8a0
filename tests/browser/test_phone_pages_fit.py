"""No page of a phone is wider than a 360 px phone, in any box and its language (outside
tester: the Russian hand entry was 404 px wide, "Правила" and the second column of cards cut
off at the right edge): the hand entry, the lobby, the game on the player's own turn, the
exchange's draw and keep, and the end, each with every fold open. Screenshots:
tests/artifacts/phone-fit-<box>-<screen>.png."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import as_seat, wider_than_the_screen  # noqa: E402
from playwright.sync_api import Page  # noqa: E402
from screenkit import viewport_shot  # noqa: E402
from tablekit import Table, finished_game, new_table, tablet_pass  # noqa: E402

from app.editions import EDITIONS  # noqa: E402

SMALL_PHONE = {"width": 360, "height": 640}


class Walk:
    """One phone, at 360 x 640, looked at on each screen it comes to."""

    def __init__(self, new_context: Any, playwright: Any, live_server: str, box: str) -> None:
        self.new_context, self.playwright, self.live_server = new_context, playwright, live_server
        self.box = box
        self.wide: dict[str, list[str]] = {}

    def open(self, t: Table, name: str) -> Page:
        context = self.new_context(**{**self.playwright.devices["Pixel 7"],
                                      "viewport": SMALL_PHONE})
        return as_seat(context, self.live_server, t, name)

    def look(self, phone: Page, screen: str) -> None:
        phone.reload()
        phone.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        viewport_shot(phone, f"phone-fit-{self.box}-{screen}")
        if phone.evaluate("w => document.scrollingElement.scrollWidth > w", SMALL_PHONE["width"]):
            self.wide[screen] = wider_than_the_screen(phone)


@pytest.mark.parametrize("box", list(EDITIONS))
def test_no_phone_page_is_wider_than_a_small_phone(live_app: Any, live_server: str,
                                                    new_context: Any, playwright: Any,
                                                    box: str) -> None:
    walk = Walk(new_context, playwright, live_server, box)
    settings = {"language": EDITIONS[box].language, "edition": box}
    t = new_table(live_app, ["Ann", "Bob"], **settings)
    assert t.open_phone("Ann").status_code == 200
    ann = walk.open(t, "Ann")
    walk.look(ann, "hand-entry")
    assert t.enter_hand("Ann", ["ambassador", "duke"]).status_code == 200
    walk.look(ann, "lobby")
    assert t.open_phone("Bob").status_code == 200
    assert t.enter_hand("Bob", ["contessa", "assassin"]).status_code == 200
    assert t.post("/start", {}).status_code == 200
    walk.look(ann, "own-turn")
    assert t.step(do="exchange", by="Ann").status_code == 200
    tablet_pass(t)
    walk.look(ann, "draw")
    assert t.phone_step("Ann", do="draw", cards=["duke", "contessa"]).status_code == 200
    walk.look(ann, "keep")
    end = finished_game(live_app, **settings)
    walk.look(walk.open(end, "Ann"), "end-winner")
    walk.look(walk.open(end, "Bob"), "end-out")
    assert walk.wide == {}, walk.wide
