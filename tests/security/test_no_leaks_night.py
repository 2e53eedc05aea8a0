"""No leaks on game night's screens, proven by difference: two games that differ only in
Ann's hidden card, played with the decision timer on ("let it stand" closes each window), look
the same byte for byte to everyone but Ann until the game is over and its timeline opened.

Ann beats Bob without losing a card, so her hand stays hidden to the end; in the second game
her Taxes are bluffs. Before and after each window the clock closes, each of these is fetched
and compared: the referee's screen and Bob's phone (page, fragment, the event their stream
sends), the spectators' board (page, fragment, stream), the timeline on every screen (refused
mid-game), the whole log and the players' page with its numbers. Once the game is over, the
timeline's door and the players' page still hold nothing of Ann's hand (an undo could reopen
the game); once the timeline is opened it shows the hands, and only then do the two differ.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

import pytest
from tablekit import (
    CSRF_FIELD,
    HTMX,
    PUBLIC,
    Table,
    csrf_of,
    finished_game,
    make_app,
    stop_the_clock,
    timing_out,
    version_of,
    watch_link,
)

from app.web import views

Seen = list[tuple[str, int, str]]  # (what was fetched, its status, its body: masked)

HELD = ("duke", "captain")  # Ann's Taxes are true
BLUFFED = ("ambassador", "captain")  # the same Taxes are bluffs


def play(tmp_path, monkeypatch: pytest.MonkeyPatch, name: str, ann: tuple[str, str]
         ) -> tuple[Table, Seen]:
    """The game with Ann holding ``ann``, everything the other devices were sent, masked."""
    app = make_app(tmp_path / name)
    stop_the_clock(app, monkeypatch, 31)  # every window has run out when it is looked at
    seen: Seen = []

    def window(t: Table) -> None:
        look(t, seen, "a window open")
        timing_out(t)
        look(t, seen, "the clock closed it")

    t = finished_game(app, ann=ann, window=window)
    look(t, seen, "game over")
    return t, [(what, status, masked(t, body)) for what, status, body in seen]


def look(t: Table, seen: Seen, when: str) -> None:
    """Every screen but Ann's phone, as its device fetches it now."""
    tv = t.app.test_client()
    watch = watch_link(t)
    bob = t.phone("Bob")
    version = t.live().version
    fetched: dict[str, Callable[[], object]] = {
        "tablet page": lambda: t.tablet.get(t.url),
        "tablet fragment": lambda: t.tablet.get(f"{t.url}/view?since={version - 1}",
                                                headers=HTMX),
        "tablet stream": lambda: first_event(t.tablet, f"{t.url}/events?since={version - 1}"),
        "tablet timeline": lambda: t.tablet.get(t.url + "/timeline"),
        "tablet whole log": lambda: t.tablet.get(t.url + "/log"),
        "Bob's page": lambda: bob.get(t.link("Bob")),
        "Bob's fragment": lambda: bob.get(f"{t.link('Bob')}/view?since={version - 1}",
                                          headers=HTMX),
        "Bob's stream": lambda: first_event(bob, f"{t.link('Bob')}/events?since={version - 1}"),
        "Bob's timeline": lambda: bob.get(t.link("Bob") + "/timeline"),
        "TV page": lambda: tv.get(watch),
        "TV fragment": lambda: tv.get(f"{watch}/view?since={version - 1}", headers=HTMX),
        "TV stream": lambda: first_event(tv, f"{watch}/events?since={version - 1}"),
        "TV timeline": lambda: tv.get(watch + "/timeline"),
        "players and stats": lambda: tv.get("/players"),
    }
    for what, fetch in fetched.items():
        response = fetch()
        status, body = response if isinstance(response, tuple) else (
            response.status_code, response.text)
        assert status < 500, (when, what)
        seen.append((f"{when}: {what}", status, body))


def first_event(client, path: str) -> tuple[int, str]:
    """The event a stream sends first when the table moved past the screen it shows."""
    stream = client.get(path)
    chunks = iter(stream.response)
    next(chunks)  # the opening comment
    event = next(chunks)
    stream.close()
    return stream.status_code, event.decode() if isinstance(event, bytes) else event


def masked(t: Table, text: str) -> str:
    """``text`` with what differs between two tables anyway: ids, links' tokens, their QR
    codes, the watch key and the forms' CSRF values."""
    for name, token in t.tokens.items():
        text = text.replace(str(views.qr_svg(f"{PUBLIC}/s/{token}")), f"[QR {name}]")
        text = text.replace(token, f"[{name}]")
    watch_key = watch_link(t).rsplit("/", 1)[-1]
    text = CSRF_FIELD.sub('name="csrf" value="[csrf]"', text)
    return text.replace(t.table_id, "[table]").replace(watch_key, "[watch]")


def first_difference(one: Seen, two: Seen) -> str:
    for a, b in zip(one, two, strict=True):
        if a != b:
            diff = difflib.unified_diff(a[2].splitlines(), b[2].splitlines(), lineterm="", n=2)
            return f"{a[:2]} vs {b[:2]}\n" + "\n".join(list(diff)[:40])
    return ""


def test_night_screens_show_no_hidden_card_before_the_game_is_over(tmp_path, monkeypatch):
    held, seen_held = play(tmp_path, monkeypatch, "held", HELD)
    bluffed, seen_bluffed = play(tmp_path, monkeypatch, "bluffed", BLUFFED)
    assert len(seen_held) == len(seen_bluffed) > 100
    assert seen_held == seen_bluffed, first_difference(seen_held, seen_bluffed)
    timelines = [(what, status) for what, status, _body in seen_held if "timeline" in what]
    assert {status for what, status in timelines if not what.startswith("game over")} == {409}
    assert all(status == 200 for what, status in timelines if what.startswith("game over"))
    # Once the timeline is opened, the game is closed and every hand is shown: only now may
    # the screens (and the players' bluffs) differ.
    opened = [open_timeline(t) for t in (held, bluffed)]
    assert opened[0] != opened[1]
    assert 'class="chip claim held"' in opened[0] and 'class="chip claim bluff"' in opened[1]


def open_timeline(t: Table) -> str:
    html = t.page()
    response = t.tablet.post(t.url + "/timeline", data={"csrf": csrf_of(html),
                                                        "version": version_of(html)})
    assert response.status_code == 303
    return masked(t, t.tablet.get(t.url + "/timeline").text)


def test_the_players_page_tells_bluffs_only_once_the_game_is_settled(tmp_path, monkeypatch):
    """The players' numbers across nights: the bluff rate of a game an undo could reopen would
    tell Ann's hand; once the timeline has closed the game, it is everyone's to know."""
    pages = []
    for name, ann in (("held", HELD), ("bluffed", BLUFFED)):
        app = make_app(tmp_path / name)
        stop_the_clock(app, monkeypatch, 31)
        t = finished_game(app, ann=ann, window=timing_out)
        before = app.test_client().get("/players").text
        open_timeline(t)
        pages.append((before, app.test_client().get("/players").text))
    assert pages[0][0] == pages[1][0]  # game over, not yet settled: the same numbers
    assert pages[0][1] != pages[1][1]  # settled: Ann's bluffs count
