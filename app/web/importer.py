"""Load a game record as a table: to continue a game, to settle a dispute at the table, or to
start from a set-up written by hand. The start page's upload and ``coup-referee import`` come
here; the write itself is the service's (:func:`app.web.service.import_record`)."""

from __future__ import annotations

from app.records import Record, parse
from app.records.files import record_json, record_text


class NestedTooDeeply(ValueError):
    """JSON nested deeper than the decoder follows (``"[" * 30000``): not a record."""


def record_from_upload(data: bytes) -> Record:
    """A record from an uploaded file. Raises ValueError (not UTF-8 text, not JSON; its
    subclass NestedTooDeeply) or RecordError (JSON, but not a record we can load)."""
    text = record_text(data)
    try:
        value = record_json(text)
    except RecursionError:
        raise NestedTooDeeply() from None
    return parse(value)
