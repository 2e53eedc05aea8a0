"""The benchmarks' own helpers (bench/): the referee's step plan is legal for ever, and the
small HTTP/SSE readers parse what the server sends. No timing is checked here."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.engine import apply, new_game  # noqa: E402
from bench.common import (  # noqa: E402,E501
    HANDS,
    NAMES,
    CpuReading,
    StealPlan,
    cpu_reading,
    percentile,
    user_and_system,  # noqa: E402
)
from bench.devices import cookie_pairs, read_response, sse_events  # noqa: E402
from bench.livetables import MISSED_AFTER_S, tap_latency  # noqa: E402


def test_the_steal_plan_stays_legal_and_never_forces_a_coup() -> None:
    game = new_game({"players": list(NAMES), "first": NAMES[0],
                     "hands": {n: list(HANDS[n]) for n in NAMES}})
    plan = StealPlan()
    for _ in range(900):  # 300 turns: far more than a 30 s run posts at one table
        game = apply(game, plan.next())  # raises RuleError if a step were illegal
    coins = {p.name: p.coins for p in game.players}
    assert coins == plan.coins
    assert sum(coins.values()) == 12 and max(coins.values()) < 7
    assert not game.over


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile([3.0], 99) == 3.0


def test_cookie_pairs_keep_name_and_value_only() -> None:
    assert cookie_pairs(["coup_device=abc; Max-Age=9; HttpOnly", "coup_ref_x=t=1; Path=/"]) == {
        "coup_device": "abc", "coup_ref_x": "t=1"}


def chunk(data: bytes) -> bytes:
    """One chunk of a chunked HTTP body (an empty one ends the body)."""
    return b"%x\r\n%s\r\n" % (len(data), data)


def feed(data: bytes) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    return reader


def test_read_response_handles_length_chunked_and_204() -> None:
    async def run() -> None:
        status, headers, body = await read_response(feed(
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello"))
        assert (status, headers["x-a"], body) == (200, "b", b"hello")
        status, _h, body = await read_response(feed(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + chunk(b"abc") + chunk(b"de") + chunk(b"")))
        assert (status, body) == (200, b"abcde")
        status, _h, body = await read_response(feed(b"HTTP/1.1 204 No Content\r\n\r\n"))
        assert (status, body) == (204, b"")

    asyncio.run(run())


def test_sse_events_parse_events_and_comments_across_chunks() -> None:
    stream = b"".join(chunk(c) for c in (b": open\n", b"\n", b"event: changed\ndata: 12\n\n",
                                          b": keepalive\n\n", b""))

    async def run() -> list[tuple[str, str]]:
        return [event async for event in sse_events(feed(stream))]

    assert asyncio.run(run()) == [("comment", "open"), ("changed", "12"), ("comment", "keepalive")]


def test_cpu_time_per_process_grows_with_work_and_splits_user_from_system() -> None:
    before = user_and_system(os.getpid())
    deadline = time.process_time() + 0.05
    while time.process_time() < deadline:  # some CPU work of this process, however long
        sum(range(1000))
    after = user_and_system(os.getpid())
    assert all(value >= 0 for value in before)
    assert after[0] + after[1] > before[0] + before[1]


def test_a_tap_is_on_every_screen_when_on_the_last_one_and_never_if_one_missed_it() -> None:
    assert tap_latency(10.0, [10.01, 10.03, 10.02]) == (pytest.approx(0.03), 0)
    assert tap_latency(10.0, [10.01, None, 10.02]) == (float("inf"), 1)
    assert tap_latency(10.0, [None, 10.0 + MISSED_AFTER_S + 1]) == (float("inf"), 2)


def test_cpu_between_two_readings_is_the_threads_exact_figure_when_none_ended() -> None:
    """The ticks are 10 ms each (at one table, 2 ms a tap either way); the threads' own
    figures are exact, unless a thread of the first reading ended (its figure went with it)."""
    before = CpuReading(1.00, {1: 0.5, 2: 0.2})
    assert CpuReading(1.01, {1: 0.5125, 2: 0.2}).since(before) == pytest.approx(0.0125)
    assert CpuReading(1.01, {1: 0.51, 2: 0.2, 3: 0.004}).since(before) == \
        pytest.approx(0.014)  # a thread started meanwhile: all of its time
    assert CpuReading(1.01, {1: 0.51}).since(before) == pytest.approx(0.01)  # 2 ended idle
    assert CpuReading(1.10, {1: 0.51}).since(before) == \
        pytest.approx(0.10)  # 2 ended after working: more went missing than the ticks' error
    assert CpuReading(1.03, None).since(before) == pytest.approx(0.03)


def test_a_reading_of_this_process_agrees_with_its_own_clock() -> None:
    start, own = cpu_reading(os.getpid()), time.process_time()
    deadline = time.perf_counter() + 0.2
    while time.perf_counter() < deadline:
        pass
    spent = cpu_reading(os.getpid()).since(start)
    assert spent == pytest.approx(time.process_time() - own, abs=0.025)


def test_phases_print_each_part_less_the_parts_it_holds_as_medians_in_microseconds() -> None:
    from bench.phases import summary

    taps = [{"waking and the request line": 10_000 * k, "Flask around the view": 100_000,
             "the view": 60_000, "gzip": 10_000, "the table loaded": 20_000,
             "the POST": 150_000, "the whole tap": 200_000} for k in (1, 2, 3)]
    parts = summary(taps)
    assert parts["waking and the request line"] == 20.0  # the median of 10, 20 and 30 µs
    assert parts["Flask around the view"] == 30.0  # less the view and gzip
    assert parts["the view"] == 40.0  # less the table loaded
    assert parts["the table loaded"] == 20.0 and parts["the CSRF check"] == 0.0
    assert parts["the whole tap"] == 200.0
    assert list(parts)[0] == "waking and the request line" and list(parts)[-1] == "the whole tap"


def test_the_phase_timer_counts_a_part_only_where_the_tap_is(tmp_path: Path) -> None:
    from bench.phases import Timer

    class Owner:
        @staticmethod
        def work(n: int) -> int:
            return sum(range(n))

    timer = Timer(tmp_path / "taps.jsonl")
    timer.wrap(Owner, "work", "work", during_post=True)
    assert Owner.work(10) == 45  # no tap under way: nothing counted, the answer unchanged
    timer.tap, timer.in_post = {"waking and the request line": 0, "_start": 0}, True
    Owner.work(200_000)
    assert timer.tap["work"] > 0
    timer.in_post = False
    counted = timer.tap["work"]
    Owner.work(200_000)  # after the POST: a POST part is not counted
    assert timer.tap["work"] == counted
    timer.finish(0)
    timer.close()
    assert timer.tap is None
    written = (tmp_path / "taps.jsonl").read_text().splitlines()
    assert len(written) == 1 and '"the whole tap"' in written[0]


def test_each_benchmark_names_its_machine_in_one_line() -> None:
    import platform

    from bench.machine import describe, processor

    line = describe()
    assert "\n" not in line and processor() in line
    assert f"{os.cpu_count()} cores" in line and f"Python {platform.python_version()}" in line
    assert " UTC on " in line and "load average " in line
