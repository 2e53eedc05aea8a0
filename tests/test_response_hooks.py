"""What every request goes through around its view, done in fewer steps than Flask's own ways,
must do what Flask did: the sync check remembered per function (factory.RefereeApp)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from app.web.factory import SYNC_KEPT, RefereeApp


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

