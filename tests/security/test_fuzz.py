"""Bad input never breaks anything: random and malformed requests to every endpoint, from every
kind of device, never get a 500, and a refused one (4xx) leaves the database exactly as it was.
The requests include text of every script in fields, form tokens and query values, devices
whose cookies are not ours (any text as the device id and the referee key), and uploaded
records nested far deeper than a JSON decoder follows.
(Malformed record files given to the command line: test_fuzz_cli.py.)

Each hypothesis example starts from fresh tables (made through the store, in milliseconds) in
one app, so a failing example replays the same way while it is shrunk."""

from __future__ import annotations

import pytest
from flask import Flask
from fuzzkit import (
    PATHS,
    POSTS,
    PRIVATE_KINDS_STEPS,
    Request,
    World,
    build_world,
    csrf_for,
    games_load,
    nested,
    prepare,
    requests,
    send,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pagekit import check_headers
from tablekit import make_app, snapshot

from app.explore import legal_steps


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    return make_app(tmp_path_factory.mktemp("fuzz"))


def legal_request(world: World, data: st.DataObject) -> Request | None:
    """A step the engine would take now at t1, from the device that may take it, so that
    some requests are accepted and the game moves on between the odd ones."""
    live = world.app.extensions["tables"].load(world.ids["t1"])
    options = legal_steps(live.game) if live and live.game else []
    if not options:
        return None
    step = data.draw(st.sampled_from(options))
    by = step.get("by")
    phone = step["do"] in PRIVATE_KINDS_STEPS and by in ("Ann", "Bob")
    fields = [(k, c) for k, v in step.items() for c in (v if isinstance(v, list) else [v])
              if not (phone and k == "by")]
    return Request(client=by.lower() if phone else "tablet",
                   method="POST", path="/s/{s}/step" if phone else "/t/{t}/step", table="t1",
                   seat=by.lower() if phone else "cy", seat_no="0", fields=fields,
                   csrf="right", version="current", headers={"HX-Request": "true"}, query="",
                   oversized=False)


@settings(max_examples=50, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_requests_never_break_anything(fuzz_app: Flask, data: st.DataObject):
    world = build_world(fuzz_app)
    for _ in range(data.draw(st.integers(1, 12))):
        r = (data.draw(st.sampled_from([True, False, False])) and legal_request(world, data)
             or data.draw(requests()))
        url, form = prepare(world, r)
        before = snapshot(fuzz_app)
        response = send(world, r, url, form)
        assert response.status_code < 500, (r, url, form)
        if response.status_code >= 400:
            assert snapshot(fuzz_app) == before, (r, url, form, response.status_code)
        if response.mimetype != "text/event-stream":
            check_headers(response)
    games_load(world)


def test_oversized_bodies_are_refused_and_change_nothing(fuzz_app: Flask):
    world = build_world(fuzz_app)
    big = {"players": "Ann\n" * 20_000, "do": "income", "by": "Ann"}
    for client, path in (("stranger", "/tables"), ("tablet", "/t/{t}/step"),
                         ("ann", "/s/{s}/step"), ("ann", "/s/{s}/hand")):
        before = snapshot(fuzz_app)
        url = path.replace("{t}", world.ids["t1"]).replace("{s}", world.token("ann"))
        response = world.clients[client].post(url, data=big)
        assert response.status_code == 413
        assert snapshot(fuzz_app) == before


def test_every_wrong_method_is_a_405_page(fuzz_app: Flask):
    world = build_world(fuzz_app)
    both = {"/t/{t}/join"}  # a form page that posts to itself
    for template in PATHS:
        url = (template.replace("{t}", world.ids["t1"]).replace("{s}", world.token("ann"))
               .replace("{n}", "0"))
        wrong = ["PUT", "DELETE", "PATCH"]
        if template not in both:
            wrong.append("GET" if template in POSTS else "POST")
        for method in wrong:
            before = snapshot(fuzz_app)
            response = world.clients["ann"].open(url, method=method)
            assert response.status_code == 405, (method, template, response.status_code)
            assert snapshot(fuzz_app) == before


def test_a_show_by_position_with_nothing_to_examine_is_refused(fuzz_app: Flask):
    world = build_world(fuzz_app)
    tablet = world.clients["tablet"]
    url = f"/t/{world.ids['t1']}"
    statuses = []
    for do, extra in (("show", {}), ("exchange", {}), ("show", {})):
        before = snapshot(fuzz_app)
        form = {"csrf": csrf_for(world, "tablet", url), "version": world.version("t1"),
                "do": do, "by": "Ann", "position": "0", **extra}
        if do == "exchange":
            form.pop("position")
        response = tablet.post(url + "/step", data=form, headers={"HX-Request": "true"})
        statuses.append(response.status_code)
        if do == "show":
            assert snapshot(fuzz_app) == before
    assert statuses[0] < 500 and statuses[2] < 500, statuses


ODD_TEXT = ["é", "日本語", "\u00ff" * 40, "a" * 64 + "é", "=;", " ", "\u202e", "🂡🂱", "\x7f"]


def test_odd_cookies_tokens_and_queries_never_break_anything(fuzz_app: Flask):
    """Every path, from a device whose cookies and form token are text of any script: a 4xx
    or a page, never a 500, and a refused request changes nothing."""
    world = build_world(fuzz_app)
    for text in ODD_TEXT:
        cookies = f"coup_device={text}; coup_ref_{{t}}={text}"
        for template in PATHS:
            method = "POST" if template in POSTS else "GET"
            r = Request(client="stranger", method=method, path=template, table="t1",
                        seat="eve", seat_no="0", fields=[("code", text), ("do", text)],
                        csrf="text", version="current", headers={"HX-Request": "true"},
                        query="?key=%C3%A9&since=%E6%97%A5", oversized=False, cookies=cookies,
                        csrf_text=text)
            url, form = prepare(world, r)
            before = snapshot(fuzz_app)
            response = send(world, r, url, form)
            assert response.status_code < 500, (template, text)
            if response.status_code >= 400:
                assert snapshot(fuzz_app) == before, (template, text)


@pytest.mark.parametrize("body", [nested(30000), nested(10000, b'{"a":', b"}"),
                                  b'{"format": "coup-record/1", "players": ' + nested(5000)
                                  + b"}", nested(900)])
def test_a_deeply_nested_upload_is_refused_in_one_message(fuzz_app: Flask, body: bytes):
    world = build_world(fuzz_app)
    r = Request(client="stranger", method="POST", path="/tables/import", table="t1", seat="cy",
                seat_no="0", fields=[], csrf="right", version="none", headers={}, query="",
                oversized=False, upload=body)
    url, form = prepare(world, r)
    before = snapshot(fuzz_app)
    response = send(world, r, url, form)
    assert response.status_code == 422
    assert "not a game record we can load" in response.get_data(as_text=True)
    assert snapshot(fuzz_app) == before
