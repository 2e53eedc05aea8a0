"""Reading a record file safely: a regular file of at most 1 MB, JSON with no huge numbers
and no half characters; each problem is one clear message."""

from __future__ import annotations

import codecs
import json
import math
import os
import stat
from pathlib import Path
from typing import Any, NoReturn

from app.engine.rulings import N_

from .errors import RecordError, _message
from .format import Record, parse, refuse_lone_surrogates

MAX_RECORD_BYTES = 1_000_000
"""The largest record file read: a long game of ten players is under 100 KB."""
MAX_DIGITS = 100
"""The longest number a record may hold (coins are under 100)."""


def load(path: str | Path) -> Record:
    """Read and check a record file. Raises RecordError with one line for a person: for a file
    that is missing, unreadable, not a regular file (a folder, a pipe, a device: never read,
    so a FIFO or /dev/zero can't hold the command), over :data:`MAX_RECORD_BYTES`, not UTF-8
    or not JSON, nested too deeply, with a number of thousands of digits or a string that is
    not text (a lone surrogate such as ``"\\ud800"``), or not a valid record."""
    raw = _read_record_file(Path(path))
    try:
        text = record_text(raw)
    except UnicodeDecodeError:
        raise RecordError(N_("not a text file (UTF-8)")) from None
    try:
        data = record_json(text)
    except json.JSONDecodeError as e:
        # TRANSLATORS: a game record's error. line, column: numbers; reason: the system's own
        # (English) words.
        raise RecordError(N_("not JSON (line %(line)s, column %(column)s: %(reason)s)"),
                          line=e.lineno, column=e.colno, reason=e.msg) from None
    except RecursionError:
        raise RecordError(N_("not a game record: its JSON is nested too deeply")) from None
    return parse(data)


def _read_record_file(path: Path) -> bytes:
    """The bytes of a regular file, at most MAX_RECORD_BYTES (and one more, to tell)."""
    # O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        # TRANSLATORS: a game record's error. reason: the system's own (English) words.
        raise RecordError(N_("can’t read the file (%(reason)s)"), reason=str(e.strerror)) \
            from None
    mode = os.fstat(fd).st_mode  # before fdopen, which refuses a folder with its own error
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = N_("a folder") if stat.S_ISDIR(mode) else N_("a pipe, socket or device")
        # TRANSLATORS: error. kind: what the path is instead ("a folder"), a phrase of its own.
        raise RecordError(N_("not a record file: it is %(kind)s"), kind=_message(kind))
    with os.fdopen(fd, "rb") as file:
        try:
            raw = file.read(MAX_RECORD_BYTES + 1)
        except OSError as e:
            # TRANSLATORS: a game record's error. reason: the system's own (English) words.
            raise RecordError(N_("can’t read the file (%(reason)s)"),
                              reason=str(e.strerror)) from None
    if len(raw) > MAX_RECORD_BYTES:
        # TRANSLATORS: a game record's error. size: a size such as '1 MB'.
        raise RecordError(N_("too big for a game record (more than %(size)s)"),
                          size=f"{MAX_RECORD_BYTES / 1_000_000:g} MB")
    return raw


def record_text(raw: bytes) -> str:
    """A record file's text: UTF-8, with or without the mark Windows' Notepad puts first.
    Raises UnicodeDecodeError."""
    return raw.removeprefix(codecs.BOM_UTF8).decode("utf-8")


def record_json(text: str) -> Any:
    """JSON as a record may hold it: no number of thousands of digits, no NaN or Infinity, no
    string that is not text. Raises json.JSONDecodeError, RecursionError, or RecordError."""
    data = json.loads(text, parse_int=_small_int, parse_float=_finite,
                      parse_constant=_not_a_number)
    if "\\u" in text:  # text decoded as UTF-8 holds no surrogate: only an escape makes one
        refuse_lone_surrogates(data)
    return data


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        _not_a_number(text)
    return value


def _not_a_number(text: str) -> NoReturn:
    # TRANSLATORS: a game record's error. value: what the file holds, e.g. NaN or 1e999.
    raise RecordError(N_("not a game record: it holds %(value)s, which is no number a record "
                         "may hold"), value=text[:40])


def _small_int(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > MAX_DIGITS:
        # TRANSLATORS: a game record's error. n: a number.
        raise RecordError(N_("not a game record: it holds a number of %(n)s digits"), n=count)
    return int(digits)
