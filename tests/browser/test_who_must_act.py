"""The table always knows who must act (issue 13), in a real browser: a double tap rules once,
the phone that must act says so and buzzes, players answer on their own phones, and a join code
once shown stays open.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, create_table, seat_everyone  # noqa: E402
from nightscreenkit import as_referee, as_seat, night_settings  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import (  # noqa: E402
    FOUR,
    GOLD,
    THREE,
    TWO,
    NewPhone,
    Shot,
    new_night,
    viewport_shot,
)
from tablekit import Table, started_table  # noqa: E402

HANDS = THREE


# Records each buzz instead of buzzing (injected by Playwright before the page's own scripts).
BUZZ_PROBE = """
window.__buzzes = 0;
Object.defineProperty(navigator, "vibrate", {
  configurable: true,
  value: function () { window.__buzzes += 1; return true; }
});
"""


def buzzing(new_phone: NewPhone) -> NewPhone:
    def make() -> Page:
        page = new_phone()
        page.context.add_init_script(BUZZ_PROBE)
        return page

    return make


def buzzes(page: Page) -> int:
    return int(page.evaluate("() => window.__buzzes"))


# -- 1. a double tap rules once ----------------------------------------------------------------


def test_a_double_tap_does_not_pass_the_next_window(tablet: Page, new_phone: NewPhone,
                                                     screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, HANDS)
    # A long guard, so that the second tap surely comes while the new screen settles.
    tablet.evaluate("() => document.body.setAttribute('data-tap-guard', '8000')")
    night.declare("Steal", "Bob")
    nobody_challenges = tablet.get_by_role("button", name="Nobody challenges")
    expect(nobody_challenges).to_be_enabled()
    box = nobody_challenges.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tablet.mouse.click(x, y)
    nobody_blocks = tablet.get_by_role("button", name="Nobody blocks")
    expect(nobody_blocks).to_be_visible()
    tablet.mouse.click(x, y)  # the second tap of the double tap, where the first one was
    # No tap was sent (a live refresh may be on its way: that is the refresher, not a form).
    assert tablet.evaluate("() => document.querySelector('form.htmx-request') === null")
    expect(nobody_blocks).to_be_disabled()
    screenshot(tablet, "who-acts-tablet-block-window-settling")
    # The next window's "Nobody" is not where the last one was, nor does it look the same.
    moved = nobody_blocks.bounding_box()
    assert moved is not None and abs(moved["y"] - box["y"]) > box["height"]
    look = "b => getComputedStyle(b).backgroundColor"
    assert nobody_blocks.evaluate(look) != "rgb(242, 193, 78)"  # the challenge bar's gold
    expect(nobody_blocks).to_be_enabled(timeout=30_000)  # then it works as usual
    night.expect_tablet("Nobody challenges.")
    expect(tablet.locator("#log")).not_to_contain_text("Nobody blocks.")
    night.tap("Nobody blocks")
    night.expect_tablet("Nobody blocks.")


# -- 2. who must act ---------------------------------------------------------------------------


def test_the_phone_that_must_act_says_it_and_buzzes(tablet: Page, new_phone: NewPhone,
                                                    screenshot: Shot) -> None:
    night = new_night(tablet, buzzing(new_phone), HANDS)
    ann, bob, cy = (night.phone(n) for n in ("Ann", "Bob", "Cy"))
    expect(ann.locator("#alert")).to_contain_text("It’s you")
    night.declare("Steal", "Bob")
    expect(bob.locator("#alert")).to_contain_text("Ann targets you with the Steal.")
    expect(bob.locator("#alert")).to_contain_text("It’s you")
    expect(bob.locator("#alert")).to_contain_text("You may challenge Ann’s Captain.")
    bob.wait_for_function("() => window.__buzzes >= 1", timeout=15_000)
    expect(cy.locator("#alert")).to_contain_text("You may challenge Ann’s Captain.")
    expect(cy.locator("#alert")).not_to_contain_text("It’s you")
    assert buzzes(cy) == 0
    # The tablet marks the seats the table waits for: Bob and Cy, not Ann.
    seats = tablet.locator("#seats > li")
    expect(seats.filter(has_text="Bob")).to_have_class(re.compile(r"\bacting\b"))
    expect(seats.filter(has_text="Cy")).to_have_class(re.compile(r"\bacting\b"))
    expect(seats.filter(has_text="Ann")).not_to_have_class(re.compile(r"\bacting\b"))
    screenshot(tablet, "who-acts-tablet-challenge-window")
    screenshot(bob, "who-acts-phone-targeted-challenge-window")
    screenshot(cy, "who-acts-phone-may-challenge")
    # Another seat's answer in the same window is no new question for Bob: no second buzz.
    once = buzzes(bob)
    night.sync()
    cy.locator("#answer").get_by_role("button", name="Let it stand").click()
    night.expect_tablet("Waiting for Bob")
    night.sync()
    assert buzzes(bob) == once
    # The block window is a new question: it buzzes.
    before = buzzes(bob)
    night.tap("Nobody challenges")
    expect(bob.locator("#alert")).to_contain_text("You may block it by claiming")
    bob.wait_for_function("n => window.__buzzes > n", arg=before)
    screenshot(tablet, "who-acts-tablet-block-window")
    screenshot(bob, "who-acts-phone-targeted-block-window")


def test_the_blocked_players_phone_says_who_blocks_what(tablet: Page, new_phone: NewPhone,
                                                        screenshot: Shot) -> None:
    """Bob blocks Ann's Foreign Aid: Ann's phone says so, in blue (she may challenge, as
    anyone may), and in her own language."""
    night = new_night(tablet, buzzing(new_phone), HANDS)
    ann = night.phone("Ann")
    ann.set_viewport_size({"width": 390, "height": 844})
    night.declare("Foreign Aid")
    night.tap("Bob blocks with the Duke")
    alert = ann.locator("#alert")
    expect(alert).to_contain_text("Bob blocks your Foreign Aid, claiming the Duke.")
    expect(alert).to_contain_text("You may challenge Bob’s Duke.")
    expect(alert).to_have_class(re.compile(r"\bmay\b"))
    expect(night.phone("Cy").locator("#alert")).not_to_contain_text("blocks your")
    screenshot(ann, "who-acts-phone-blocked-actor")
    screenshot(tablet, "who-acts-tablet-block-claimed")
    ann.locator("select[name=language]").select_option("ru")
    ann.get_by_role("button", name="Change").click()
    expect(alert).to_contain_text("Bob блокирует ваше действие")
    screenshot(ann, "who-acts-phone-blocked-actor-ru")


# -- the tablet's seats: gold must act, blue may, the turn a quiet mark of its own ----------

BLUE = "rgb(111, 179, 255)"
EDGE = "li => getComputedStyle(li).borderTopColor"


def seat_of(tablet: Page, name: str) -> Any:
    return tablet.locator("#seats > li").filter(
        has=tablet.get_by_role("heading", name=re.compile(rf"^{name}\b")))


def seats_say(tablet: Page, t: Table, must: dict[str, str], may: dict[str, str],
              turn: str) -> None:
    """The tablet's seats as the table stands: gold with their words for ``must``, blue for
    ``may``, every other seat neither; ``turn`` has the turn's mark and no gold of its own
    unless it must act."""
    tablet.reload()
    for name, words in must.items():
        expect(seat_of(tablet, name).locator(".to-act")).to_have_text(words)
        assert seat_of(tablet, name).evaluate(EDGE) == GOLD, name
    for name, words in may.items():
        expect(seat_of(tablet, name).locator(".to-act")).to_have_text(words)
        assert seat_of(tablet, name).evaluate(EDGE) == BLUE, name
    for name in set(t.names) - set(must) - set(may):
        assert seat_of(tablet, name).evaluate(EDGE) not in (GOLD, BLUE), name
        expect(seat_of(tablet, name).locator(".to-act")).not_to_be_visible()
    expect(tablet.locator("#seats .turn-mark")).to_have_count(1)
    expect(seat_of(tablet, turn).locator(".turn-mark")).to_be_visible()


def test_the_examined_seat_is_gold_not_the_examiner(live_app: Any, tablet: Page,
                                                    screenshot: Shot) -> None:
    """Ann's Inquisitor examines Bob: the table waits for Bob alone."""
    t = started_table(live_app, {"Ann": ["inquisitor", "duke"], "Bob": ["contessa", "assassin"],
                                 "Cy": ["captain", "duke"]}, exchanger="inquisitor")
    as_referee(tablet, t)
    t.step(do="examine", by="Ann", target="Bob")
    t.step(do="pass")
    seats_say(tablet, t, must={"Bob": "Must act"}, may={}, turn="Ann")
    screenshot(tablet, "who-acts-tablet-examine")


def test_a_block_window_for_the_target_alone_and_a_challenge_window_with_a_target(
        live_app: Any, tablet: Page, screenshot: Shot) -> None:
    """Ann steals from Bob: in the challenge window Bob must answer (gold) while Cy may
    challenge (blue); in the block window only Bob is asked (gold)."""
    t = started_table(live_app, {name: cards for name, cards in THREE.items()})
    as_referee(tablet, t)
    t.step(do="steal", by="Ann", target="Bob")
    seats_say(tablet, t, must={"Bob": "Must answer"}, may={"Cy": "May challenge"}, turn="Ann")
    screenshot(tablet, "who-acts-tablet-challenge-with-target")
    t.step(do="pass")
    seats_say(tablet, t, must={"Bob": "Must answer"}, may={}, turn="Ann")
    screenshot(tablet, "who-acts-tablet-block-for-one")
    t.step(do="pass")
    seats_say(tablet, t, must={"Bob": "Must act"}, may={}, turn="Bob")  # his turn now


# -- 4. answering from a phone -----------------------------------------------------------------


def test_players_answer_on_their_own_phones(tablet: Page, new_phone: NewPhone,
                                            screenshot: Shot) -> None:
    night = new_night(tablet, new_phone, HANDS)
    ann, bob, cy = (night.phone(n) for n in ("Ann", "Bob", "Cy"))
    screenshot(ann, "who-acts-phone-declare")
    night.sync()
    ann.locator("#answer summary", has_text="Steal").click()
    ann.locator("#answer").get_by_role("button", name="Bob", exact=True).click()
    night.expect_tablet("Ann: Steal → Bob (Captain)")
    night.sync()
    cy.locator("#answer").get_by_role("button", name="Let it stand").click()
    night.expect_tablet("Waiting for Bob")
    night.sync()
    first = bob.locator("#answer").get_by_role("button", name="Let it stand").bounding_box()
    bob.locator("#answer").get_by_role("button", name="Let it stand").click()
    expect(bob.locator("#answer")).to_contain_text("Block with the Captain")
    night.sync()
    # The block window's "Let it stand" is nowhere near where the challenge window's stood.
    second = bob.locator("#answer").get_by_role("button", name="Let it stand").bounding_box()
    assert first and second and second["y"] >= first["y"] + first["height"], (first, second)
    bob.locator("#answer").get_by_role("button", name="Block with the Captain").click()
    night.expect_tablet("Bob claims the Captain to block the Steal.")
    night.sync()
    ann.locator("#answer").get_by_role("button", name="Challenge").click()
    expect(bob.locator("#phone")).to_contain_text("Ann challenges your Captain.")
    expect(bob.locator("#alert")).to_contain_text("It’s you")
    screenshot(bob, "who-acts-phone-challenged")
    screenshot(tablet, "who-acts-tablet-challenged")
    night.phone_open("Bob", "Tap to see your options")
    night.phone_tap("Bob", "Concede")
    night.expect_phone("Bob", "choose the card to turn face up")
    screenshot(bob, "who-acts-phone-lose")
    screenshot(tablet, "who-acts-tablet-lose")


TARGET_BOXES = """() => Array.from(document.querySelectorAll('#answer details[open] button.target'),
    b => { const r = b.getBoundingClientRect(); return [r.left, r.top, r.bottom]; })"""


def test_a_phones_targets_are_a_compact_list_on_screen(tablet: Page, new_phone: NewPhone,
                                                       screenshot: Shot) -> None:
    """On a 390 px phone, "Steal ▸" opens its three targets one under the other, close
    together, on a row of their own under the actions, all on the screen."""
    night = new_night(tablet, new_phone, FOUR)
    ann = night.phone("Ann")
    ann.set_viewport_size({"width": 390, "height": 844})
    night.sync()
    steal = ann.locator("#answer summary", has_text="Steal")
    steal.click()
    steal.evaluate("s => s.scrollIntoView({block: 'start'})")
    targets = ann.evaluate(TARGET_BOXES)
    screenshot(ann, "who-acts-phone-steal-targets")
    assert len(targets) == 3, targets
    actions = ann.locator("#answer .actions").bounding_box()
    assert actions is not None
    for (left, top, _bottom), (_left, _top, above) in zip(targets[1:], targets, strict=False):
        assert top - above <= 16, targets  # no gap wider than a finger's breadth
        assert abs(left - actions["x"]) <= 2, (left, actions)  # from the left edge
    assert targets[-1][2] <= 844, targets  # the last one on the screen


# -- a join code -------------------------------------------------------------------------------


def test_the_join_code_stays_open_once_shown(tablet: Page) -> None:
    """A referee taps "Another referee", then "Show a code": the code stays on screen (the
    panel used to fold up with the new screen, hiding the code it had just made)."""
    create_table(tablet, ["Ann", "Bob"])
    tablet.get_by_text("Another referee").click()
    tablet.get_by_role("button", name="Show a code").click()
    expect(tablet.locator("details.join .code")).to_be_visible()
    expect(tablet.locator("details.join .code")).to_have_text(re.compile(r"^\d{6}$"))


def test_the_lobby_shows_a_saved_hand_only_while_held(tablet: Page, new_phone: NewPhone) -> None:
    """In the lobby, as in the game, a phone's saved cards show while the button is held and
    hide when it is let go: a tap never leaves them open on the table."""
    create_table(tablet, list(TWO))
    night = Night(tablet)
    seat_everyone(night, new_phone, TWO)
    ann = night.phone("Ann")
    hand = ann.locator("#lobby .hand")
    expect(hand).to_be_hidden()
    button = ann.get_by_role("button", name="Hold to see your cards")
    box = button.bounding_box()
    assert box is not None
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    expect(hand).to_be_visible()
    expect(hand).to_contain_text("Duke")
    ann.mouse.up()
    expect(hand).to_be_hidden()
    button.click()  # a tap: down and up
    expect(hand).to_be_hidden()


def test_the_join_code_leaves_the_waiting_line_in_sight(live_app: Any, tablet: Page) -> None:
    """The "Another referee" pop-up, code shown, covers neither the prompt nor its waiting line,
    at both tablet sizes."""
    t = started_table(live_app, {name: cards for name, cards in THREE.items()})
    as_referee(tablet, t)
    tablet.get_by_text("Another referee").click()
    tablet.get_by_role("button", name="Show a code").click()
    box = tablet.locator("details.join .join-box")
    expect(box.locator(".code")).to_be_visible()
    for width, height in ((1024, 768), (1280, 800)):
        tablet.set_viewport_size({"width": width, "height": height})
        viewport_shot(tablet, f"who-acts-tablet-join-code-{width}")
        for covered in ("#prompt", "#prompt .waiting"):
            assert tablet.evaluate("""s => {
                const a = document.querySelector('details.join .join-box').getBoundingClientRect();
                const b = document.querySelector(s).getBoundingClientRect();
                return a.right <= b.left || b.right <= a.left || a.bottom <= b.top
                    || b.bottom <= a.top; }""", covered), (covered, width)


def test_the_decision_timer_moves_nothing_on_the_phone(live_app: Any, live_server: str,
                                                       new_context: Any, playwright: Any,
                                                       screenshot: Shot) -> None:
    """Ann's phone, then the decision timer switched on: her alert and hand stand where they
    stood; the countdown floats at the foot of the screen, on it."""
    t = started_table(live_app, {name: cards for name, cards in THREE.items()})
    ann = as_seat(new_context(**playwright.devices["Pixel 7"]), live_server, t, "Ann")
    tops = "() => ['#alert', '#mine'].map(s => document.querySelector(s).getBoundingClientRect().y)"
    before = ann.evaluate(tops)
    night_settings(t, timer="30")
    ann.reload()
    box = ann.locator(".countdown")
    expect(box).to_be_visible()
    assert ann.evaluate(tops) == before
    screenshot(ann, "who-acts-phone-timer")
    found = box.bounding_box()
    assert found is not None and found["y"] + found["height"] <= ann.viewport_size["height"]
