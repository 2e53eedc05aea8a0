"""A form token is made once per request and scope (a referee's tap checks the one it was
sent, then fills it into its answer), and is still the device's own and the scope's own."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from app.web import security
from app.web.security import DEVICE_COOKIE, csrf_token


def test_a_token_is_made_once_per_request_and_scope(app: Flask, monkeypatch: pytest.MonkeyPatch):
    made: list[Any] = []
    real = security.hmac.new

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(security.hmac, "new", counted)
    ann = {"Cookie": f"{DEVICE_COOKIE}={'a' * 32}"}
    with app.test_request_context("/", headers=ann):
        first = csrf_token("table:x")
        assert csrf_token("table:x") == first and len(made) == 1
        other = csrf_token("seat:y")
        assert other != first and len(made) == 2
    with app.test_request_context("/", headers=ann):
        assert csrf_token("table:x") == first  # the same device, a later request
    with app.test_request_context("/", headers={"Cookie": f"{DEVICE_COOKIE}={'b' * 32}"}):
        assert csrf_token("table:x") != first  # another device
    with app.test_request_context("/", headers={"Cookie": f"{DEVICE_COOKIE}=bad"}):
        assert csrf_token("table:x") != first  # a cookie not ours: a new device id
