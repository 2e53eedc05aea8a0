"""What game night's browser tests share: a game played through the test client on the live
server's own app (quicker than tapping through a whole game), and the browser opening the
screens a person would: the tablet with the referee's key link, a phone with the device cookie
of the client that holds its seat."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from tablekit import Table, started_table

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


TV_SIZE = {"width": 1920, "height": 1080}


def open_tv(tablet: Page, new_context: Callable[..., BrowserContext]) -> Page:
    """A TV (1920x1080, its own browser) opened from the spectators' link in the tablet's
    game-night tools, as a referee would give it."""
    tablet.locator("details.night-tools > summary").click()
    link = tablet.locator(".watch a").get_attribute("href")
    assert link and "/w/" in link, link
    tv = new_context(viewport=TV_SIZE).new_page()
    tv.goto(link)
    return tv


def tv_link(t: Table) -> str:
    """The spectators' link (its path) on the tablet's page of ``t``."""
    found = re.search(r'href="(?:https?://[^/"]+)?(/w/[^"]+)"', t.page())
    assert found, "no spectators' link on the tablet"
    return found.group(1)


def tv_timeline(t: Table, new_context: Callable[..., BrowserContext], live_server: str) -> Page:
    """A TV (1920x1080) on the timeline of ``t``'s game, loaded."""
    tv = new_context(viewport=TV_SIZE).new_page()
    tv.goto(live_server + tv_link(t) + "/timeline")
    tv.wait_for_load_state("load")
    return tv


def night_settings(t: Table, **form: str) -> None:
    assert t.post("/night", form).status_code == 200



SIX = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
       "Cy": ["ambassador", "duke"], "Dmitri Alexandrovich": ["captain", "contessa"],
       "Eve": ["assassin", "ambassador"], "Fernanda": ["duke", "contessa"]}



Declare = Callable[[Any, Any, list[str], Table], dict[str, str]]


def play_out(t: Table, declare: Declare, steps: int = 400) -> Table:
    """Play ``t`` to its end through the test client: each turn's declaration from
    ``declare(game, player, others, t)``; every window let stand; a lost card the first held."""
    from app.engine import pending

    for _step in range(steps):
        game = t.live().game
        assert game is not None
        if game.over:
            return t
        prompt = pending(game)[0]
        me = game.player(prompt.player)
        if prompt.kind == "declare":
            others = [p.name for p in game.players if p.name != me.name and not p.out]
            assert t.post("/step", declare(game, me, others, t)).status_code == 200
        elif prompt.private:
            assert me.hand is not None
            assert t.phone_post(me.name, "/step", {"do": prompt.kind, "card": me.hand[0]}
                                ).status_code == 200, prompt
        else:
            assert t.post("/step", {"do": "pass"}).status_code == 200
    raise AssertionError("the game did not end")


def coup_at_seven(action: str) -> Declare:
    """Each player takes ``action`` (income, or a Duke's tax let stand), and at 7 coins coups
    the last other player still in."""

    def declare(game: Any, me: Any, others: list[str], t: Table) -> dict[str, str]:
        if me.coins >= 7:
            return {"do": "coup", "by": me.name, "target": others[-1]}
        return {"do": action, "by": me.name}

    return declare


def marathon(until: int) -> Declare:
    """A game that goes on: until the ``until``-th turn each player steals from the richest
    other player (every claim let stand; the coins only change hands), or takes an income
    when nobody has two; then incomes, and a Coup at 7 coins, until one player is left. Six
    players and ``until`` 380: some 470 turns."""
    declared = [0]

    def declare(game: Any, me: Any, others: list[str], t: Table) -> dict[str, str]:
        declared[0] += 1
        richest = max(others, key=lambda name: game.player(name).coins)
        if declared[0] < until and game.player(richest).coins >= 2 and me.coins < 8:
            return {"do": "steal", "by": me.name, "target": richest}
        if me.coins >= 7:
            return {"do": "coup", "by": me.name, "target": others[-1]}
        return {"do": "income", "by": me.name}

    return declare


def long_game(app: Any, hands: dict[str, list[str] | None] | None = None,
              **settings: str) -> Table:
    """A finished game of more than 25 turns: incomes, a few Duke claims let stand, and coups
    whenever a player has 7 coins, until one player is left."""

    def declare(game: Any, me: Any, others: list[str], t: Table) -> dict[str, str]:
        if me.coins >= 7:
            return {"do": "coup", "by": me.name, "target": others[0]}
        if me.name == "Ann" and len(t.steps()) % 5 == 0:
            return {"do": "tax", "by": me.name}
        return {"do": "income", "by": me.name}

    return play_out(started_table(app, hands or {
        "Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
        "Cy": ["ambassador", "duke"]}, **settings), declare)


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



def coup_until(t: Table, victim: str, done: Callable[[Any], bool]) -> None:
    """Incomes, and a Coup against ``victim`` by whoever has 7 coins, until ``done`` holds of
    ``victim`` (the engine's player); each loser turns up the first card it holds."""
    from app.engine import pending

    while not done(t.live().game.player(victim)):
        game = t.live().game
        prompt = pending(game)[0]
        me = game.player(prompt.player)
        if prompt.kind == "declare":
            coup = me.coins >= 7 and me.name != victim
            step = {"do": "coup", "target": victim} if coup else {"do": "income"}
            assert t.post("/step", {**step, "by": me.name}).status_code == 200
        else:
            assert me.hand is not None and prompt.private, prompt
            lost = t.phone_post(me.name, "/step", {"do": prompt.kind, "card": me.hand[0]})
            assert lost.status_code == 200
