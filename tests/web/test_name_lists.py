"""A list of names (or of turns) is joined the reader's way wherever a screen writes one: the
timer's line as the waiting line does (Japanese 太郎、健太、美咲, never ASCII commas), with no
「」 around the list; the timeline's turns the clock decided; the start page's tables."""

from __future__ import annotations

import re

from nightwebkit import settings
from tablekit import csrf_of, finished_game, started_table, stop_the_clock, timing_out

NAMES = ["花子", "太郎", "健太", "美咲"]
HANDS = {"花子": ["duke", "captain"], "太郎": ["contessa", "assassin"],
         "健太": ["ambassador", "captain"], "美咲": ["duke", "contessa"]}
TAG = re.compile(r"<[^>]+>")


def text(html: str) -> str:
    return " ".join(TAG.sub(" ", html).split())


def waited_for_by_three(language: str, app) -> str:
    """花子 claims the Duke with the timer on: the tablet waits for the other three."""
    t = started_table(app, HANDS, language=language)
    assert settings(t, timer="30") == 200
    t.step(do="tax", by="花子")
    return text(t.page())


def test_the_japanese_timer_lists_the_names_as_the_waiting_line_does(app):
    page = waited_for_by_three("ja", app)
    assert "太郎、健太、美咲の残り時間" in page
    assert "太郎、健太、美咲の時間切れです。" in page
    assert "太郎, 健太" not in page and "「太郎" not in page and "美咲」" not in page


def test_the_english_timer_still_lists_the_names_with_commas(app):
    page = waited_for_by_three("en", app)
    assert "Time to decide for 太郎, 健太, 美咲:" in page
    assert "Time is up for 太郎, 健太, 美咲." in page


def test_the_japanese_timeline_lists_the_turns_the_clock_decided(app, monkeypatch):
    stop_the_clock(app, monkeypatch, 31)
    t = finished_game(app, window=timing_out)
    assert t.phone_post("Bob", "/language", {"language": "ja"}).status_code in (200, 303)
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    page = text(t.phone("Bob").get(t.link("Bob") + "/timeline").text)
    assert "1、3、5、9、11手目で時間切れ" in page and "1, 3" not in page


def test_the_start_page_lists_a_table_s_players_the_reader_s_way(app):
    t = started_table(app, dict(list(HANDS.items())[:3]), language="ja")
    home = t.tablet.get("/", headers={"Accept-Language": "ja"}).text
    assert csrf_of(home)
    assert "花子、太郎、健太" in home and "花子, 太郎" not in home
