"""A phone's page loads app.css and night.css, not the big screens' tablet.css and tablet.js
(base.html; docs/PERFORMANCE.md, page weight): what it leaves out must never have shown on a
phone. At every window of a game, on each phone, every element's computed style (and its
::before and ::after) is read, tablet.css is added to the page, and the styles must be the same.

The game is played through the test client on the live server's own app, with the decision
timer on (a phone's countdown), and covers the lobby's hand entry, a turn to declare, a
challenge and a block window, a proof and its draw, an exchange, losing a card, a player out
and the game's end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import as_seat, night_settings  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import Table, seated_table, version_of  # noqa: E402

HANDS = {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"],
         "Cy": ["captain", "captain"]}

STYLES = """() => {
  const read = (el, pseudo) => {
    const cs = getComputedStyle(el, pseudo);
    const out = [];
    for (let i = 0; i < cs.length; i += 1) { out.push(cs[i] + ": " + cs.getPropertyValue(cs[i])); }
    return out;
  };
  return Array.from(document.querySelectorAll("html, html *:not(#added-sheet)"), (el) => [
    el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (typeof el.className === "string"
      && el.className ? "." + el.className.split(" ").join(".") : ""),
    read(el, null), read(el, "::before"), read(el, "::after")]);
}"""

ADD_SHEET = """(href) => new Promise((done) => {
  const link = document.createElement("link");
  link.rel = "stylesheet"; link.href = href; link.id = "added-sheet";
  link.onload = () => done(true); link.onerror = () => done(false);
  document.head.append(link);
})"""

SETTLED = "() => !document.querySelector('.htmx-request, [data-settling], [data-sending]')"

SHOWN = """() => {
  const copy = document.documentElement.cloneNode(true);
  copy.querySelectorAll("[data-left]").forEach((left) => { left.textContent = ""; });
  return copy.outerHTML;
}"""
"""The page as it stands, but for the countdown's seconds (they tick between the readings)."""


def styles_differ(before: list[Any], after: list[Any]) -> list[str]:
    """Each element whose style the added sheet changed, with what changed (the first few)."""
    found = []
    for (name, *mine), (_same, *theirs) in zip(before, after, strict=True):
        for part, (a, b) in zip(("", "::before", "::after"), zip(mine, theirs, strict=True),
                                strict=True):
            if a != b:
                changed = sorted(set(a) ^ set(b))[:6]
                found.append(f"{name}{part}: {changed}")
    return found[:10]


def assert_big_screens_change_nothing(phone: Page, window: str) -> None:
    """Adding tablet.css to ``phone`` as it is changes no element's computed style (read
    again if a live update came between the two readings)."""
    for _attempt in range(5):
        phone.wait_for_function(SETTLED)
        html = phone.evaluate(SHOWN)
        before = phone.evaluate(STYLES)
        assert phone.evaluate(ADD_SHEET, "/static/tablet.css"), "tablet.css did not load"
        after = phone.evaluate(STYLES)
        phone.evaluate("() => document.getElementById('added-sheet').remove()")
        if phone.evaluate(SHOWN) == html:
            changed = styles_differ(before, after)
            assert not changed, f"{window}: tablet.css changes a phone's page: {changed}"
            return
    raise AssertionError(f"{window}: the phone's page never stood still for two readings")


def check_every_phone(t: Table, phones: dict[str, Page], window: str) -> None:
    version = version_of(t.page())
    for name, phone in phones.items():
        expect(phone.locator("#phone")).to_have_attribute("data-version", version)
        assert_big_screens_change_nothing(phone, f"{window}, {name}'s phone")


def step(t: Table, **data: str) -> None:
    assert t.step(**data).status_code == 200, data


def phone_step(t: Table, name: str, **data: Any) -> None:
    assert t.phone_step(name, **data).status_code == 200, (name, data)


def test_the_big_screens_sheet_changes_nothing_on_any_phone_window(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    playwright: Any,
) -> None:
    t = seated_table(live_app, list(HANDS))
    phones = {name: as_seat(new_context(**playwright.devices["Pixel 7"]), live_server, t, name)
              for name in HANDS}
    for phone in phones.values():  # the page links neither of the big screens' files
        assert phone.locator("link[href*='tablet.css'], script[src*='tablet.js']").count() == 0
    check_every_phone(t, phones, "the lobby: enter your hand")
    for name, cards in HANDS.items():
        assert t.enter_hand(name, cards).status_code == 200
    check_every_phone(t, phones, "the lobby: hands entered")
    night_settings(t, timer="90")
    assert t.post("/start", {}).status_code == 200
    check_every_phone(t, phones, "Ann's turn, the timer on")

    step(t, do="exchange", by="Ann")
    check_every_phone(t, phones, "a challenge window")
    step(t, do="pass")
    check_every_phone(t, phones, "the exchange's draw")
    phone_step(t, "Ann", do="draw", cards=["duke", "contessa"])
    check_every_phone(t, phones, "the exchange's keep")
    phone_step(t, "Ann", do="keep", cards=["ambassador", "duke"])

    step(t, do="foreign_aid", by="Bob")
    check_every_phone(t, phones, "a block window")
    phone_step(t, "Ann", do="block", **{"as": "duke"})
    step(t, do="challenge", by="Bob")
    check_every_phone(t, phones, "a proof to give")
    phone_step(t, "Ann", do="prove")
    check_every_phone(t, phones, "the draw after a proof")
    phone_step(t, "Ann", do="draw", cards="captain")
    check_every_phone(t, phones, "a card to lose")
    phone_step(t, "Bob", do="lose", card="assassin")

    incomes(t, ("Cy", "Ann", "Bob"), 5)  # 7 coins each
    step(t, do="coup", by="Cy", target="Bob")  # his last card turns face up by itself
    check_every_phone(t, phones, "Bob out")
    step(t, do="coup", by="Ann", target="Cy")
    phone_step(t, "Cy", do="lose", card="captain")
    incomes(t, ("Cy", "Ann"), 7)
    step(t, do="income", by="Cy")
    step(t, do="coup", by="Ann", target="Cy")
    assert "Ann wins!" in t.page()
    check_every_phone(t, phones, "the game's end")


def incomes(t: Table, names: tuple[str, ...], rounds: int) -> None:
    for _ in range(rounds):
        for name in names:
            step(t, do="income", by=name)
