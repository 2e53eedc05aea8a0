"""Forms no other site can send, and the headers and pages every response carries."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from pagekit import check_headers, inline_script_problems
from tablekit import HTMX, Table, csrf_of, new_table, snapshot, version_of

from app.web.security import DEVICE_COOKIE, referee_cookie

# -- forms no other site can send ---------------------------------------------------------


def refused_forms(mixed_table: Table) -> list[tuple[str, dict[str, str], dict[str, str], str]]:
    """(path, form, headers, client) for a legal step sent in every forged way."""
    tablet_csrf = csrf_of(mixed_table.page())
    ann_csrf = csrf_of(mixed_table.phone_page("Ann"))
    version = version_of(mixed_table.page())
    income = {"do": "income", "by": "Bob", "version": version}
    cases = []
    for csrf, headers in ((None, {}), ("", {}), ("0" * 32, {}), (ann_csrf, {}),
                          (tablet_csrf, {"Sec-Fetch-Site": "cross-site"}),
                          (tablet_csrf, {"Sec-Fetch-Site": "same-site"}),
                          (tablet_csrf, {"Origin": "http://evil.example"}),
                          (tablet_csrf, {"Origin": "null"})):
        form = dict(income) if csrf is None else {**income, "csrf": csrf}
        cases.append((mixed_table.url + "/step", form, headers, "tablet"))
        cases.append((mixed_table.url + "/undo", form, headers, "tablet"))
    for csrf, headers in ((None, {}), ("0" * 32, {}), (tablet_csrf, {}),
                          (ann_csrf, {"Sec-Fetch-Site": "cross-site"}),
                          (ann_csrf, {"Origin": "http://evil.example"})):
        form = {"do": "concede", "version": version, "language": "en"}
        if csrf is not None:
            form["csrf"] = csrf
        cases.append((mixed_table.link("Ann") + "/language", form, headers, "Ann"))
        cases.append((mixed_table.link("Ann") + "/step", form, headers, "Ann"))
    return cases


def test_forged_forms_are_refused_and_change_nothing(mixed_table: Table, app: Flask):
    assert mixed_table.post("/step", {"do": "income", "by": "Ann"}).status_code == 200  # to undo
    for path, form, headers, who in refused_forms(mixed_table):
        client = mixed_table.tablet if who == "tablet" else mixed_table.phones[who]
        before = snapshot(app)
        response = client.post(path, data=form, headers={**HTMX, **headers})
        assert response.status_code == 400, (path, form, headers, response.status_code)
        assert snapshot(app) == before, (path, headers)
        check_headers(response)
    # The same forms, sent properly, are taken: the refusals above were for the forgery.
    assert mixed_table.post("/step", {"do": "income", "by": "Bob"}).status_code == 200
    assert mixed_table.post("/undo", {}).status_code == 200


def test_a_new_table_form_from_another_site_is_refused(app: Flask):
    client = app.test_client()
    csrf = csrf_of(client.get("/").text)
    before = snapshot(app)
    for form, headers in (({"players": "A\nB"}, {}),
                          ({"players": "A\nB", "csrf": "0" * 32}, {}),
                          ({"players": "A\nB", "csrf": csrf}, {"Sec-Fetch-Site": "cross-site"}),
                          ({"players": "A\nB", "csrf": csrf}, {"Origin": "http://evil.example"}),
                          ({"players": "A\nB", "csrf": csrf + "0"}, {})):
        assert client.post("/tables", data=form, headers=headers).status_code == 400
    assert snapshot(app) == before
    same_site = {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"}
    response = client.post("/tables", data={"players": "A\nB", "csrf": csrf}, headers=same_site)
    assert response.status_code == 303


def test_a_form_token_is_bound_to_its_device(mixed_table: Table, app: Flask):
    """A form token lifted from the tablet's page is useless without the tablet's cookies."""
    html = mixed_table.page()
    thief = app.test_client()
    thief.set_cookie(referee_cookie(mixed_table.table_id), "guess")
    data = {"csrf": csrf_of(html), "version": version_of(html), "do": "income", "by": "Ann"}
    before = snapshot(app)
    assert thief.post(mixed_table.url + "/step", data=data).status_code == 403
    assert snapshot(app) == before


# -- headers and pages --------------------------------------------------------------------


def every_page(mixed_table: Table, app: Flask) -> list[tuple[str, object]]:
    stranger = app.test_client()
    pages = [
        ("home", mixed_table.tablet.get("/")),
        ("tablet", mixed_table.tablet.get(mixed_table.url)),
        ("tablet view", mixed_table.tablet.get(mixed_table.url + "/view")),
        ("tablet rules", mixed_table.tablet.get(mixed_table.url + "/rules")),
        ("record", mixed_table.download()),
        ("phone", mixed_table.phones["Ann"].get(mixed_table.link("Ann"))),
        ("phone view", mixed_table.phones["Ann"].get(mixed_table.link("Ann") + "/view")),
        ("phone rules", mixed_table.phones["Ann"].get(mixed_table.link("Ann") + "/rules")),
        ("403", stranger.get(mixed_table.url)),
        ("404", stranger.get("/s/" + "x" * 32)),
        ("405", stranger.get(mixed_table.url + "/step")),
        ("400", mixed_table.tablet.post(mixed_table.url + "/step", data={"do": "income"})),
        ("422", mixed_table.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"})),
        ("409", mixed_table.post("/step", {"do": "income", "by": "Ann"}, version="0")),
        ("bad create", stranger.post("/tables", data={"csrf": csrf_of(stranger.get("/").text),
                                                       "players": "A"})),
        ("413", stranger.post("/tables", data={"players": "x" * 70_000})),
    ]
    lobby = new_table(app, ["Dee", "Eve"])
    lobby.open_phone("Dee")
    pages += [("lobby", lobby.tablet.get(lobby.url)),
              ("lobby phone", lobby.phones["Dee"].get(lobby.link("Dee")))]
    return pages


def test_every_response_carries_the_security_headers(mixed_table: Table, app: Flask):
    for name, response in every_page(mixed_table, app):
        check_headers(response)  # type: ignore[arg-type]
        assert response.status_code != 500, name  # type: ignore[attr-defined]


def test_no_served_page_needs_inline_script(mixed_table: Table, app: Flask):
    html = [(n, r) for n, r in every_page(mixed_table, app) if r.mimetype == "text/html"]  # type: ignore[attr-defined]
    assert len(html) >= 15
    for name, response in html:
        text = response.get_data(as_text=True)  # type: ignore[attr-defined]
        assert not inline_script_problems(text), name
        assert "<script" not in text or all(
            'src="/static/' in tag for tag in re.findall(r"<script[^>]*>", text)), name


@pytest.mark.parametrize("script", ["app.js", "night.js", "tablet.js"])
def test_the_static_script_does_not_evaluate_strings(app: Flask, script: str):
    """Our scripts: no eval, no new Function, no document.write."""
    client = app.test_client()
    response = client.get(f"/static/{script}")
    assert response.status_code == 200
    source = response.get_data(as_text=True)
    response.close()
    for banned in ("eval(", "new Function", "document.write"):
        assert banned not in source, banned


def test_cookies_are_http_only_and_same_site(app: Flask):
    client = app.test_client()
    home = client.get("/")
    device = [c for c in home.headers.getlist("Set-Cookie") if c.startswith(DEVICE_COOKIE)]
    assert device and "HttpOnly" in device[0] and "SameSite=Lax" in device[0]
    created = client.post("/tables", data={"csrf": csrf_of(home.text), "players": "A\nB"})
    referee = [c for c in created.headers.getlist("Set-Cookie") if c.startswith("coup_ref_")]
    assert referee and "HttpOnly" in referee[0] and "SameSite=Strict" in referee[0]
