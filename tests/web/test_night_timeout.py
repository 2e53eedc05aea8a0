"""The decision timer's time-out as the tablet's page sends it by itself (its countdown's hidden
form, ``clock=1``), with two referee tablets on one table (outside tester: 4 of 6 time-outs got
a 409, and the red "Nothing was decided by the clock" showed twice in three time-outs). No one
tapped, so no one is refused: early by the service's clock, the answer is the screen with the
seconds really left (the page sends again then); after the table moved on, the screen as it is.
Still exactly one step per time-out. On the service's one clock, stopped (tablekit)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from tablekit import HTMX, Table, csrf_of, started_table, stop_the_clock, version_of

REFUSED = re.compile(r'class="flash"|role="alert"|Nothing was decided by the clock|moved on')
TIME_UP = re.compile(r"Time is up\.</span> Nobody challenges")


def second_tablet(app: Flask, t: Table) -> FlaskClient:
    """Another referee device, joined with the code the first tablet shows."""
    shown = t.post("/join-code", {})
    code = re.search(r'class="code">(\d{6})<', shown.text)
    assert code, "no code on the tablet"
    other = app.test_client()
    form = other.get(t.url + "/join").text
    joined = other.post(t.url + "/join", data={"csrf": csrf_of(form), "code": code.group(1)})
    assert joined.status_code == 303
    return other


def page_of(tablet: FlaskClient, t: Table) -> str:
    response = tablet.get(t.url)
    assert response.status_code == 200
    return response.text


def clock_runs_out(tablet: FlaskClient, t: Table, html: str) -> tuple[int, str]:
    """What the countdown's own form of ``html`` sends when it runs out, and the answer."""
    form = re.search(r'<form hidden data-timeout[^>]*>(.*?)</form>', html, re.S)
    assert form, "no time-out form on the tablet"
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))
    assert fields.get("clock") == "1"
    response = tablet.post(t.url + "/timeout", data=fields, headers=HTMX)
    return response.status_code, response.text


def test_two_tablets_time_out_with_one_step_and_no_refusal(app, monkeypatch):
    stop_the_clock(app, monkeypatch, 29.4)  # 0.6 s before the deadline, by the service's clock
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.post("/night", {"timer": "30", "stand": "1"}).status_code == 200
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    other = second_tablet(app, t)
    first, second = page_of(t.tablet, t), page_of(other, t)
    steps = len(t.steps())

    status, early = clock_runs_out(t.tablet, t, first)  # this tablet's clock runs ahead
    assert status == 200
    assert not REFUSED.search(early), "an early time-out showed a refusal"
    assert len(t.steps()) == steps
    assert 'data-countdown="1"' in early  # the page sends again in a second
    assert "data-timeout" in early

    stop_the_clock(app, monkeypatch, 30.2)
    status, passed = clock_runs_out(t.tablet, t, early)
    assert status == 200
    assert TIME_UP.search(passed)
    assert len(t.steps()) == steps + 1

    status, late = clock_runs_out(other, t, second)  # its page was drawn before the pass
    assert status == 200
    assert not REFUSED.search(late), "the second tablet's time-out showed a refusal"
    assert version_of(late) == version_of(passed)  # the screen as it is now
    assert TIME_UP.search(late)
    assert len(t.steps()) == steps + 1  # exactly one step for the two time-outs
    assert t.steps()[-1] == {"do": "pass"}


def test_a_time_out_sent_by_hand_is_still_refused(app, monkeypatch):
    """Only the countdown's own form is answered quietly: a time-out without ``clock=1`` (no
    page sends one) is refused with the reason, as any refused tap."""
    stop_the_clock(app, monkeypatch, 29.4)
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.post("/night", {"timer": "30", "stand": "1"}).status_code == 200
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    refused = t.post("/timeout", {})
    assert refused.status_code == 409
    assert "Nothing was decided by the clock" in refused.text


def test_a_quiet_time_out_still_needs_the_referee_s_form(app, monkeypatch):
    """No key, no time-out; a stale form token is still refused (the page says so)."""
    stop_the_clock(app, monkeypatch, 31)
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.post("/night", {"timer": "30", "stand": "1"}).status_code == 200
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    steps = len(t.steps())
    stranger = app.test_client()
    assert stranger.post(t.url + "/timeout", data={"clock": "1"}).status_code == 403
    html = t.page()
    bad = t.tablet.post(t.url + "/timeout", headers=HTMX, data={
        "clock": "1", "csrf": "x", "version": version_of(html)})
    assert bad.status_code == 400
    assert len(t.steps()) == steps
