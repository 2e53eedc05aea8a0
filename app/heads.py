"""A request's head (its header lines), read for the gevent server (:mod:`app.wsgi`) without
the ``email`` package in the usual case.

gevent reads a head with ``http.client.parse_headers``, which hands the lines to the ``email``
package's parser: ~24 us of a request's ~170 (a tenth of a ``/healthz``), for a dozen plain
lines. Here the lines are read as it reads them (at most 100, each at most 64 KiB), and when
each is a plain ``Name: value`` line (a token, a colon, printable ASCII) they are taken as they
are, which is what the ``email`` parser makes of such lines; any other head (a folded line, a
control character, a byte beyond ASCII, a line that is not a header) goes to the ``email``
parser as before, so an odd head is read exactly as gevent read it.
"""

from __future__ import annotations

import email.parser
import http.client
import re
from collections.abc import Iterator
from typing import Any, Final

from gevent.pywsgi import OldMessage

MAX_LINE: Final = 65536  # http.client's _MAXLINE
MAX_LINES: Final = 100  # http.client's _MAXHEADERS

PLAIN_LINE: Final = re.compile(rb"([\x21-\x39\x3b-\x7e]+):[ \t]*([\t\x20-\x7e]*)\r?\n")
"""A header line the ``email`` parser takes as it is: a name of printable characters but the
colon, the colon, then printable ASCII or tabs; its value without the blanks after the colon
and without the line's end (trailing blanks stay, as the ``email`` parser leaves them)."""


class Head:
    """A plain head as gevent's handler reads it: ``status`` (empty: it was read whole),
    ``get`` and ``getheader`` by any case of a name (the first line of that name),
    ``del head[name]`` (every line of that name), ``typeheader`` and ``headers`` (each line
    as ``"Name: value\\r\\n"``, in order)."""

    __slots__ = ("_lines", "_first")
    status: Final = ""

    def __init__(self, lines: list[tuple[str, str]]) -> None:
        self._lines = lines
        self._first: dict[str, str] = {}
        for name, value in lines:
            self._first.setdefault(name.lower(), value)

    def get(self, name: str, default: Any = None) -> Any:
        return self._first.get(name.lower(), default)

    getheader = get

    def __delitem__(self, name: str) -> None:
        lowered = name.lower()
        self._first.pop(lowered, None)
        self._lines = [(key, value) for key, value in self._lines if key.lower() != lowered]

    @property
    def typeheader(self) -> str | None:
        return self._first.get("content-type")

    @property
    def headers(self) -> Iterator[str]:
        for name, value in self._lines:
            yield f"{name}: {value}\r\n"


def read_head(fp: Any, *_gevents: object) -> Head | OldMessage:
    """The header lines of a request from ``fp`` (its blank line read too), as gevent's
    ``headers_factory`` reads them: a line too long gives an empty head whose ``status`` says
    so (the server answers 400), more than 100 lines raise ``http.client.HTTPException``."""
    raw: list[bytes] = []
    while True:
        line = fp.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            head = OldMessage()
            head.status = "Line too long"
            return head
        raw.append(line)
        if len(raw) > MAX_LINES:
            raise http.client.HTTPException(f"got more than {MAX_LINES} headers")
        if line in (b"\r\n", b"\n", b""):
            break
    plain = [PLAIN_LINE.fullmatch(line) for line in raw[:-1]]
    if all(plain) and raw[-1]:
        return Head([(found.group(1).decode("ascii"), found.group(2).decode("ascii"))
                     for found in plain if found is not None])
    parsed: OldMessage = email.parser.Parser(_class=OldMessage).parsestr(
        b"".join(raw).decode("iso-8859-1"))
    return parsed
