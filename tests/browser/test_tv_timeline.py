"""The timeline on a TV and a tablet, as an outside tester read it from the sofa: a player's
name of two words in the lanes' first column was drawn at 5 px, squeezed onto one line of a
narrow column."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightscreenkit import SIX, Shot, play_out, tv_timeline  # noqa: E402
from playwright.sync_api import BrowserContext, Page  # noqa: E402
from tablekit import started_table  # noqa: E402
from test_timeline_whole_words import BROKEN, FLOOR, fits_the_tv  # noqa: E402
from test_tv_board import mixed_game  # noqa: E402

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
