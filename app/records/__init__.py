"""Game records (`coup-record/1`): load and validate, replay, check expectations, export.

`coup-referee check FILE...` and `coup-referee explain FILE` are built from these pieces.

Every message for a person is a template marked for translation with its values, like the
engine's rulings and rule errors: a :class:`RecordError`'s ``text``/``params``/``count``, and an
:class:`Outcome`'s failure and rulings as :class:`~app.engine.Ruling` objects. ``str()`` of an
error (and ``Ruling.english()``) is the English sentence; the command line shows them in its
user's language (:mod:`app.cli_i18n`), and ``PASS``/``FAIL``/``INVALID`` stay as they are.
"""

from .errors import RecordError
from .files import MAX_DIGITS, MAX_RECORD_BYTES, load
from .format import FORMAT, Outcome, Record, parse
from .replay import differences, dump, export, replay

__all__ = [
    "FORMAT",
    "MAX_DIGITS",
    "MAX_RECORD_BYTES",
    "Outcome",
    "Record",
    "RecordError",
    "differences",
    "dump",
    "export",
    "load",
    "parse",
    "replay",
]
