"""A seat with one card left on the TV's live board (outside tester): its face-down card was
drawn as a bar stretched across the seat, and the face-up one's name ("Губернатор") smaller
than the seat had room for (37 px in a 1920 x 1080 TV's four seats, where "Княжна" had 49 px;
11 px with eight seats at 1280 x 720). The back keeps the size of a seat's two backs; the
face-up card stands beside it, or lies over the back's right side where the seat is narrow,
its name whole on one line and as large as any card's name, or filling the room it has; the
row of seats is as tall as before the card turned. Two to eight seats, English and the
Russian box, on a 1920 x 1080 and a 1280 x 720 TV. On the same boards: the rulings shown are
the newest ones, none skipped (a shorter, older ruling filled the room a cut one left: "37."
then "34.")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import Shot, coup_until, tv_link, wider_than_the_screen  # noqa: E402
from playwright.sync_api import BrowserContext, expect  # noqa: E402
from tablekit import started_table  # noqa: E402
from test_night_tv_screens import CARD_NAMES_CUT  # noqa: E402

EIGHT: dict[str, list[str] | None] = {
    "Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"], "Cy": ["ambassador", "duke"],
    "Dmitri Alexandrovich": ["captain", "contessa"], "Eve": ["assassin", "ambassador"],
    "Fernanda": ["duke", "contessa"], "Gus": ["captain", "assassin"],
    "Hana": ["duke", "ambassador"]}
SIZES = ((1920, 1080), (1280, 720))

# The seat with one card face down and one face up: its back's box and a two-back seat's, the
# face-up card's name (its size, the card's own size, and how much of the room beside the back
# it fills: the cards' row less the back, the gap, the face-up card's padding and borders).
ONE_CARD = """() => {
  const seats = Array.from(document.querySelectorAll('.tv-seats > li'));
  const one = seats.find(s => s.querySelectorAll('.card.back').length === 1);
  const two = seats.find(s => s.querySelectorAll('.card.back').length === 2);
  const box = e => e.getBoundingClientRect();
  const up = one.querySelector('.card.up'), name = up.querySelector('.name');
  const back = box(one.querySelector('.card.back')), backs = box(two.querySelector('.card.back'));
  const style = getComputedStyle(up), px = v => parseFloat(v);
  const range = document.createRange();
  range.selectNodeContents(name);
  const room = box(one.querySelector('.cards')).right - box(up).left
    - px(style.paddingLeft) - px(style.paddingRight)
    - px(style.borderLeftWidth) - px(style.borderRightWidth);
  return {back: [back.width, back.height], backs: [backs.width, backs.height],
          name: name.textContent, size: px(getComputedStyle(name).fontSize),
          card: px(style.fontSize), fill: range.getBoundingClientRect().width / room};
}"""
ROW = "() => document.querySelector('#tv .tv-seats').getBoundingClientRect().height"
# The rulings, newest first, each shown (+) or hidden (-), by its number.
RULINGS = """() => Array.from(document.querySelectorAll('#tv .tv-log li'),
  li => (li.hidden ? '-' : '+') + (li.value || 'undone'))"""


@pytest.mark.parametrize("players", [2, 4, 6, 8])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_seat_with_one_card_left_shows_a_card_s_back_and_a_whole_name(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot, players: int, language: str,
) -> None:
    hands = dict(list(EIGHT.items())[:players])
    edition = {"ru": "la_mame_ru_2015"}.get(language, "official")
    t = started_table(live_app, hands, language=language, edition=edition)
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(live_server + tv_link(t))
    tv.wait_for_load_state("load")
    before = {}
    for width, height in SIZES:
        tv.set_viewport_size({"width": width, "height": height})
        before[width] = tv.evaluate(ROW)
    names = list(hands)
    coup_until(t, names[0], lambda player: len(player.revealed) >= 1)  # Ann's Duke, face up
    if players > 2:
        coup_until(t, names[-1], lambda player: player.out)
    tv.reload()
    tv.wait_for_load_state("load")
    expect(tv.locator("#tv .tv-seats > li").first.locator(".card.up")).to_have_count(1)
    for width, height in SIZES:
        tv.set_viewport_size({"width": width, "height": height})
        seat = tv.evaluate(ONE_CARD)
        screenshot(tv, f"tv-one-card-{players}-{language}-{width}")
        assert seat["back"] == pytest.approx(seat["backs"], abs=1), (width, seat)
        assert tv.evaluate(CARD_NAMES_CUT) == [], width
        # as large as the card's own type (every name's largest), or filling its room
        assert seat["size"] >= seat["card"] - 0.5 or seat["fill"] >= 0.8, (width, seat)
        assert abs(tv.evaluate(ROW) - before[width]) <= 1, width
        assert tv.evaluate("() => document.documentElement.scrollHeight") <= height
        assert wider_than_the_screen(tv) == [], width
        rulings = tv.evaluate(RULINGS)
        shown = [r for r in rulings if r.startswith("+")]
        assert shown and rulings[:len(shown)] == shown, (width, rulings)
