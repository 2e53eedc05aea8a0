"""Game night's decision timer (issue 14.4) through the test client, on the service's one clock:
off by default, counts for whom the table waits from when the decision opened, and "let it
stand" closes a window that ran out with one step its log says the clock decided."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from nightwebkit import settings
from tablekit import (
    HTMX,
    csrf_of,
    finished_game,
    started_table,
    stop_the_clock,
    timing_out,
    version_of,
    watch_link,
)


def clock(app) -> float:
    """The service's one clock (``Tables.now``), in seconds since the epoch."""
    return app.extensions["tables"].now().timestamp()


def set_clock(app, monkeypatch, seconds: float) -> None:
    """Sets the service's one clock: the countdowns drawn and the time-out tap both read it."""
    monkeypatch.setattr(app.extensions["tables"], "now",
                        lambda: datetime.fromtimestamp(seconds, UTC))


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
    assert "Remind them: the game waits until they decide." in t.page()


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


def test_the_timeline_says_in_which_turns_the_clock_decided(app, monkeypatch):
    """The timeline of a finished game: the turns whose window the clock closed are marked in
    the lanes' heads and in the phone's list of turns, and named under the lanes."""
    stop_the_clock(app, monkeypatch, 31)
    t = finished_game(app, window=timing_out)
    html = t.page()
    assert t.tablet.post(t.url + "/timeline", data={"csrf": csrf_of(html),
                                                    "version": version_of(html)}
                         ).status_code == 303
    page = t.tablet.get(t.url + "/timeline").text
    assert "Time was up in turns 1, 3, 5, 9, 11: the table let it stand." in page
    assert re.findall(r'<th scope="col" class="time-up">(\d+)</th>', page) == [
        "1", "3", "5", "9", "11"]
    assert page.count('<span class="time-up">Time is up.</span>') == 5
    plain = finished_game(app)  # the tablet's own passes: nothing said of a clock
    plain.post("/timeline", {}, htmx=False)
    assert "Time was up" not in plain.tablet.get(plain.url + "/timeline").text


TIME_UP = "Time is up."
TIME_UP_RULING = re.compile(r"Time is up\.</span> Nobody challenges")
