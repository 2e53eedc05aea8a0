"""Game night's spectators' board (issue 14.3) through the test client: the public board and no
control, a stream from the page it drew, the night's scoreboard between games only."""

from __future__ import annotations

import re

from nightwebkit import settings, settle
from tablekit import (
    finished_game,
    started_table,
    watch_link,
)

# -- the spectators' board --------------------------------------------------------------------


def test_the_tv_shows_the_public_board_and_no_control(app):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    link = watch_link(t)
    tv = app.test_client()
    page = tv.get(link)
    assert page.status_code == 200
    text = page.text
    assert "Ann’s turn" in text and "<form" not in text
    for hidden in ("captain", "contessa", "assassin"):
        assert f"card-{hidden}" not in text
    assert tv.get(link + "/view").status_code == 200
    version = t.live().version
    assert tv.get(f"{link}/view?since={version}").status_code == 204
    assert tv.get(t.url).status_code == 403  # the link opens nothing else
    table_id = t.table_id
    assert tv.get(f"/w/{table_id}/{'0' * 32}").status_code == 404
    assert tv.get(f"/w/{table_id}/x").status_code == 404
    assert tv.get("/w/nope/nope").status_code == 404


def test_the_tv_s_stream_starts_from_the_page_it_drew(app):
    """A step taken between the TV's page and its stream opening is told at once, not at the
    next poll: the stream's address carries the version the page shows."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    tv = app.test_client()
    page = tv.get(watch_link(t)).text
    stream_url = re.search(r'sse-connect="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert f"since={t.live().version}" in stream_url
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    stream = tv.get(stream_url, buffered=False)
    chunks = iter(stream.response)
    assert b"changed" in next(chunks) + next(chunks)  # after the stream's opening comment
    stream.close()


def test_the_tv_says_when_the_referee_undid_a_step(app):
    """Outside tester: the tablet and the phones said "Undone by the referee", while on the TV
    the ruling and the coins just went. The TV's rulings say it too, where it happened, and
    the rulings keep their numbers in the game."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.step(do="income", by="Ann").status_code == 200
    assert t.step(do="income", by="Bob").status_code == 200
    assert t.post("/undo", {}).status_code == 200
    board = app.test_client().get(watch_link(t) + "/view").text
    rulings = re.search(r'<ol class="tv-log">(.*?)</ol>', board, re.S)
    assert rulings is not None
    assert rulings.group(1) == ('<li class="undone">↶ Undone by the referee: Bob: Income</li>'
                                '<li value="1">Ann takes 1 coin (Income).</li>')


def test_the_tv_marks_whose_turn_it_is_on_their_seat(app):
    """Outside tester: on the TV only the heading said whose turn it was (the seat had a
    slightly lighter edge). The seat carries the tablet's "Turn" tab, on that seat alone."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.step(do="income", by="Ann").status_code == 200
    board = app.test_client().get(watch_link(t) + "/view").text
    seats = re.findall(r'<li class="seat[^"]*">.*?</li>', board, re.S)
    marked = [seat for seat in seats if '<span class="turn-mark">Turn</span>' in seat]
    assert len(marked) == 1 and "Bob" in marked[0] and 'class="seat current"' in marked[0]


def test_the_tv_shows_the_night_s_scoreboard_between_games_only(app):
    t = finished_game(app)
    assert settings(t, target="2") == 200
    link = watch_link(t)
    tv = app.test_client()
    over = tv.get(link).text
    assert "Tonight" in over and "first to 2 wins" in over
    assert re.search(r"<span>Ann</span> <b>1</b>", over)
    assert re.search(r"<span>Bob</span> <b>0</b>", over)
    assert "<form" not in over
    settle(t)
    lobby = tv.get(link + "/view").text
    assert "1 game played" in lobby and re.search(r"<span>Ann</span> <b>1</b>", lobby)
    for name, hand in (("Ann", ["duke", "captain"]), ("Bob", ["contessa", "assassin"])):
        assert t.enter_hand(name, hand).status_code == 200
    assert t.post("/start", {}).status_code == 200
    assert "Tonight" not in tv.get(link).text  # mid-game: the board, not the night


def test_the_tv_on_the_winner_screen_follows_the_table_into_the_timeline(app):
    """Issue 14 (outside tester): a TV left on the winner's screen goes to the timeline once a
    phone or the tablet opens it; before that, and once back on the board, it stays."""
    t = finished_game(app)
    link = watch_link(t)
    tv = app.test_client()
    over = tv.get(link).text
    asks = re.search(r'hx-get="([^"]+)"', over).group(1).replace("&amp;", "&")
    assert "follow=timeline" in asks
    assert "HX-Redirect" not in tv.get(asks).headers  # nothing opened yet
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    followed = tv.get(asks)
    assert followed.status_code == 204
    assert followed.headers["HX-Redirect"] == link + "/timeline"
    # back on the board from the timeline: it stays there
    board = tv.get(link).text
    assert "follow=timeline" not in board
    assert tv.get(link + "/view?follow=nonsense").status_code == 200


# -- a long game's timeline on a TV ------------------------------------------------------------


class _Lane:
    def __init__(self, out: int | None = None) -> None:
        self.out = out


def test_a_tv_is_sent_a_long_game_s_newest_turns_only():
    """A game that fits is sent whole, banded as before; a game of 470 turns, its newest
    turns up to TV_CELLS cells (a lane counted only while its player is in), banded for them."""
    from app.web.night import TV_CELLS, tv_band, tv_part

    six = [_Lane() for _ in range(6)]
    assert tv_part(103, six) == {"start": 0, "band": tv_band(103, 6)}
    out_early = [_Lane(10), _Lane(20), *(_Lane() for _ in range(4))]
    part = tv_part(470, out_early)
    assert part["start"] > 0 and part["band"] == tv_band(470 - part["start"], 4)
    cells = sum(1 for turn in range(part["start"], 470) for lane in out_early
                if lane.out is None or lane.out >= turn)
    assert TV_CELLS - 4 < cells <= TV_CELLS
    assert tv_part(470, six)["start"] == 470 - TV_CELLS // 6


def test_a_tv_says_which_turns_of_a_long_game_it_leaves_out(app, monkeypatch):
    """The line names the turns left out; the bands start after them."""
    import app.web.night as night

    monkeypatch.setattr(night, "TV_CELLS", 20)
    t = finished_game(app)
    link = watch_link(t)
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    page = app.test_client().get(link + "/timeline").text
    first = re.search(r'<table class="lanes">\s*<thead><tr><th scope="col">Turn</th>'
                      r'<th scope="col"[^>]*>(\d+)</th>', page)
    assert first and int(first.group(1)) > 1
    assert f"Turns 1–{int(first.group(1)) - 1} are on the tablet and the phones." in page
    assert 'data-left-out="Turns {first}–{last} are on the tablet and the phones."' in page
    monkeypatch.setattr(night, "TV_CELLS", 640)
    page = app.test_client().get(link + "/timeline").text
    assert '<p class="left-out"' in page and "hidden></p>" in page
