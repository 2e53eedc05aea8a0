"""What every device receives over the benchmarks' plan and three random games, masked, to
compare two versions of the code.

    .venv-test/bin/python bench/record.py > after.txt
    .venv-test/bin/python bench/record.py /path/to/other/checkout > before.txt
    cmp before.txt after.txt

A change meant to make the screens cheaper must leave their bytes as they were: this prints
the answer to each tap and the event each device's stream sends for it, (1) over 150 taps of
the benchmarks' plan (``bench.common.StealPlan``: a tablet and 6 phones) and (2) over three
random games of every legal step (challenges, blocks, exchanges, the last seat with no
phone; steps taken on the phones and on the tablet in turn). What differs between two runs
by chance is masked: the table's id, the seats' links, the form tokens. The code is imported
from the checkout given (default: this one), the test helpers from its tests/.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path


def checkout(argv: list[str]) -> Path:
    """The checkout whose code is recorded (default: this one); a bad one is refused in one
    line, before anything is imported from it."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("checkout", nargs="?", type=Path,
                        default=Path(__file__).resolve().parents[1],
                        help="the checkout to record (default: this one)")
    root: Path = parser.parse_args(argv).checkout.resolve()
    if not (root / "app").is_dir() or not (root / "tests" / "web" / "playkit.py").is_file():
        parser.error(f"{root} is not a checkout of the Coup referee "
                     "(no app/ or tests/web/playkit.py)")
    return root


ROOT = checkout(sys.argv[1:])
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "web")]

from playkit import dealt, next_step  # noqa: E402
from playkit import tap as play  # noqa: E402
from tablekit import HTMX, Table, csrf_of, make_app, started_table  # noqa: E402

from bench.common import HANDS, NAMES, StealPlan  # noqa: E402

MASKS = [(re.compile(r"/s/[A-Za-z0-9_-]{20,}"), "/s/LINK"),
         (re.compile(r"/t/[A-Za-z0-9_-]{6,}"), "/t/TABLE"),
         (re.compile(r"/w/[A-Za-z0-9_-]{20,}/[0-9a-f]+"), "/w/WATCH"),
         (re.compile(r'name="csrf" value="[0-9a-f]+"'), 'name="csrf" value="TOKEN"'),
         (re.compile(r'"csrf": ?"[0-9a-f]+"'), '"csrf": "TOKEN"')]


def masked(text: str) -> str:
    for pattern, mask in MASKS:
        text = pattern.sub(mask, text)
    return text


def streams(table: Table) -> list[Iterator[bytes]]:
    """An open event stream for the tablet and each phone, past its opening comment."""
    opened = []
    devices = [(table.tablet, table.url)] + [(table.phone(n), table.link(n)) for n in table.phones]
    for client, url in devices:
        chunks = iter(client.get(f"{url}/events", buffered=False).response)
        next(chunks)
        opened.append(chunks)
    return opened


def events(open_streams: list[Iterator[bytes]]) -> list[str]:
    return [masked(next(stream).decode()) for stream in open_streams]


def bench_plan(instance: Path) -> Iterator[str]:
    table = started_table(make_app(instance), {n: list(HANDS[n]) for n in NAMES})
    listening, plan = streams(table), StealPlan()
    for number in range(150):
        answer = table.step(**plan.next())
        yield f"== plan tap {number}: {answer.status_code}\n{masked(answer.text)}"
        yield from events(listening)


def random_game(instance: Path, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    hands = dealt(rng)
    table = started_table(make_app(instance), hands)
    listening = streams(table)
    for number in range(80):
        step = next_step(table, rng)
        if step is None:
            break
        before = table.live().version
        play(table, step, hands, on_phone=number % 2 == 0)
        yield f"== game {seed} step {number}: {step}"
        for _version in range(before, table.live().version):
            yield from events(listening)
    for client, url in [(table.tablet, table.url)] + [(table.phone(n), table.link(n))
                                                       for n in table.phones]:
        yield masked(client.get(f"{url}/view", headers=HTMX).text)
    assert csrf_of(table.page())


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="coup-record-") as instance:
        for part in bench_plan(Path(instance) / "plan"):
            print(part)
        for seed in range(3):
            for part in random_game(Path(instance) / str(seed), seed):
                print(part)
    return 0


if __name__ == "__main__":
    sys.exit(main())
