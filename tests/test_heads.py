"""A request's head as the server reads it (app/heads.py): whatever the lines, gevent's handler
sees what gevent's own reader (``http.client`` and the ``email`` parser) made of them, and the
plain heads browsers send skip the ``email`` parser."""

from __future__ import annotations

import http.client
import io
from typing import Any

import pytest
from gevent.pywsgi import OldMessage, headers_factory
from hypothesis import given, settings
from hypothesis import strategies as st

from app.heads import MAX_LINE, MAX_LINES, Head, read_head

TOKEN = st.text(alphabet=[chr(c) for c in range(0x21, 0x7F) if c != 0x3A], min_size=1,
                max_size=12)
PRINTABLE = st.text(alphabet=[chr(c) for c in range(0x20, 0x7F)] + ["\t"], max_size=30)
BLANKS = st.sampled_from(["", " ", "  ", "\t", " \t"])
NAMES = ["Host", "host", "Content-Length", "content-type", "Connection", "Transfer-Encoding",
         "Upgrade", "Cookie", "X-Odd"]


def plain_line(name: str, blanks: str, value: str, end: str) -> bytes:
    return f"{name}:{blanks}{value}{end}".encode("ascii")


PLAIN = st.builds(plain_line, st.one_of(TOKEN, st.sampled_from(NAMES)), BLANKS, PRINTABLE,
                  st.sampled_from(["\r\n", "\n"]))
ODD = st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"") + b"\r\n") | st.sampled_from(
    [b" folded onto the line before\r\n", b"\tfolded\r\n", b"No colon here\r\n",
     b"From someone\r\n", b"Bad Name: x\r\n", b":empty name\r\n", b"X: a\rb\r\n",
     b"X: caf\xc3\xa9\r\n", b"X: \x85next\r\n", b"X: a\x1cb\r\n", b"X: \x00\r\n"])


def seen(head: Any) -> dict[str, object]:
    """Everything gevent's handler reads of a head, and what a deletion leaves."""
    said = {"status": head.status, "type": head.typeheader,
            "length": head.getheader("content-length"), "lines": list(head.headers),
            **{name: head.get(name) for name in NAMES},
            "default": head.get("Absent", "none")}
    del head["content-length"]
    return {**said, "after delete": list(head.headers),
            "length after delete": head.get("Content-Length")}


def both(raw: bytes) -> tuple[Any, Any]:
    """(our head, gevent's) of the same bytes, and each reader left at the same place."""
    ours_file, theirs_file = io.BytesIO(raw), io.BytesIO(raw)
    ours, theirs = read_head(ours_file, 0), headers_factory(theirs_file, 0)
    assert ours_file.read() == theirs_file.read()
    return ours, theirs


@settings(max_examples=300)
@given(st.lists(PLAIN, max_size=12), st.binary(max_size=10))
def test_a_plain_head_is_read_as_gevent_reads_it_without_the_email_parser(
        lines: list[bytes], body: bytes) -> None:
    ours, theirs = both(b"".join(lines) + b"\r\n" + body)
    assert isinstance(ours, Head)
    assert seen(ours) == seen(theirs)


@settings(max_examples=300)
@given(st.lists(PLAIN | ODD, max_size=8), st.sampled_from([b"\r\n", b"\n", b""]))
def test_any_head_is_read_as_gevent_reads_it(lines: list[bytes], end: bytes) -> None:
    """An odd line (folded, a control character, beyond ASCII, not a header) sends the whole
    head to the ``email`` parser, as gevent did; so does a head cut off by the connection's
    end."""
    ours, theirs = both(b"".join(lines) + end)
    assert seen(ours) == seen(theirs)


def test_a_line_too_long_is_said_as_gevent_says_it() -> None:
    ours, theirs = both(b"Host: x\r\nX: " + b"a" * MAX_LINE + b"\r\n\r\n")
    assert isinstance(ours, OldMessage)
    assert ours.status == theirs.status == "Line too long"


def test_too_many_lines_are_refused_as_gevent_refuses_them() -> None:
    raw = b"".join(b"X-%d: y\r\n" % n for n in range(MAX_LINES + 1)) + b"\r\n"
    for reader in (read_head, headers_factory):
        with pytest.raises(http.client.HTTPException):
            reader(io.BytesIO(raw), 0)
