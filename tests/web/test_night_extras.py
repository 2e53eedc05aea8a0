"""Game night (issue 14) through the test client: the timeline, the night's scoreboard, the
spectators' board, the decision timer and "let it stand", the players' page with rename and
merge. Bad input is refused with a message, never a 500."""

from __future__ import annotations

import io
import re
import sqlite3
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask import g
from tablekit import (
    HTMX,
    Table,
    csrf_of,
    finished_game,
    make_app,
    snapshot,
    started_table,
    stop_the_clock,
    timing_out,
    version_of,
    watch_link,
)

from app.i18n import LANGUAGES
from app.web import evening, words
from app.web.refusals import NightProblem, Why

RECORDS = Path(__file__).resolve().parents[1] / "records"
def settings(t: Table, **form: str) -> int:
    return t.post("/night", form).status_code


def clock(app) -> float:
    """The service's one clock (``Tables.now``), in seconds since the epoch."""
    return app.extensions["tables"].now().timestamp()


def set_clock(app, monkeypatch, seconds: float) -> None:
    """Sets the service's one clock: the countdowns drawn and the time-out tap both read it."""
    monkeypatch.setattr(app.extensions["tables"], "now",
                        lambda: datetime.fromtimestamp(seconds, UTC))


# -- the timeline -----------------------------------------------------------------------------


def test_timeline_is_refused_until_the_game_is_over(app):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    before = snapshot(app)
    for client, path in ((t.tablet, t.url), (t.phone("Ann"), t.link("Ann")),
                         (app.test_client(), watch_link(t))):
        response = client.get(path + "/timeline")
        assert response.status_code == 409
        assert "opens once the game is over" in response.text
        assert "captain" not in response.text.lower()
    html = t.page()
    refused = t.tablet.post(t.url + "/timeline", data={"csrf": csrf_of(html),
                                                       "version": version_of(html)})
    assert refused.status_code == 409
    assert t.phone_post("Bob", "/timeline", {}).status_code == 409
    assert snapshot(app) == before  # nothing was closed or written
    assert "Who bluffed when" not in t.page()


def test_opening_the_timeline_closes_the_game_then_shows_every_lane(app):
    t = finished_game(app)
    assert "Who bluffed when" in t.page()
    first = t.tablet.get(t.url + "/timeline")
    assert first.status_code == 200 and "closes this game for good" in first.text
    assert not t.live().closed
    html = t.page()
    opened = t.tablet.post(t.url + "/timeline", data={"csrf": csrf_of(html),
                                                      "version": version_of(html)})
    assert opened.status_code == 303
    assert t.live().closed  # no undo can reopen a game whose hands were shown
    page = t.tablet.get(t.url + "/timeline").text
    bands = page.count('<table class="lanes">')  # eight turns a band (issue 14.1)
    assert bands == 2 and page.count('<tr class="lane') == 2 * bands
    assert "Ann won this game." in page
    assert 'class="chip claim held"' in page  # Ann's taxes: she held the Duke
    assert "✝" in page  # Bob's lost influence
    assert t.post("/undo", {}).status_code == 422
    # the phones and the spectators see it too, now
    assert t.phone("Bob").get(t.link("Bob") + "/timeline").status_code == 200
    assert app.test_client().get(watch_link(t) + "/timeline").status_code == 200


def test_the_timeline_s_words_say_what_happened(app):
    """Issue 14.7: "0 of 1 claim" (a plural), a challenge's own marks (not the bluff's ✗), a
    concession counted as "challenged and not shown" rather than "bluffs caught", and the
    mid-game refusal leads back to the game."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    mid = t.tablet.get(t.url + "/timeline")
    assert mid.status_code == 409
    assert f'href="{t.url}"' in mid.text and "Back to the game" in mid.text
    phone = t.phone("Bob").get(t.link("Bob") + "/timeline").text
    assert f'href="{t.link("Bob")}"' in phone and "Back to the game" in phone
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    assert t.post("/step", {"do": "challenge", "by": "Bob"}).status_code == 200
    assert t.phone_step("Ann", do="concede").status_code == 200  # she held the Duke
    assert t.phone_step("Ann", do="lose", card="captain").status_code == 200
    play_out(t)
    assert t.live().game.over
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    page = t.tablet.get(t.url + "/timeline").text
    assert "0 of 1 claim<" in page and "of 1 claims" not in page
    assert "Challenged and not shown" in page and "Bluffs caught" not in page
    assert '<span class="chip challenge right">⚔ ▲ Ann</span>' in page
    assert "⚔ ✗" not in page and "⚔ ✓" not in page


def play_out(t: Table) -> None:
    """Income, or a coup on the other player at 7 coins, until the game is over."""
    from app.engine import pending

    for _step in range(100):
        game = t.live().game
        assert game is not None
        if game.over:
            return
        prompt = pending(game)[0]
        me = game.player(prompt.player)
        if prompt.kind == "declare":
            other = next(p.name for p in game.players if p.name != me.name and not p.out)
            step = {"do": "coup", "by": me.name, "target": other} if me.coins >= 7 else \
                {"do": "income", "by": me.name}
            assert t.post("/step", step).status_code == 200
        else:
            assert me.hand is not None, prompt
            assert t.phone_step(me.name, do=prompt.kind, card=me.hand[0]).status_code == 200


def test_a_tv_on_the_timeline_follows_the_table_by_itself(app):
    """Issue 14.8: a TV nobody touches looks again every few seconds: the waiting page turns
    into the timeline once it is opened, and the timeline goes back to the live board when the
    next game starts."""
    t = finished_game(app)
    tv = app.test_client()
    link = watch_link(t)
    waiting = tv.get(link + "/timeline").text
    assert f'<meta http-equiv="refresh" content="10;url={link}/timeline">' in waiting
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    shown = tv.get(link + "/timeline").text
    assert "<table class=\"lanes\">" in shown
    assert f'<meta http-equiv="refresh" content="10;url={link}/timeline">' in shown
    assert t.post("/rematch", {}).status_code == 200
    assert tv.get(link + "/timeline").status_code == 200  # the lobby: the timeline stays
    for name, hand in (("Ann", ["duke", "captain"]), ("Bob", ["contessa", "assassin"])):
        t.enter_hand(name, hand)
    assert t.post("/start", {}).status_code == 200
    moved_on = tv.get(link + "/timeline")
    assert moved_on.status_code == 409
    assert f'<meta http-equiv="refresh" content="2;url={link}">' in moved_on.text
    assert "captain" not in moved_on.text.lower()
    # the referee's and the players' own pages never reload by themselves
    assert "http-equiv" not in t.tablet.get(t.url + "/timeline").text
    assert "http-equiv" not in t.phone("Bob").get(t.link("Bob") + "/timeline").text


def test_a_phone_may_open_the_timeline_and_others_cannot_post_for_it(app):
    t = finished_game(app)
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    assert t.live().closed
    stranger = app.test_client()
    assert stranger.get(t.link("Ann") + "/timeline").status_code == 403
    assert stranger.post(t.url + "/timeline").status_code == 403


def test_a_bluff_is_drawn_as_a_bluff_and_caught(app):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.post("/step", {"do": "steal", "by": "Ann", "target": "Bob"}).status_code == 200
    assert t.post("/step", {"do": "pass"}).status_code == 200
    assert t.post("/step", {"do": "block", "by": "Bob", "as": "captain"}).status_code == 200
    assert t.post("/step", {"do": "challenge", "by": "Ann"}).status_code == 200
    assert t.phone_step("Bob", do="concede").status_code == 200
    assert t.phone_step("Bob", do="lose", card="contessa").status_code == 200
    state = t.live()
    from app.engine.story import story

    told = story(state.game)
    assert told.tallies["Bob"].bluffs == 1 and told.tallies["Bob"].caught == 1
    assert told.tallies["Ann"].challenges_won == 1


# -- the night's scoreboard -------------------------------------------------------------------


def test_the_scoreboard_adds_up_rematches_and_names_who_reached_the_target(app):
    t = finished_game(app)
    assert settings(t, target="1") == 200
    page = t.page()
    assert "Tonight" in page and "first to 1 win" in page
    assert "Ann takes the night!" in page
    assert re.search(r"<span>Ann</span> <b>1</b>", page)
    assert t.post("/rematch", {}).status_code == 200
    lobby = t.page()
    assert re.search(r"<span>Ann</span> <b>1</b>", lobby)
    assert re.search(r"<span>Bob</span> <b>0</b>", lobby)
    assert "1 game played" in t.phone_page("Bob")


@pytest.mark.parametrize("form", [{"target": "-1"}, {"target": "21"}, {"target": "two"},
                                  {"target": "0"}, {"target": " 0 "}, {"timer": "0"},
                                  {"target": "１"}, {"timer": "5"}, {"timer": "601"},
                                  {"timer": "1e3"}, {"timer": "-30"}, {"timer": "9" * 400}])
def test_bad_night_settings_are_refused_with_a_message(app, form):
    t = finished_game(app)
    before = snapshot(app)
    response = t.post("/night", form)
    assert response.status_code == 422
    assert 'role="alert"' in response.text
    assert snapshot(app) == before


@pytest.mark.parametrize(("field", "typed", "said"), [
    ("target", "0", "The target must be a number of wins from 1 to 20, or empty."),
    ("timer", "3", "The timer must be from 10 to 600 seconds, or empty (off)."),
])
def test_a_refused_setting_keeps_the_box_open_with_the_message_by_its_field(
        app, field, typed, said):
    """Issue 14.6: the settings stay open, what was typed is still there, and the message is
    right under the field it is about (not at the top of the screen)."""
    t = finished_game(app)
    response = t.post("/night", {field: typed})
    assert response.status_code == 422
    html = response.text
    assert re.search(r'<details class="night-tools"[^>]* open>', html)
    box = html[html.index('class="night-settings"'):html.index("</form>",
                                                             html.index('class="night-settings"'))]
    found = re.search(rf'<input name="{field}"[^>]*value="{typed}"[^>]*aria-invalid="true"'
                      rf'[^>]*>\s*</label>\s*<p class="field-problem" id="night-problem" '
                      rf'role="alert">([^<]+)</p>', box)
    assert found, box
    assert found.group(1) == said
    assert evening.settings(t.live()).target == 0 and evening.settings(t.live()).timer == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_night_problem_is_a_reason_the_web_words_in_each_language(app, language):
    """Issue 10: the service raises a typed reason with its values; the web layer words it,
    in the reader's language (the same message the screens above show in English)."""
    with pytest.raises(NightProblem) as caught:
        evening.settings_from_form({"target": "3", "timer": "5"})
    problem = caught.value
    assert (problem.why, problem.field, dict(problem.params)) == (
        Why.BAD_TIMER, "timer", {"min": 10, "max": 600})
    with app.test_request_context():
        g.language = language
        said = words.refusal(problem, None)
    assert "10" in said and "600" in said and "%(" not in said
    english = "The timer must be from 10 to 600 seconds, or empty (off)."
    assert (said == english) == (language == "en")


def test_night_settings_need_the_referee_and_a_fresh_form(app):
    t = finished_game(app)
    assert app.test_client().post(t.url + "/night", data={"timer": "30"}).status_code == 403
    html = t.page()
    stale = t.tablet.post(t.url + "/night", data={"csrf": "x", "version": version_of(html),
                                                  "timer": "30"}, headers=HTMX)
    assert stale.status_code == 400
    assert evening.settings(t.live()).timer == 0


def test_saving_the_night_settings_is_one_load_one_write_one_publish(app, monkeypatch):
    """Issue 10: one route, one service call, one write, one publish; a refused form loads the
    table once and writes nothing."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    html = t.page()
    tables = app.extensions["tables"]
    calls: Counter[str] = Counter()
    for owner, name in ((tables, "load"), (tables, "commit"), (tables.broker, "publish")):
        monkeypatch.setattr(owner, name, counted(calls, name, getattr(owner, name)))
    form = {"csrf": csrf_of(html), "version": version_of(html)}
    saved = t.tablet.post(t.url + "/night", data={**form, "timer": "30"}, headers=HTMX)
    assert saved.status_code == 200 and "data-countdown" in saved.text
    assert calls == {"load": 1, "commit": 1, "publish": 1}
    calls.clear()
    refused = t.tablet.post(t.url + "/night", data={**form, "timer": "5"}, headers=HTMX)
    assert refused.status_code == 422
    assert calls == {"load": 1}
    assert evening.settings(t.live()).timer == 30


def counted(calls: Counter[str], name: str, real):
    def call(*args, **kwargs):
        calls[name] += 1
        return real(*args, **kwargs)
    return call


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


# -- the decision timer -----------------------------------------------------------------------


def test_the_timer_is_off_by_default_and_counts_for_whom_the_table_waits(app):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert "data-countdown" not in t.page()
    assert settings(t, timer="30") == 200
    assert "data-countdown" in t.page()
    assert "Time to decide for Ann" in t.page()
    assert "data-countdown" in t.phone_page("Ann")
    assert "data-countdown" not in t.phone_page("Bob")  # the table waits for Ann only
    assert "data-timeout" not in t.page()  # "let it stand" is off
    assert "The referee decides what happens." in t.page()


def countdown_left(html: str) -> int:
    match = re.search(r'data-countdown="(\d+)"', html)
    assert match, "no countdown on the screen"
    return int(match.group(1))


def test_a_reloaded_screen_counts_from_when_the_decision_opened(app, monkeypatch):
    """The server knows when the decision opened (the log row's time): a screen drawn again,
    after a reload or a reconnection, shows the time really left, not the whole timer again.
    A phone changing its language does not restart it; the game moving does."""
    import app.store as store_module

    moment = {"now": "2026-01-01T20:00:00+00:00"}
    monkeypatch.setattr(store_module, "now", lambda: moment["now"])
    epoch = datetime.fromisoformat("2026-01-01T20:00:00+00:00").timestamp()
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert settings(t, timer="30") == 200
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200  # Bob may challenge
    set_clock(app, monkeypatch, epoch + 12)
    moment["now"] = "2026-01-01T20:00:12+00:00"
    assert countdown_left(t.page()) == 18
    assert countdown_left(t.phone_page("Bob")) == 18
    old = t.live().version
    assert countdown_left(t.tablet.get(f"{t.url}/view?since={old - 1}", headers=HTMX).text) == 18
    language = t.phone_post("Bob", "/language", {"language": "ru"})
    assert language.status_code in (200, 303)
    assert t.live().version == old + 1  # a change of the seats, not of the game
    assert countdown_left(t.page()) == 18
    set_clock(app, monkeypatch, epoch + 40)
    assert countdown_left(t.page()) == 0
    assert t.post("/step", {"do": "pass"}).status_code == 200  # the game moves on: Bob's turn
    assert countdown_left(t.page()) == 2  # opened at 20:00:12, 28 s ago by this clock
    moment["now"] = "2026-01-01T20:00:40+00:00"
    assert settings(t, timer="60") == 200  # a new setting restarts it
    assert countdown_left(t.page()) == 60


def test_one_players_pass_does_not_restart_the_window_s_countdown(app, monkeypatch):
    """Issue 14.3: Ann claims the Duke; Bob lets it stand at 0:17. The window is still open for
    Cy, and the clock keeps counting from when it opened: 13 s left, not 30 again. When the
    window closes the next decision gets the whole timer."""
    import app.store as store_module

    moment = {"now": "2026-01-01T20:00:00+00:00"}
    monkeypatch.setattr(store_module, "now", lambda: moment["now"])
    epoch = datetime.fromisoformat("2026-01-01T20:00:00+00:00").timestamp()
    set_clock(app, monkeypatch, epoch)
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
                            "Cy": ["duke", "ambassador"]})
    assert settings(t, timer="30") == 200
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    assert countdown_left(t.page()) == 30
    moment["now"] = "2026-01-01T20:00:17+00:00"
    set_clock(app, monkeypatch, epoch + 17)
    assert t.post("/step", {"do": "pass", "by": "Bob"}).status_code == 200
    assert countdown_left(t.page()) == 13
    assert countdown_left(t.phone_page("Cy")) == 13
    bad = t.post("/step", {"do": "pass", "by": "Bob"})  # Bob again: refused, nothing restarts
    assert bad.status_code in (409, 422)
    assert countdown_left(t.page()) == 13
    moment["now"] = "2026-01-01T20:00:20+00:00"
    set_clock(app, monkeypatch, epoch + 20)
    assert t.post("/step", {"do": "pass", "by": "Cy"}).status_code == 200  # the window closes
    assert countdown_left(t.page()) == 30  # Bob's turn: a new decision


def test_time_out_lets_it_stand_with_exactly_one_step(app, monkeypatch):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert settings(t, timer="30", stand="1") == 200
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    assert "data-timeout" in t.page()
    steps = len(t.steps())
    early = t.post("/timeout", {})
    assert early.status_code == 409  # not yet: the countdown still runs
    assert "Nothing was decided by the clock" in early.text
    assert len(t.steps()) == steps
    later = clock(app) + 31
    set_clock(app, monkeypatch, later)
    html = t.page()
    version = version_of(html)
    assert t.post("/timeout", {}, version=version).status_code == 200
    assert t.steps()[-1] == {"do": "pass"}
    assert len(t.steps()) == steps + 1
    again = t.post("/timeout", {}, version=version)  # a second tablet's late tap
    assert again.status_code == 409
    assert "moved on" in again.text  # its page was older than the table: that is what it hears
    assert len(t.steps()) == steps + 1


def test_time_out_applies_nothing_when_the_setting_is_off_or_a_turn_is_waited_for(
        app, monkeypatch):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert settings(t, timer="30") == 200
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    later = clock(app) + 60
    set_clock(app, monkeypatch, later)
    steps = len(t.steps())
    off = t.post("/timeout", {})
    assert off.status_code == 409  # "let it stand" is off
    assert "Nothing was decided by the clock" in off.text
    assert settings(t, timer="30", stand="1") == 200
    assert t.post("/step", {"do": "pass"}).status_code == 200  # Bob's turn to declare now
    assert t.post("/timeout", {}).status_code == 409  # a declaration is never made for him
    assert len(t.steps()) == steps + 1
    assert app.test_client().post(t.url + "/timeout").status_code == 403


def test_a_ruling_the_clock_decided_says_so_on_every_screen_until_undone(app, monkeypatch):
    """Issue 14.4: "let it stand" passes for the table, and each screen's log says the clock
    decided it, next to the ruling. An undo takes the line away with the step."""
    stop_the_clock(app, monkeypatch, 31)
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    assert TIME_UP not in t.page()
    timing_out(t)
    tv = app.test_client()
    screens = {"tablet": t.page(), "phone": t.phone_page("Bob"),
               "tv": tv.get(watch_link(t)).text, "whole log": t.tablet.get(t.url + "/log").text}
    for screen, html in screens.items():
        said = 2 if screen == "tablet" else 1  # the tablet's log, and its rulings read aloud
        assert html.count(TIME_UP) == said, screen
        assert re.search(TIME_UP_RULING, html), screen
    assert t.steps()[-1] == {"do": "pass"}  # the engine's step, as any tablet pass
    assert t.post("/undo", {}).status_code == 200
    for screen, html in {"tablet": t.page(), "phone": t.phone_page("Bob"),
                         "tv": tv.get(watch_link(t)).text}.items():
        assert TIME_UP not in html, screen
    assert t.post("/step", {"do": "pass"}).status_code == 200  # the referee's own tap
    assert TIME_UP not in t.page()


def test_a_game_the_clock_helped_decide_downloads_as_a_valid_record(app, monkeypatch,
                                                                      tmp_path):
    """The record holds each timed-out window as any other pass (FORMAT.md has no clock), so
    it checks and replays to the same rulings."""
    from app.cli import main

    stop_the_clock(app, monkeypatch, 31)
    t = finished_game(app, window=timing_out)
    assert t.tablet.get(t.url + "/log").text.count(TIME_UP) == 5  # each of Ann's Taxes
    record = tmp_path / "timed.json"
    record.write_bytes(t.download().data)
    assert "time" not in record.read_text().lower()
    assert main(["check", str(record)]) == 0


TIME_UP = "Time is up."
TIME_UP_RULING = re.compile(r"Time is up\.</span> Nobody challenges")


# -- the players' page ------------------------------------------------------------------------


def players_form(client, path: str, **form: str):
    page = client.get("/players").text
    return client.post(path, data={"csrf": csrf_of(page), **form})


def settle(t: Table) -> Table:
    """The next game, same table: the finished one can no longer be undone."""
    assert t.post("/rematch", {}).status_code == 200
    return t


def test_the_players_page_counts_finished_games_across_tables(app):
    settle(finished_game(app))
    settle(finished_game(app))
    client = app.test_client()
    page = client.get("/players").text
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td[^>]*>(\d+)</td>'
                      r'<td[^>]*>(\d+)</td>', page)
    assert ("Ann", "2", "2") in rows and ("Bob", "2", "0") in rows
    assert "Duke" in page  # Ann's favourite claim


def test_rename_and_merge(app):
    client = settle(finished_game(app)).tablet  # the referee's device
    renamed = players_form(client, "/players/rename", name="Bob", new="  Robert ")
    assert renamed.status_code == 303
    page = client.get(renamed.headers["Location"]).text
    assert "Bob is now called Robert." in page
    assert ">Robert<" in page and ">Bob<" not in page
    settle(finish(app, "Rob", "Cleo"))  # the same person, under another name
    assert players_form(client, "/players/merge", name="Rob", into="Robert").status_code == 303
    page = client.get("/players?done=merge&name=Rob&other=Robert").text
    assert "Rob’s games now count for Robert." in page
    assert re.search(r'<th scope="row">Robert</th><td[^>]*>2</td><td[^>]*>1</td>', page)
    assert ">Rob<" not in page
    settle(finish(app, "Cleo", "Bob"))  # a new night with "Bob": still Robert's now
    page = client.get("/players").text
    assert re.search(r'<th scope="row">Robert</th><td[^>]*>3</td><td[^>]*>1</td>', page)


def test_two_players_who_sat_at_one_game_are_not_merged(app):
    """Merging them would count their game twice (two games, one of them a win and a loss at
    once): refused with a message, and nothing changes."""
    client = settle(finished_game(app)).tablet  # the referee's device
    assert players_form(client, "/players/rename", name="Bob", new="Robert").status_code == 303
    before = snapshot(app)
    refused = players_form(client, "/players/merge", name="Robert", into="Ann")
    assert refused.status_code == 422
    assert "Robert and Ann played in the same game" in refused.text
    assert snapshot(app) == before
    page = client.get("/players").text
    assert re.search(r'<th scope="row">Ann</th><td[^>]*>1</td><td[^>]*>1</td>', page)
    assert re.search(r'<th scope="row">Robert</th><td[^>]*>1</td><td[^>]*>0</td>', page)


@pytest.mark.parametrize("path,form", [
    ("/players/rename", {"name": "Bob", "new": ""}),
    ("/players/rename", {"name": "Bob", "new": "   "}),
    ("/players/rename", {"name": "Bob", "new": "x" * 300}),
    ("/players/rename", {"name": "Bob", "new": "Bo\u200bb"}),
    ("/players/rename", {"name": "Bob", "new": "ANN"}),
    ("/players/rename", {"name": "Nobody", "new": "Zed"}),
    ("/players/rename", {"new": "Zed"}),
    ("/players/merge", {"name": "Bob", "into": "Bob"}),
    ("/players/merge", {"name": "Bob", "into": "Nobody"}),
    ("/players/merge", {"name": "\x00", "into": "Ann"}),
    ("/players/merge", {}),
])
def test_bad_renames_and_merges_are_refused_with_a_message(app, path, form):
    client = settle(finished_game(app)).tablet  # the referee's device
    response = players_form(client, path, **form)
    assert response.status_code == 422, response.text
    assert 'role="alert"' in response.text


def test_players_changes_need_the_form(app):
    client = settle(finished_game(app)).tablet  # the referee's device
    assert client.post("/players/rename", data={"name": "Bob", "new": "Z"}).status_code == 400
    assert ">Bob<" in client.get("/players").text



def test_only_a_referee_renames_or_merges_and_a_merge_asks_first(app):
    """Issue 14.4: the TV or a guest's phone sees the numbers, not the tools; its posts are
    refused with a message and change nothing. A referee's merge button asks before it acts."""
    t = settle(finished_game(app))
    settle(finish(app, "Rob", "Cleo"))
    stolen = csrf_of(t.tablet.get("/players").text)  # a referee's form token, copied
    for guest in (app.test_client(), t.phones["Bob"]):
        page = guest.get("/players").text
        assert "Only a referee’s device" in page
        assert "/players/rename" not in page and "/players/merge" not in page
        before = snapshot(app)
        for path, form in (("/players/rename", {"name": "Bob", "new": "Zed"}),
                           ("/players/merge", {"name": "Rob", "into": "Bob"})):
            refused = guest.post(path, data={"csrf": stolen, **form})
            assert refused.status_code == 403
            assert "Only a referee’s device" in refused.text
        assert snapshot(app) == before
    forged = app.test_client()
    forged.set_cookie("coup_ref_" + t.table_id, "not-the-key")
    forged.set_cookie("coup_ref_nonsense", "x")
    assert forged.post("/players/rename", data={"csrf": stolen, "name": "Bob", "new": "Zed"}
                       ).status_code == 403
    page = t.tablet.get("/players").text
    merge = page[page.index('action="/players/merge"'):]
    assert re.search(r'<button type="submit" data-confirm="[^"]*can’t be undone', merge)
    assert "can’t be undone" in merge[:merge.index("data-confirm")]
    for bad in ("/players?done=merge&name=Rob", "/players?done=x&name=a&other=b",
                "/players?done=rename&name=" + "x" * 5000 + "&other=y"):
        assert t.tablet.get(bad).status_code == 200


def finish(app, winner: str, loser: str) -> Table:
    """``winner`` beats ``loser`` with taxes and two coups (as tablekit's finished_game)."""
    t = started_table(app, {winner: ["duke", "captain"], loser: ["contessa", "assassin"]})
    turns = ({"do": "tax", "by": winner}, {"do": "pass"}, {"do": "income", "by": loser})
    for _round in range(3):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": winner, "target": loser}).status_code == 200
    assert t.phone_post(loser, "/step", {"do": "lose", "card": "assassin"}).status_code == 200
    assert t.post("/step", {"do": "income", "by": loser}).status_code == 200
    for _round in range(2):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": winner, "target": loser}).status_code == 200
    assert t.live().game.winner == winner
    return t


def test_names_that_look_the_same_are_one_player(app):
    settle(finish(app, "Ann", "Bob"))
    settle(finish(app, "ann", "Cleo"))
    page = app.test_client().get("/players").text
    assert re.search(r'<th scope="row">Ann</th><td[^>]*>2</td><td[^>]*>2</td>', page)
    assert ">ann<" not in page


def player_row(page: str, name: str) -> list[str] | None:
    """A player's cells on the players' page: games, wins, bluff rate, challenge accuracy."""
    match = re.search(rf'<th scope="row">{name}</th><td[^>]*>(\d+)</td><td[^>]*>(\d+)</td>'
                      r'\s*<td[^>]*>([^<]*)</td>\s*<td[^>]*>([^<]*)</td>', page)
    return list(match.groups()) if match else None


def test_a_game_counts_as_soon_as_it_ends_and_an_undo_takes_it_out(app):
    """Games and wins count the moment a game ends; the undo of its last step takes it out
    again, in the same transaction as the undo's log row."""
    t = finish(app, "Ann", "Bob")
    client = app.test_client()
    assert player_row(client.get("/players").text, "Ann")[:2] == ["1", "1"]
    assert t.post("/undo", {}).status_code == 200
    assert "No game has finished" in client.get("/players").text
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    page = client.get("/players").text
    assert player_row(page, "Ann")[:2] == ["1", "1"] and player_row(page, "Bob")[:2] == ["1", "0"]


def test_uncaught_bluffs_count_only_once_no_undo_can_reopen_the_game(app):
    """The bluff rate tells whose unchallenged claims were bluffs, which an undo would let
    back into a game under way: it counts once the game is settled (rematch or closed)."""
    t = finish(app, "Ann", "Bob")  # Ann's three taxes: she held the Duke, no bluff
    client = app.test_client()
    assert player_row(client.get("/players").text, "Ann") == ["1", "1", "—", "—"]
    settle(t)
    assert player_row(client.get("/players").text, "Ann") == ["1", "1", "0%", "—"]
    opened = finish(app, "Cleo", "Dan")
    assert player_row(client.get("/players").text, "Cleo")[2] == "—"
    assert opened.phone_post("Dan", "/timeline", {}).status_code == 303  # closes it
    assert player_row(client.get("/players").text, "Cleo")[2] == "0%"


def test_a_game_s_end_and_its_numbers_land_together_or_not_at_all(app, monkeypatch):
    t = finish(app, "Ann", "Bob")
    assert t.post("/undo", {}).status_code == 200
    before = snapshot(app)
    from app.store import Writing

    def broken(self, result):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Writing, "keep_result", broken)
    failed = t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"})
    assert failed.status_code == 503 and "the game is as it was" in failed.text
    assert snapshot(app) == before  # neither the winning step nor its numbers
    monkeypatch.undo()
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    after = snapshot(app)
    assert len(after["steps"]) == len(before["steps"]) + 1 and len(after["night_games"]) == 1


def import_record(app, name: str) -> None:
    client = app.test_client()
    record = (RECORDS / name).read_bytes()
    data = {"csrf": csrf_of(client.get("/").text), "record": (io.BytesIO(record), "r.json")}
    assert client.post("/tables/import", data=data,
                       content_type="multipart/form-data").status_code == 303


def test_the_players_page_writes_nothing(app):
    """Every game is noted by the write that ends it (an imported finished game by the
    import's own transaction), so the players' page has nothing left to write."""
    settle(finished_game(app))
    finish(app, "Cleo", "Dan")
    import_record(app, "34-two-player-game-forced-coup.json")
    before = snapshot(app)
    assert len(before["night_games"]) == 3
    visitor = app.test_client()
    for _ in range(2):
        page = visitor.get("/players").text
        assert player_row(page, "Max")[:2] == ["1", "1"]  # the imported game counts
    assert snapshot(app) == before


def test_the_scoreboard_follows_a_second_game_row_by_row(app):
    t = finished_game(app)
    assert t.post("/rematch", {}).status_code == 200
    assert "1 game played" in t.page()
    for name, hand in (("Ann", ["duke", "captain"]), ("Bob", ["contessa", "assassin"])):
        assert t.enter_hand(name, hand).status_code == 200
    assert t.post("/start", {}).status_code == 200
    assert "game played" not in t.page()  # mid-game: the scoreboard waits for the end
    turns = ({"do": "tax", "by": "Ann"}, {"do": "pass"}, {"do": "income", "by": "Bob"})
    for _round in range(3):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    assert t.phone_step("Bob", do="lose", card="assassin").status_code == 200
    assert t.post("/step", {"do": "income", "by": "Bob"}).status_code == 200
    for _round in range(2):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    page = t.page()
    assert "2 games played" in page and re.search(r"<span>Ann</span> <b>2</b>", page)
    assert t.live().night_winners == ("Ann", "Ann")
    assert t.post("/undo", {}).status_code == 200  # the last coup taken back
    assert "game played" not in t.page()
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    assert "2 games played" in t.page()


def test_after_a_restart_the_night_is_folded_once(app, tmp_path, monkeypatch):
    """The night's winners come from the one fold of the log: after a restart, drawing the
    tablet's lobby with the night's scoreboard applies each step of the log once, no more."""
    t = settle(finished_game(app))
    with app.extensions["tables"].pool.store() as store:
        rows = store.read(t.table_id).rows
    steps = len([r for r in rows if r.kind == "step" and "control" not in r.step])
    assert steps == 19
    restarted = make_app(tmp_path / "instance")
    tablet = restarted.test_client()
    for cookie in t.tablet._cookies.values():
        tablet.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
    import app.web.state as state_module

    applies = []
    real = state_module.apply

    def counted(game, step):
        applies.append(step)
        return real(game, step)

    monkeypatch.setattr(state_module, "apply", counted)
    page = tablet.get(t.url)
    assert page.status_code == 200 and "1 game played" in page.text
    assert len(applies) == steps  # each step of the log once, not once more for the night
    assert "1 game played" in tablet.get(t.url).text
    assert len(applies) == steps  # the next screen comes from the cache


def test_a_tie_for_favourite_claim_shows_every_card_of_it():
    """Issue 14.7: not the one that happened to be claimed first."""
    from collections import Counter

    from app.web.stats import _favourite

    assert _favourite(Counter({"duke": 2, "captain": 2, "ambassador": 1})) == ("captain", "duke")
    assert _favourite(Counter({"captain": 1, "duke": 3})) == ("duke",)
    assert _favourite(Counter()) == () and _favourite(None) == ()
