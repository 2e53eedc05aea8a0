"""Messages about game records: a RecordError for a file that is not a valid record, and the
small messages (places in a file, failures) nested in them, all translatable templates."""

from __future__ import annotations

from app.engine import RuleError, Ruling
from app.engine.rulings import render


class RecordError(Exception):
    """A file that is not a valid game record; the message says what is wrong, for a person.

    As with :class:`~app.engine.RuleError`, ``text`` is an English template (marked with
    ``N_``), ``params`` its values (a value may be a :class:`~app.engine.Ruling`, rendered in
    the same language) and ``count`` the value that picks a plural form; ``str(error)`` is the
    English sentence.
    """

    def __init__(self, text: str | tuple[str, str], count: str | None = None,
                 **params: object) -> None:
        self.text = text
        self.count = count
        self.params = params
        super().__init__(render(text, params, count=count))

    @classmethod
    def of(cls, message: RuleError | Ruling) -> RecordError:
        """The same message, as a record error (an engine refusal, a replay failure)."""
        return cls(message.text, message.count, **message.params)


def _message(text: str | tuple[str, str], count: str | None = None, **params: object) -> Ruling:
    """A message that is not a ruling (a failure, a place in the file), for nesting in others."""
    return Ruling(text, params, count=count)
