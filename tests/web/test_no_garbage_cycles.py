"""A tap leaves no reference cycle of ours behind (issue 12). What a cycle holds is freed only by
the garbage collector, not when the tap is done with it: at 300 tables a ruling's recursive
closure and a screen's view holding its own placer made ~130 objects a tap wait for the
collector, whose young collections walk every object still alive (docs/PERFORMANCE-HISTORY.md, round
ten). The libraries' own cycles (werkzeug's URL matcher makes one per request) are not ours."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import Flask
from tablekit import started_table

from app.engine.rulings import Names, Ruling, card, render
from bench.common import HANDS, NAMES
from bench.memory import OpenTable


def ours(thing: object) -> bool:
    """Whether ``thing`` is a function or an object of this app's code."""
    module = getattr(thing, "__module__", None) if callable(thing) and hasattr(
        thing, "__code__") else type(thing).__module__
    return isinstance(module, str) and (module == "app" or module.startswith("app."))


@contextmanager
def cycles_left() -> Iterator[list[str]]:
    """The objects of ours that were only freed by the collector, once the block is done."""
    found: list[str] = []
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found += sorted({getattr(thing, "__qualname__", type(thing).__qualname__)
                         for thing in gc.garbage if ours(thing)})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_wording_a_ruling_leaves_no_cycle():
    nested = Ruling("Waiting for %(who)s.", {"who": [
        Ruling("%(names)s to challenge", {"names": Names(["Ann", "Bob"])})]})
    with cycles_left() as found:
        for _ in range(20):
            render(nested.text, nested.params)
            render("%(card)s or %(cards)s", {"card": card("duke"), "cards": ["duke", "captain"]})
    assert found == [], found


def test_a_tap_and_its_seven_screens_leave_no_cycle_of_ours(app: Flask):
    table = OpenTable(started_table(app, {name: list(HANDS[name]) for name in NAMES}))
    tap: Callable[[], None] = table.tap
    for _ in range(3):  # the memos warm: what they keep is not garbage
        tap()
    with cycles_left() as found:
        for _ in range(9):  # declarations, challenge windows and block windows
            tap()
    assert found == [], found
