"""A phone's own turn fits the phone (outside tester: at 390 x 664 the Russian "Обмен" was cut
off at the foot of the screen, and at 360 x 640 only four actions showed): "It's you" and every
action are on the screen without scrolling at 390 x 664, 360 x 640 and a Pixel 7's 412 x 839, in
every language and box, each action at least 44 px tall; a Reformation turn (8 actions) keeps
them all within reach. When the screen turns to this phone's decision, the page is brought to
its panel (the Japanese tester's had kept its old place, the panel above the screen), unless a
finger is on the screen. Screenshots: tests/artifacts/phone-turn-<box>-<size>.png."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import as_seat  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import viewport_shot  # noqa: E402
from tablekit import Table, started_table  # noqa: E402

from app.editions import EDITIONS  # noqa: E402

BOXES = ["official", "mosigra_ru", "la_mame_ru_2015", "ua_steampunk", "bga_pt", "ja"]
PHONES = {"390x664": (390, 664), "360x640": (360, 640), "412x839": (412, 839)}
HANDS: dict[str, list[str] | None] = {"Ann": ["duke", "captain"],
                                      "Bob": ["contessa", "assassin"],
                                      "Cy": ["ambassador", "captain"]}
SIX = {**HANDS, "Dee": ["duke", "contessa"], "Eve": ["assassin", "ambassador"],
       "Fay": ["duke", "assassin"]}

# The panel and each action shown, with whatever of it lies outside the viewport or is shorter
# than a fingertip (44 px).
OFF_OR_SMALL = """() => Array.from(document.querySelectorAll(
        '#alert, #answer .actions > form.step button, #answer .actions summary'))
    .filter(e => e.checkVisibility())
    .map(e => [e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40), e.getBoundingClientRect()])
    .filter(([, r]) => r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth
                       || r.height < 44)
    .map(([what, r]) => [what, Math.round(r.top), Math.round(r.bottom), Math.round(r.height)])"""


def own_turn(live_app: Any, live_server: str, new_context: Any, playwright: Any, box: str,
             hands: dict[str, list[str] | None] = HANDS, **settings: str) -> tuple[Table, Page]:
    """A started game in the box's language; Ann's phone (a Pixel 7) on her turn."""
    t = started_table(live_app, hands, language=EDITIONS[box].language, edition=box, **settings)
    ann = as_seat(new_context(**playwright.devices["Pixel 7"]), live_server, t, "Ann")
    expect(ann.locator("#alert .its-you")).to_be_visible()
    return t, ann


def off_at_each_size(ann: Page, name: str) -> dict[str, list[Any]]:
    off = {}
    for size, (width, height) in PHONES.items():
        ann.set_viewport_size({"width": width, "height": height})
        ann.evaluate("() => window.scrollTo(0, 0)")
        viewport_shot(ann, f"phone-turn-{name}-{size}")
        off[size] = ann.evaluate(OFF_OR_SMALL)
    return off


@pytest.mark.parametrize("box", BOXES)
def test_its_you_and_every_action_fit_the_phone(live_app: Any, live_server: str,
                                                new_context: Any, playwright: Any,
                                                box: str) -> None:
    _t, ann = own_turn(live_app, live_server, new_context, playwright, box)
    expect(ann.locator("#answer .actions > *")).to_have_count(7)  # Steal's fold holds two forms
    off = off_at_each_size(ann, box)
    assert off == {size: [] for size in PHONES}, off


def test_a_reformation_turn_keeps_every_action_within_reach(live_app: Any, live_server: str,
                                                            new_context: Any,
                                                            playwright: Any) -> None:
    _t, ann = own_turn(live_app, live_server, new_context, playwright, "mosigra_ru",
                       reformation="true")
    expect(ann.locator("#answer summary", has_text="Обращение")).to_be_visible()
    off = off_at_each_size(ann, "reformation-mosigra_ru")
    assert off["390x664"] == off["412x839"] == [], off
    # At 360 x 640 the last row may lie under the fold: a scroll away, never beside the screen.
    assert all(bottom > 640 and height >= 44
               for what, _top, bottom, height in off["360x640"]), off
    ann.set_viewport_size({"width": 360, "height": 640})
    assert ann.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    expect(ann.locator("#alert")).to_be_in_viewport(ratio=1)


def round_of_incomes(t: Table, ann: Page, finger: str | None = None) -> int:
    """Ann's Income; her screen scrolled to its foot (with ``finger`` run there), the others'
    Incomes: her turn again. Where her page was before it came."""
    assert t.phone_step("Ann", do="income").status_code == 200
    expect(ann.locator("#alert .its-you")).to_have_count(0)
    ann.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
    ann.wait_for_function("() => window.scrollY > 160")  # past where "It's you" will be
    if finger:
        ann.evaluate(finger)
    where = int(ann.evaluate("() => window.scrollY"))
    for name in list(SIX)[1:]:
        assert t.phone_step(name, do="income").status_code == 200
    expect(ann.locator("#alert .its-you")).to_be_attached()
    return where


@pytest.mark.parametrize("box", ["ja", "mosigra_ru"])
def test_the_page_comes_to_its_you_when_the_turn_comes(live_app: Any, live_server: str,
                                                       new_context: Any, playwright: Any,
                                                       box: str) -> None:
    t, ann = own_turn(live_app, live_server, new_context, playwright, box, SIX)
    ann.set_viewport_size({"width": 360, "height": 640})
    round_of_incomes(t, ann)
    expect(ann.locator("#alert")).to_be_in_viewport(ratio=1)
    viewport_shot(ann, f"phone-turn-comes-{box}-360x640")


FINGER_DOWN = """() => document.body.dispatchEvent(new TouchEvent('touchstart', {bubbles: true,
    touches: [new Touch({identifier: 1, target: document.body, clientX: 100, clientY: 300})]}))"""


def test_a_finger_scrolling_the_page_is_not_fought(live_app: Any, live_server: str,
                                                   new_context: Any, playwright: Any) -> None:
    t, ann = own_turn(live_app, live_server, new_context, playwright, "ja", SIX)
    ann.set_viewport_size({"width": 360, "height": 640})
    where = round_of_incomes(t, ann, FINGER_DOWN)
    assert ann.evaluate("() => window.scrollY") == where
