"""Game night's screens in a real browser: the timeline of a finished game on the tablet and on
a phone, the spectators' board following the game live, and the decision timer's countdown on
the tablet and on the phone of whoever the table waits for.

Games are played through the test client on the live server's own app (quicker than tapping
through a whole game); the browser then opens the screens a person would: the tablet with the
referee's key link, a phone with the device cookie of the client that holds its seat.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402
from tablekit import Table, finished_game, started_table  # noqa: E402

Shot = Callable[[Page, str], Path]
LIVE_MS = 5_000
HANDS: dict[str, list[str] | None] = {"Ann": ["duke", "captain"],
                                      "Bob": ["contessa", "assassin"]}


def as_referee(tablet: Page, t: Table) -> None:
    tablet.goto(f"/t/{t.table_id}?key={t.live().table.referee_token}")
    expect(tablet.locator("#tablet")).to_be_visible()


def as_seat(context: BrowserContext, live_server: str, t: Table, name: str) -> Page:
    """A browser that holds the seat the test client opened (its device cookie)."""
    cookie = t.phone(name).get_cookie("coup_device")
    assert cookie is not None
    context.add_cookies([{"name": "coup_device", "value": cookie.value, "url": live_server}])
    page = context.new_page()
    page.goto(t.link(name))
    expect(page.locator("#phone")).to_be_visible()
    return page


def night_settings(t: Table, **form: str) -> None:
    assert t.post("/night", form).status_code == 200


def test_the_timeline_opens_after_the_game_on_the_tablet_and_a_phone(
    live_app: Any, live_server: str, tablet: Page, new_context: Callable[..., BrowserContext],
    playwright: Any, screenshot: Shot,
) -> None:
    t = finished_game(live_app)
    as_referee(tablet, t)
    tablet.get_by_role("link", name="Who bluffed when").click()
    expect(tablet.get_by_text("closes this game for good")).to_be_visible()
    tablet.get_by_role("button", name="Open the timeline").click()
    expect(tablet.locator("table.lanes").first.locator("tbody tr")).to_have_count(2)
    expect(tablet.locator("tr.lane.won th").first).to_contain_text("Ann")
    expect(tablet.locator("tr.lane").first.locator(".chip.claim.held").first).to_be_visible()
    expect(tablet.locator("table.lanes .chip.lose")).to_have_count(2)
    expect(tablet.locator("svg.spark polyline")).to_have_count(2)
    screenshot(tablet, "night-timeline-tablet")

    phone_context = new_context(**playwright.devices["Pixel 7"])
    bob = as_seat(phone_context, live_server, t, "Bob")
    bob.get_by_role("link", name="Who bluffed when").click()
    expect(bob.locator("ol.turn-list > li").first).to_be_visible()  # a phone: turns going down
    # nothing is wider than the phone: no sideways swipe
    bob.wait_for_load_state("load")  # measured with the style sheet applied (a busy machine)
    width = bob.evaluate("() => document.documentElement.scrollWidth")
    assert width <= bob.viewport_size["width"] + 1
    screenshot(bob, "night-timeline-phone")

    # a 390 x 844 phone: each player's totals stacked, nothing wider than the screen
    small = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                        device_scale_factor=2)
    ann = as_seat(small, live_server, t, "Ann")
    ann.goto(live_server + t.link("Ann") + "/timeline")
    ann.wait_for_load_state("load")
    totals = ann.locator("table.tallies")
    expect(totals.locator("tbody tr")).to_have_count(2)
    wide = totals.evaluate("(t) => [t.scrollWidth, t.getBoundingClientRect().right]")
    assert wide[0] <= 390 and wide[1] <= 390, wide
    expect(totals.locator("td[data-label='Challenges lost']").first).to_be_visible()
    totals.scroll_into_view_if_needed()
    screenshot(ann, "night-timeline-totals-390")


def long_game(app: Any, hands: dict[str, list[str] | None] | None = None,
              **settings: str) -> Table:
    """A finished game of more than 25 turns: incomes, a few Duke claims let stand, and coups
    whenever a player has 7 coins, until one player is left."""
    from app.engine import pending

    t = started_table(app, hands or {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
                                     "Cy": ["ambassador", "duke"]}, **settings)
    for _step in range(400):
        game = t.live().game
        assert game is not None
        if game.over:
            return t
        prompt = pending(game)[0]
        me = game.player(prompt.player)
        if prompt.kind == "declare":
            others = [p.name for p in game.players if p.name != me.name and not p.out]
            if me.coins >= 7:
                step = {"do": "coup", "by": me.name, "target": others[0]}
            elif me.name == "Ann" and len(t.steps()) % 5 == 0:
                step = {"do": "tax", "by": me.name}
            else:
                step = {"do": "income", "by": me.name}
            assert t.post("/step", step).status_code == 200
        elif prompt.private:
            assert me.hand is not None
            card = me.hand[0]
            assert t.phone_post(me.name, "/step", {"do": prompt.kind, "card": card}
                                ).status_code == 200, prompt
        else:
            assert t.post("/step", {"do": "pass"}).status_code == 200
    raise AssertionError("the game did not end")


def wider_than_the_screen(page: Page) -> list[str]:
    """Every element whose content is wider than its box (or the page's), by tag and class.
    Headings hidden for screen readers only (clipped to nothing on purpose) are not shown."""
    return page.evaluate("""() => {
      const out = [];
      const root = document.documentElement;
      const readerOnly = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const style = getComputedStyle(e);
          if (style.clipPath !== "none" || style.clip !== "auto") return true;
        }
        return false;
      };
      if (root.scrollWidth > root.clientWidth) out.push("page " + root.scrollWidth);
      for (const el of document.body.querySelectorAll("*")) {
        if (el.closest("svg") && el.tagName !== "svg") continue;
        if (readerOnly(el)) continue;
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== "inline") {
          out.push(el.tagName + "." + el.className + " " + el.scrollWidth + ">" + el.clientWidth);
        }
      }
      return out;
    }""")


@pytest.mark.parametrize("size", [(390, 844), (1280, 800), (1920, 1080)])
def test_a_long_game_s_timeline_fits_the_width_of_a_phone_a_tablet_and_a_tv(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext],
    screenshot: Shot, size: tuple[int, int],
) -> None:
    """Issue 14.1: 25 turns and more, read with vertical scrolling only: turns as rows on a
    phone, lanes in bands as wide as the screen on a tablet or a TV."""
    t = long_game(live_app)
    width, height = size
    context = new_context(viewport={"width": width, "height": height})
    page = as_seat(context, live_server, t, "Bob")
    page.goto(live_server + t.link("Bob") + "/timeline")
    if page.get_by_role("button", name="Open the timeline").count():
        page.get_by_role("button", name="Open the timeline").click()
    page.wait_for_load_state("load")
    turns = page.locator("ol.turn-list > li").count()
    assert turns >= 25, turns
    if width < 640:
        expect(page.locator("ol.turn-list")).to_be_visible()
        expect(page.locator("div.bands")).to_be_hidden()
    else:
        expect(page.locator("div.bands")).to_be_visible()
        expect(page.locator("ol.turn-list")).to_be_hidden()
        last = page.locator("table.lanes").last.locator("thead th").last
        expect(last).to_have_text(str(turns))  # the last turn is drawn, not cut off
        box = page.locator("div.bands").bounding_box()
        assert box is not None and box["width"] >= min(width, 1152) - 64, box
    assert wider_than_the_screen(page) == []
    screenshot(page, f"night-timeline-25-turns-{width}")


def test_a_phone_shows_no_empty_bar_before_the_first_ruling(
    live_app: Any, live_server: str, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = started_table(live_app, {**HANDS, "Cleo": ["duke", "ambassador"]})
    context = new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                          has_touch=True)
    ann = as_seat(context, live_server, t, "Ann")
    expect(ann.locator("#table .others > li")).to_have_count(2)
    expect(ann.locator("#table ol.log")).to_be_hidden()
    assert t.post("/step", {"do": "income", "by": "Ann"}).status_code == 200
    expect(ann.locator("#table ol.log li").first).to_be_visible(timeout=LIVE_MS)
    screenshot(ann, "night-phone-first-ruling")


def test_the_timeline_is_refused_mid_game_in_the_browser(
    live_app: Any, tablet: Page
) -> None:
    t = started_table(live_app, HANDS)
    as_referee(tablet, t)
    expect(tablet.get_by_role("link", name="Who bluffed when")).to_have_count(0)
    response = tablet.goto(f"/t/{t.table_id}/timeline")
    assert response is not None and response.status == 409
    expect(tablet.get_by_role("alert")).to_contain_text("opens once the game is over")


def test_the_tv_follows_the_game_live_and_shows_no_control(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = started_table(live_app, {**HANDS, "Cy": None})
    as_referee(tablet, t)
    tablet.get_by_text("Game night").click()
    link = tablet.locator(".watch a").get_attribute("href")
    assert link and "/w/" in link
    qr = tablet.locator(".watch img.qr")
    expect(qr).to_be_visible()
    assert tablet.evaluate("(img) => img.naturalWidth > 0", qr.element_handle())
    screenshot(tablet, "night-tablet-tools")

    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(link)
    expect(tv.locator("#tv h1")).to_contain_text("Ann’s turn")
    expect(tv.locator("#tv")).to_contain_text("Ann to declare an action")
    expect(tv.locator("form, button")).to_have_count(0)
    assert tv.locator(".card.back").count() == 6
    for card in ("duke", "captain", "contessa", "assassin"):
        expect(tv.locator(f".card-{card}")).to_have_count(0)
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    expect(tv.locator("#tv .tv-log")).to_contain_text("Ann", timeout=LIVE_MS)
    expect(tv.locator("#tv .waiting")).to_contain_text("challenge", timeout=LIVE_MS)
    screenshot(tv, "night-tv")


def test_the_tv_shows_the_night_s_scoreboard_at_the_game_s_end(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = finished_game(live_app)
    night_settings(t, target="3")
    as_referee(tablet, t)
    tablet.get_by_text("Game night").click()
    link = tablet.locator(".watch a").get_attribute("href")
    assert link
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(link)
    expect(tv.locator("#tv h1")).to_contain_text("Ann wins!")
    scores = tv.locator("#tv .scores")
    expect(scores).to_contain_text("first to 3 wins")
    expect(scores.locator("li.leads")).to_contain_text("Ann")
    box = scores.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080  # above the fold of the TV
    screenshot(tv, "night-tv-scores")


SIX = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
       "Cy": ["ambassador", "duke"], "Dmitri Alexandrovich": ["captain", "contessa"],
       "Eve": ["assassin", "ambassador"], "Fernanda": ["duke", "contessa"]}


@pytest.mark.parametrize(("players", "language", "size"), [
    (2, "pt-BR", (1920, 1080)), (4, "en", (1920, 1080)), (6, "en", (1920, 1080)),
    (4, "en", (1280, 720)), (6, "ru", (1280, 720)),
])
def test_the_tv_s_winner_screen_fits_without_scrolling(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
    players: int, language: str, size: tuple[int, int],
) -> None:
    """Issue 14.2: a TV can't scroll. Every seat, the night's scoreboard and its winner line,
    and the newest rulings are above the fold; the seats use the whole width."""
    t = long_game(live_app, dict(list(SIX.items())[:players]), language=language)
    night_settings(t, target="1")
    as_referee(tablet, t)
    tablet.locator("details.night-tools > summary").click()
    link = tablet.locator(".watch a").get_attribute("href")
    assert link
    width, height = size
    tv = new_context(viewport={"width": width, "height": height}).new_page()
    tv.goto(link)
    tv.wait_for_load_state("load")
    expect(tv.locator("#tv .tv-seats > li")).to_have_count(players)
    wanted = ["#tv h1", "#tv .scores", "#tv .scores .champion", "#tv .tv-log li >> nth=0",
              *(f"#tv .tv-seats > li >> nth={i}" for i in range(players))]
    for selector in wanted:
        box = tv.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["y"] + box["height"] <= height, (selector, box)
        assert box["x"] + box["width"] <= width, (selector, box)
    seats = tv.locator("#tv .tv-seats").bounding_box()
    assert seats is not None and seats["width"] >= width * 0.85, seats
    assert tv.evaluate("() => document.documentElement.scrollHeight") <= height
    assert wider_than_the_screen(tv) == []
    screenshot(tv, f"night-tv-{players}-{language}-{width}")


def test_the_timer_counts_down_on_the_tablet_and_the_waited_for_phone(
    live_app: Any, live_server: str, tablet: Page, new_context: Callable[..., BrowserContext],
    playwright: Any, screenshot: Shot,
) -> None:
    t = started_table(live_app, HANDS)
    night_settings(t, timer="10")
    tablet.clock.install()
    as_referee(tablet, t)
    box = tablet.locator(".countdown")
    expect(box).to_contain_text("Time to decide for Ann")
    expect(box.locator("[data-left]")).to_have_text(re.compile(r"0:(0\d|10)"))
    screenshot(tablet, "night-timer-tablet")

    ann_context = new_context(**playwright.devices["Pixel 7"])
    ann = as_seat(ann_context, live_server, t, "Ann")
    expect(ann.locator(".countdown")).to_be_visible()
    screenshot(ann, "night-timer-phone")
    bob_context = new_context(**playwright.devices["Pixel 7"])
    bob = as_seat(bob_context, live_server, t, "Bob")
    expect(bob.locator(".countdown")).to_have_count(0)

    tablet.clock.fast_forward(5_000)
    # another region's swap runs the page's scripts again: the count goes on, it does not
    # start again from the number the box was drawn with
    tablet.evaluate("document.body.dispatchEvent(new CustomEvent('htmx:afterSettle', "
                    "{bubbles: true}))")  # the listener draws the seconds left synchronously
    left = tablet.evaluate("document.querySelector('[data-left]').textContent")  # at once
    assert re.fullmatch(r"0:0[0-6]", left), left
    tablet.clock.fast_forward(6_000)
    expect(box.locator("[data-up]")).to_be_visible()
    expect(box).to_contain_text("Time is up for Ann.")
    expect(box).to_contain_text("The referee decides what happens.")
    screenshot(tablet, "night-timer-up")
    assert t.steps() == []  # nothing was applied


def test_on_time_out_the_tablet_lets_the_claim_stand(
    live_app: Any, tablet: Page
) -> None:
    t = started_table(live_app, HANDS)
    night_settings(t, timer="10", stand="1")
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    as_referee(tablet, t)
    expect(tablet.locator(".countdown")).to_contain_text("Time to decide for Bob")
    # The server checks its own clock, so this waits the real ten seconds.
    expect(tablet.locator("#tablet")).to_contain_text("Bob’s turn", timeout=20_000)
    assert t.steps() == [{"do": "tax", "by": "Ann"}, {"do": "pass"}]


def test_the_players_page_and_a_rename(
    live_app: Any, tablet: Page, new_context: Callable[..., BrowserContext], screenshot: Shot,
) -> None:
    t = finished_game(live_app)
    assert t.post("/rematch", {}).status_code == 200
    as_referee(tablet, t)  # only a referee's device renames or merges (issue 14.4)
    tablet.goto("/")
    tablet.get_by_role("link", name=re.compile("Players")).click()
    expect(tablet.locator("table.stats")).to_contain_text("Ann")
    screenshot(tablet, "night-players")
    form = tablet.locator("form", has=tablet.get_by_role("button", name="Rename"))
    form.locator("select").select_option("Bob")
    form.locator("input[name=new]").fill("Roberto")
    form.get_by_role("button", name="Rename").click()
    expect(tablet.locator("table.stats")).to_contain_text("Roberto")
    expect(tablet.get_by_role("status")).to_contain_text("Bob is now called Roberto.")

    # A 390 px phone that referees nothing: each player a card, nothing cut at the right, a
    # note on "—", and no tools.
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                        has_touch=True).new_page()
    phone.goto("/players")
    phone.wait_for_load_state("load")
    expect(phone.locator("table.stats td[data-label='Favourite claim']").first).to_be_visible()
    expect(phone.get_by_text("— means not known yet")).to_be_visible()
    expect(phone.get_by_text("Only a referee’s device")).to_be_visible()
    expect(phone.locator("form")).to_have_count(0)
    assert wider_than_the_screen(phone) == []
    screenshot(phone, "night-players-390")


FAKE_SPEECH = """
(() => {
  window.__spoken = [];
  const voices = %s;
  Object.defineProperty(window, "speechSynthesis", {value: {
    getVoices: () => voices,
    speak: (u) => window.__spoken.push([u.text, u.lang]),
    cancel: () => {},
    addEventListener: () => {},
  }});
  window.SpeechSynthesisUtterance = function (text) { this.text = text; };
})();
"""


def speech_on(live_app: Any, tablet: Page, language: str, voices: str) -> Any:
    """A started table in ``language`` on a tablet whose (stand-in) speech engine has
    ``voices``, with the read-aloud switch turned on."""
    t = started_table(live_app, HANDS, language=language)
    tablet.context.add_init_script(FAKE_SPEECH % voices)
    as_referee(tablet, t)
    tablet.locator(".night-tools summary").click()
    tablet.locator("[data-speech-switch]").check()
    return t


def test_rulings_are_read_aloud_in_the_table_s_language(
    live_app: Any, tablet: Page
) -> None:
    t = speech_on(live_app, tablet, "ru", '[{"lang": "en-US"}, {"lang": "ru-RU"}]')
    tablet.wait_for_timeout(300)  # let the stream open
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    tablet.wait_for_function("() => window.__spoken.length > 0", timeout=LIVE_MS)
    spoken = tablet.evaluate("() => window.__spoken")
    assert spoken[0][1] == "ru-RU"
    assert "Ann" in spoken[0][0] and "Duke" in spoken[0][0]
    assert all("captain" not in text.lower() for text, _lang in spoken)
    expect(tablet.locator("[data-speech-none]")).to_be_hidden()


def test_the_tablet_says_when_the_device_has_no_voice_for_the_language(
    live_app: Any, tablet: Page
) -> None:
    speech_on(live_app, tablet, "ja", '[{"lang": "en-US"}]')
    expect(tablet.locator("[data-speech-none]")).to_be_visible()
    assert tablet.evaluate("() => window.__spoken.length") == 0
