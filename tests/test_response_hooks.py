"""What every request goes through around its view, done in fewer steps than Flask's and
Flask-Compress's own ways, must do what they did and leave the same headers: the sync check
remembered per function (factory.RefereeApp), the security headers appended when missing
(security.secured), and a gzipped screen's Vary written without Flask-Compress's hook
(factory._vary_by_encoding)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, Response
from flask_compress import Compress

from app.web.factory import SYNC_KEPT, RefereeApp, _vary_by_encoding
from app.web.security import CSP, secured


def test_the_sync_check_is_flasks_answer_remembered(app: Flask) -> None:
    assert isinstance(app, RefereeApp)

    def plain() -> str:
        return "ok"

    async def waited() -> str:
        return "ok"

    assert app.ensure_sync(plain) is plain and app.ensure_sync(plain) is plain
    try:
        wrapped = app.ensure_sync(waited)
    except RuntimeError:  # Flask's answer without asgiref installed: asked again each time
        with pytest.raises(RuntimeError):
            app.ensure_sync(waited)
    else:
        assert wrapped is not waited and app.ensure_sync(waited) is wrapped


def test_functions_made_per_request_are_not_kept_beyond_the_bound(app: Flask) -> None:
    def made(n: int) -> Callable[[], int]:
        return lambda: n

    for n in range(SYNC_KEPT + 50):
        func = made(n)
        assert app.ensure_sync(func) is func
    assert len(app._sync) == SYNC_KEPT  # type: ignore[attr-defined]


def stock_headers(response: Response, static: bool) -> list[tuple[str, str]]:
    """The headers as security.install's hook set them before it read them in one pass."""
    headers = response.headers.copy()
    headers.setdefault("Content-Security-Policy", CSP)
    headers["X-Frame-Options"] = "DENY"
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "same-origin"
    if not static:
        headers["Cache-Control"] = "no-store"
    return list(headers)


RESPONSES: list[dict[str, Any]] = [
    {},
    {"Content-Security-Policy": "default-src 'none'"},
    {"Cache-Control": "no-cache", "X-Frame-Options": "SAMEORIGIN"},
    {"Referrer-Policy": "no-referrer", "Vary": "Cookie"},
]


@pytest.mark.parametrize("own", RESPONSES)
@pytest.mark.parametrize("path", ["/t/abc/step", "/static/app.css"])
def test_the_security_headers_are_those_set_one_by_one(app: Flask, own: dict[str, Any],
                                                       path: str) -> None:
    response = Response("<p>hi</p>", headers=own)
    response.headers.add("x-frame-options", "ALLOW")  # a second one, lower case: dropped
    with app.test_request_context(path):
        expected = stock_headers(response, path.startswith("/static/"))
        assert list(secured(response).headers) == expected


@pytest.mark.parametrize("vary", [None, "Cookie", "accept-encoding", "Cookie, Accept-Encoding"])
def test_a_gzipped_screens_vary_is_flask_compress_own(app: Flask, vary: str | None) -> None:
    compress: Compress = Compress()
    compress.init_app(Flask(__name__))
    ours, theirs = (Response("<p>screen</p>" * 60, mimetype="text/html") for _ in range(2))
    for response in (ours, theirs):
        response.headers.add("Content-Encoding", "gzip")
        if vary is not None:
            response.headers.add("Vary", vary)
            response.headers.add("Vary", "Origin")  # a second one: set drops it, as before
    _vary_by_encoding(ours.headers)
    with app.test_request_context("/t/abc/step", headers={"Accept-Encoding": "gzip"}):
        theirs = compress.after_request(theirs)
    assert list(ours.headers) == list(theirs.headers)
