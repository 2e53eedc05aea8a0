"""Load a game record as a table: to continue a game, to settle a dispute at the table, or to
start from a set-up written by hand. Used by `coup-referee import` and the home page."""

from __future__ import annotations

import sys
from pathlib import Path

from app.engine.rulings import N_
from app.records import Record, RecordError, load, replay
from app.store import Store, Table, init_db

DEFAULT_PORT = 5000


def import_record(store: Store, record: Record, language: str = "en") -> Table:
    """A new table holding the record's game, its steps already played (refused steps left
    out). The seats of players whose hands are not tracked are marked as having no phone."""
    outcome = replay(record)
    if outcome.game is None or outcome.refused:
        if outcome.failure is None:
            raise RecordError(N_("the record does not replay"))
        raise RecordError.of(outcome.failure)
    setup = dict(record.setup)
    players = list(setup["players"])
    settings = {"players": players, "first": setup.get("first", players[0]),
                "rules": setup.get("rules") or {}, "edition": "official"}
    table = store.create_table(settings, seats=players, language=language)
    hands = setup["hands"]
    for seat in store.seats(table.id):
        hand = hands.get(seat.name)
        store.update_seat(table.id, seat.seat, hand=hand, tracked=hand is not None)
    version = store.append_step(table.id, 0, {"control": "start", "setup": setup})
    for step in record.steps:
        if "expect" in step or step.get("rejected"):
            continue
        version = store.append_step(table.id, version, step)
    return table


def import_command(path: str, instance: str | None, public_url: str | None = None) -> int:
    """`coup-referee import FILE`: prints `table: URL`, then `seat NAME: URL` per seat.

    Those lines are for scripts as much as people: their words stay English in every language.
    Errors are in the user's language (:mod:`app.cli_i18n`)."""
    from app.cli_i18n import message

    try:
        record = load(path)
    except RecordError as e:
        print(f"coup-referee: {path}: {message(e)}", file=sys.stderr)
        return 2
    folder = Path(instance or Path(__file__).resolve().parents[2] / "instance")
    database = folder / "coup.sqlite"
    init_db(database)
    with Store.open(database) as store:
        try:
            table = import_record(store, record)
        except RecordError as e:
            print(f"coup-referee: {path}: {message(e)}", file=sys.stderr)
            return 2
        seats = store.seats(table.id)
    base = (public_url or default_url()).rstrip("/")
    print(f"table: {base}/t/{table.id}?key={table.referee_token}")
    for seat in seats:  # an untracked seat's link shows the public game, with no hand
        print(f"seat {seat.name}: {base}/s/{seat.token}")
    return 0


def default_url() -> str:
    from app.server import public_url

    return public_url("0.0.0.0", DEFAULT_PORT) or f"http://localhost:{DEFAULT_PORT}/"
