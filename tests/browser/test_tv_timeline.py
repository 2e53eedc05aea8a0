"""The timeline on a TV and a tablet, as an outside tester read it from the sofa: a player's
name of two words in the lanes' first column was drawn at 5 px, squeezed onto one line of a
narrow column; and a game of some 400 turns ran past the foot of a TV, which can't scroll,
in 5 px type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import (  # noqa: E402
    SIX,
    Shot,
    marathon,
    play_out,
    tv_timeline,
    wider_than_the_screen,
)
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import finished_game, started_table  # noqa: E402
from test_timeline_whole_words import BROKEN, FLOOR, fits_the_tv  # noqa: E402
from test_tv_board import mixed_game  # noqa: E402
from test_tv_one_card import EIGHT  # noqa: E402

# The font size (px) of every word of every lane's name, and of the median chip.
SIZES = """() => {
  const size = e => parseFloat(getComputedStyle(e).fontSize);
  const chips = Array.from(document.querySelectorAll('table.lanes .chip'),
    c => size(c.querySelector('.fit') || c)).sort((a, b) => a - b);
  const words = Array.from(document.querySelectorAll('table.lanes .lane-name .name'),
    w => [w.textContent, size(w)]);
  return {words, chip: chips[Math.floor(chips.length / 2)],
          body: size(document.body)};
}"""

# BROKEN of the bands a TV shows (tablet.js hides the oldest of a long game's).
SHOWN_BROKEN = BROKEN.replace("table.lanes ", "table.lanes:not([hidden]) ")
assert SHOWN_BROKEN.count(":not([hidden])") == 2

# What a TV shows of the timeline: the first turn of the first band shown, the last turn of
# the last, the body's type and the median chip's (px).
SHOWN = """() => {
  const bands = Array.from(document.querySelectorAll('table.lanes')).filter(b => !b.hidden);
  const turns = b => Array.from(b.querySelectorAll('thead th[scope=col]')).slice(1);
  const size = e => parseFloat(getComputedStyle(e).fontSize);
  const chips = bands.flatMap(b => Array.from(b.querySelectorAll('.chip'),
    c => size(c.querySelector('.fit') || c))).sort((a, b) => a - b);
  return {first: Number(turns(bands[0])[0].textContent),
          last: Number(turns(bands[bands.length - 1]).pop().textContent),
          body: size(document.body), chip: chips[Math.floor(chips.length / 2)]};
}"""


# Each legend entry and each coins-after-the-turn figure of the bands shown drawn under the
# floor (px), with its size.
SMALL_TYPE = """floor => Array.from(document.querySelectorAll(
    '.legend li, table.lanes:not([hidden]) .tl-coins'))
  .filter(e => e.offsetParent !== null && e.textContent.trim())
  .map(e => [e.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)])
  .filter(([, size]) => size < floor).map(([w, size]) => w + ': ' + size + 'px')"""
SOFA = 14  # px: the least a TV 1080 px high draws the legend and the coins in


def tablet_timeline(context: BrowserContext, live_server: str, t: Any) -> Page:
    """The referee's timeline of ``t`` (the tablet's key link first, as a referee opens it)."""
    page = context.new_page()
    page.goto(live_server + t.url + "?key=" + t.live().table.referee_token)
    page.goto(live_server + t.url + "/timeline")
    page.wait_for_load_state("load")
    return page


def test_a_lane_s_two_word_name_breaks_between_its_words_in_readable_type(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Six players, one of them "Dmitri Alexandrovich", 61 turns: on the TV his lane's name is
    "Dmitri" over "Alexandrovich", each word whole, as large as the other players' names and
    no smaller than the median chip (it was 5 px, the chips 12 px); on a tablet, and a wide
    screen's tablet timeline, as large as the page's type (it was 7 px of 16)."""
    t = play_out(started_table(live_app, SIX), mixed_game, 2000)
    assert t.phone_post("Ann", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    screenshot(tv, "tv-timeline-lane-names")
    assert fits_the_tv(tv)
    assert tv.evaluate(BROKEN, FLOOR) == []
    drawn = tv.evaluate(SIZES)
    assert ["Dmitri", "Alexandrovich"] in [
        [w for w, _size in drawn["words"][i:i + 2]] for i in range(len(drawn["words"]))]
    shown = tv.evaluate(SHOWN)  # the whole game, and no line about turns left out
    assert shown["first"] == 1 and shown["last"] == tv.locator("ol.turn-list > li").count()
    expect(tv.locator(".tl-head .left-out")).to_be_hidden()
    largest = max(size for _w, size in drawn["words"])
    assert all(size >= largest - 0.1 for _w, size in drawn["words"]), drawn
    assert largest >= drawn["chip"], drawn
    for width, height in ((1280, 800), (1920, 1080)):
        page = tablet_timeline(new_context(viewport={"width": width, "height": height}),
                               live_server, t)
        screenshot(page, f"tablet-timeline-lane-names-{width}")
        assert page.evaluate(BROKEN, FLOOR) == [], width
        drawn = page.evaluate(SIZES)
        assert all(size >= drawn["body"] - 0.1 for _w, size in drawn["words"]), (width, drawn)


@pytest.mark.parametrize("players", [2, 5, 8])
def test_the_legend_and_the_coins_are_read_from_the_sofa(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot, players: int,
) -> None:
    """Outside tester: the TV's timeline open at a game's end drew its legend at 11.7 px and
    the coins after each turn at 11 px on a 1920 x 1080 TV. Both are 14 px or more there, in
    proportion on a 1280 x 720 TV, for two to eight players, and nothing overflows."""
    t = play_out(started_table(live_app, dict(list(EIGHT.items())[:players])), mixed_game, 3000)
    assert t.phone_post("Ann", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    for width, height in ((1920, 1080), (1280, 720)):
        tv.set_viewport_size({"width": width, "height": height})
        tv.wait_for_function(f"() => document.documentElement.scrollHeight <= {height}")
        screenshot(tv, f"tv-timeline-sofa-{players}-{width}")
        assert tv.evaluate(SMALL_TYPE, SOFA * height / 1080) == [], (players, width)
        assert wider_than_the_screen(tv) == [], (players, width)
        assert tv.evaluate(SHOWN_BROKEN, 7 * height / 1080) == [], (players, width)


LONG: dict[str, list[str] | None] = {
    "Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"], "Cy": ["ambassador", "duke"],
    "Dee": ["captain", "contessa"], "Eve": ["assassin", "ambassador"],
    "Fay": ["duke", "contessa"]}


def test_a_400_turn_game_shows_its_newest_turns_readable_and_says_which_are_left_out(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """Outside tester: a game of about 400 turns ran past a 1920 x 1080 TV's foot (1,541 px
    in 5 px type; a TV can't scroll). The TV shows the newest turns that fit in readable
    type (the body 10 px or more, its chips 9 px, in proportion on a 1280 x 720 TV), every
    player's totals, and a line saying which turns are left out and where they are."""
    t = play_out(started_table(live_app, LONG), marathon(380), 5000)
    assert t.phone_post("Ann", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    turns = tv.locator("ol.turn-list > li").count()
    assert turns >= 400, turns
    assert fits_the_tv(tv)  # 1920 x 1080
    for width, height in ((1920, 1080), (1280, 720)):
        tv.set_viewport_size({"width": width, "height": height})
        tv.wait_for_function(f"() => document.documentElement.scrollHeight <= {height}")
        screenshot(tv, f"tv-timeline-{turns}-turns-{width}")
        shown = tv.evaluate(SHOWN)
        assert shown["last"] == turns, shown
        assert 20 <= turns - shown["first"] + 1 <= 150, shown
        left_out = tv.locator(".tl-head .left-out")
        expect(left_out).to_have_text(
            f"Turns 1–{shown['first'] - 1} are on the tablet and the phones.")
        expect(left_out).to_be_in_viewport(ratio=1)
        expect(tv.locator("table.tallies")).to_be_in_viewport(ratio=1)
        assert wider_than_the_screen(tv) == [], width
        scale = height / 1080
        assert shown["body"] >= 10 * scale and shown["chip"] >= 9 * scale, (width, shown)
        assert tv.evaluate(SMALL_TYPE, SOFA * scale) == [], width
        # every word whole; a long unit in the narrowest turns is drawn smaller (README)
        assert tv.evaluate(SHOWN_BROKEN, 7 * scale) == [], width



# Each chip where a mark or an arrow stands on another line than what it marks ("Coup →" over
# "Bob").
APART = r"""() => Array.from(document.querySelectorAll('table.lanes .chip')).filter(chip => {
  const walk = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const top = (node, at) => { range.setStart(node, at); range.setEnd(node, at + 1);
                              return range.getBoundingClientRect().top; };
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (const mark of node.data.matchAll(/[→✓✗?⊘⚔✝▲▼][ \u00a0](?=\S)/g)) {
      if (Math.abs(top(node, mark.index) - top(node, mark.index + 2)) > 2) return true;
    }
  }
  return false;
}).map(chip => chip.textContent)"""


def test_a_chip_s_arrow_stays_with_its_player(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot,
) -> None:
    """A short game's timeline on a TV, grown to fill the screen: "Coup → Bob" wrapped as
    "Coup →" over "Bob" (a chip of short words was plain text, breakable at any space). It
    wraps between its units only: "Coup" over "→ Bob"; a mark stays with its card."""
    t = finished_game(live_app)
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    tv = tv_timeline(t, new_context, live_server)
    screenshot(tv, "tv-timeline-short-units")
    expect(tv.locator("table.lanes .chip", has_text="Coup")).not_to_have_count(0)
    assert tv.evaluate(APART) == []
