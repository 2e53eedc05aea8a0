"""What game night's web tests share: the tablet's settings form, and the next game."""

from __future__ import annotations

from tablekit import Table


def settings(t: Table, **form: str) -> int:
    return t.post("/night", form).status_code


def settle(t: Table) -> Table:
    """The next game, same table: the finished one can no longer be undone."""
    assert t.post("/rematch", {}).status_code == 200
    return t
