"""Load a game record as a table: to continue a game, to settle a dispute at the table, or to
start from a set-up written by hand. The start page's upload and ``coup-referee import`` come
here; the write itself is the service's (:func:`app.web.service.import_record`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Final

from app.cli_i18n import message
from app.records import Record, RecordError, load, parse
from app.server import public_url as lan_url
from app.store import Store, init_db
from app.web.service import import_record

DEFAULT_PORT: Final = 5000


class NestedTooDeeply(ValueError):
    """JSON nested deeper than the decoder follows (``"[" * 30000``): not a record."""


def record_from_upload(data: bytes) -> Record:
    """A record from an uploaded file. Raises ValueError (not UTF-8 text, not JSON; its
    subclass NestedTooDeeply) or RecordError (JSON, but not a record we can load)."""
    text = data.decode("utf-8")
    try:
        value = json.loads(text)
    except RecursionError:
        raise NestedTooDeeply() from None
    return parse(value)


def import_command(path: str, instance: str | None, public_url: str | None = None) -> int:
    """`coup-referee import FILE`: prints `table: URL`, then `seat NAME: URL` per seat.

    Those lines are for scripts as much as people: their words stay English in every language.
    Errors are in the user's language (:mod:`app.cli_i18n`)."""
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
        snapshot = store.read(table.id)
    assert snapshot is not None
    base = (public_url or default_url()).rstrip("/")
    print(f"table: {base}/t/{table.id}?key={table.referee_token}")
    for seat in snapshot.seats:  # an untracked seat's link shows the public game, with no hand
        print(f"seat {seat.name}: {base}/s/{seat.token}")
    return 0


def default_url() -> str:
    return lan_url("0.0.0.0", DEFAULT_PORT) or f"http://localhost:{DEFAULT_PORT}/"


__all__ = ["NestedTooDeeply", "import_command", "import_record", "record_from_upload"]
