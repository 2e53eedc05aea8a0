"""A player's hand in a real browser: what the tablet may show (no face-down card), and a
phone's "Hold to see your cards", with the mouse or a real touch."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

CARDS = ("duke", "assassin", "captain", "ambassador", "contessa", "inquisitor")
LABEL = {c: c.capitalize() for c in CARDS}

_CLASS = re.compile(r'class="([^"]*)"')


def card_elements(html: str) -> list[tuple[str, bool]]:
    """(card, face up?) for every card element (class ``card card-<name>``) in ``html``."""
    found = []
    for match in _CLASS.finditer(html):
        tokens = match.group(1).split()
        if "card" not in tokens:
            continue
        for token in tokens:
            if token.startswith("card-") and token[5:] in CARDS:
                found.append((token[5:], "up" in tokens))
    return found


def assert_tablet_private(tablet: Page, face_up: dict[str, int] | None = None) -> None:
    """The tablet's whole HTML shows no face-down card: every card element is a face-up one,
    and (when given) exactly the expected face-up cards appear."""
    html = tablet.content()
    elements = card_elements(html)
    hidden = [card for card, up in elements if not up]
    assert not hidden, f"the tablet shows face-down cards: {hidden}"
    if face_up is not None:
        shown: dict[str, int] = {}
        for card, _up in elements:
            shown[card] = shown.get(card, 0) + 1
        assert shown == {k: v for k, v in face_up.items() if v}, shown


def assert_hand_hidden(phone: Page) -> None:
    hand = phone.locator("#hand")
    expect(hand).to_have_attribute("hidden", "")
    expect(hand).to_be_hidden()


def expect_hand(phone: Page, cards: list[str]) -> None:
    """The phone shows exactly these cards in the hand (in any order)."""
    hand = phone.locator("#hand")
    expect(hand).to_be_visible()
    expect(hand.locator(".card")).to_have_count(len(cards))
    shown = sorted(hand.locator(".card").all_inner_texts())
    assert [s.strip() for s in shown] == sorted(LABEL[c] for c in cards), shown


def hold_to_see(phone: Page, cards: list[str]) -> None:
    """Press and hold "Hold to see your cards" with the mouse: the hand shows while held and
    hides on release."""
    assert_hand_hidden(phone)
    button = phone.get_by_role("button", name="Hold to see your cards")
    box = button.bounding_box()
    assert box is not None
    phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.mouse.down()
    try:
        expect_hand(phone, cards)
    finally:
        phone.mouse.up()
    assert_hand_hidden(phone)


def touch_and_hold(phone: Page, cards: list[str]) -> None:
    """The same with a real touch (touchStart ... touchEnd through the DevTools protocol)."""
    assert_hand_hidden(phone)
    box = phone.get_by_role("button", name="Hold to see your cards").bounding_box()
    assert box is not None
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = phone.context.new_cdp_session(phone)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        expect_hand(phone, cards)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert_hand_hidden(phone)
    finally:
        cdp.detach()
