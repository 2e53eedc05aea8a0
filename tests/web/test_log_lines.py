"""A screen's log lines (views.log_lines) are built in one comprehension when no undo is on
show, the usual case: the same lines as the loop that places each undo where it happened, at
every step of random games, with the referee undoing now and then, with rulings the timer
decided, for the tablet's 30 lines, a phone's 8 and fewer, and logs shorter than those."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from itertools import product
from pathlib import Path

import pytest
from playkit import dealt, next_step, tap
from tablekit import make_app, started_table

from app.engine import Ruling
from app.i18n import Voice
from app.web import views, words
from app.web.state import TableState
from app.web.views import LogLine, log_lines

LIMITS = (views.RECENT_RULINGS, views.PHONE_RULINGS, 3, 1)


def every_line_placed(state: TableState, log: Sequence[Ruling], voice: Voice, limit: int
                      ) -> list[LogLine]:
    """The loop log_lines ran for every log before it had a usual case (the reference)."""
    marks = views._undo_marks(state, len(log))[::-1]
    timed = views.time_up_numbers(state)
    lines: list[LogLine] = []
    for number in range(len(log), -1, -1):
        lines.extend(LogLine(undone=words.describe_step(step, voice))
                     for at, step in marks if at == number)
        if len(lines) >= limit:
            break
        if number:
            lines.append(LogLine(number, log[number - 1], time_up=number in timed))
    return lines[:limit]


def compare(state: TableState) -> tuple[int, int]:
    """(lines compared, of them in a log with no undo on show): the state's log, its first
    ruling alone and none, each also with rulings the timer decided."""
    assert state.game is not None
    whole, voice = views.engine_table_view(state.game)["log"], Voice()
    size = len(whole)
    timed = dataclasses.replace(state, time_up=((0, 0), (0, size // 2), (0, size - 1)))
    compared = usual = 0
    for each, log, limit in product((state, timed), (whole, whole[:1], []), LIMITS):
        lines = log_lines(each, log, voice, limit)
        assert lines == every_line_placed(each, log, voice, limit), (state.version, limit)
        compared += len(lines)
        usual += len(lines) if not each.undone else 0
    return compared, usual


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_usual_case_is_the_loops_lines(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    hands = dealt(rng)
    table = started_table(make_app(tmp_path), hands)
    compared = usual = undos = 0
    with table.app.test_request_context():
        compared, usual = compare(table.live())  # the game's first log
    for number in range(60):
        step = next_step(table, rng)
        if step is None:
            break
        tap(table, step, hands, on_phone=number % 2 == 0)
        if number % 7 == 6:
            undos += table.post("/undo", {}).status_code == 200
        state = table.live()
        with table.app.test_request_context():
            counted = compare(state)
        compared, usual = compared + counted[0], usual + counted[1]
    assert undos > 3 and usual > 100 and compared > usual

