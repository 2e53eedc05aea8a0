"""Event streams handed over to the broker (app/wsgi.py, app/outlet.py) still count as the
connections they are: for their address's bound and for the server's total, until they end.

The small server of tests/test_server_limits.py (its broker's keepalive is 0.1 s, so a stream
whose reader went away is noticed at once). Pass or fail is decided by what the server answers;
the one wait for an answer that must not come is a bound, not a race."""

from __future__ import annotations

import socket
import time
from contextlib import AbstractContextManager

import pytest
import test_server_limits
from test_server_limits import answer, answer_or_get, connect, get, limited_server

NO_ANSWER_S = 1.0  # how long a connection that must not be served is watched


def open_stream(port: int) -> socket.socket:
    """A stream opened and handed over: its head and opening comment read."""
    sock = connect(port)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    seen = b""
    while b": open" not in seen:
        chunk = sock.recv(65536)
        assert chunk, seen
        seen += chunk
    assert seen.startswith(b"HTTP/1.1 200 ")
    return sock


def served_again(port: int) -> bool:
    """Whether a new connection is served (tried until the server noticed a close: a stream's
    reader gone is noticed when a keepalive to it fails)."""
    for _ in range(300):
        with connect(port) as again:
            if answer_or_get(again).endswith(b"pong"):
                return True
        time.sleep(0.05)
    return False


def test_a_handed_over_stream_counts_for_its_address_until_it_ends() -> None:
    with limited_server(per_address=2, count_loopback=True) as port:
        streams = [open_stream(port), open_stream(port)]
        with connect(port) as third:
            assert answer(third).startswith(b"HTTP/1.1 503 ")
        streams.pop().close()  # noticed at the stream's next keepalive
        assert served_again(port), "a closed stream's place was never given back"
        streams.pop().close()


def test_handed_over_streams_count_towards_the_servers_total() -> None:
    """Past ``total`` connections a new one waits in the listen queue, streams included, and
    is served once a stream ends."""
    with limited_server(total=2) as port:
        streams = [open_stream(port), open_stream(port)]
        with connect(port) as waiting:
            waiting.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
            waiting.settimeout(NO_ANSWER_S)
            with pytest.raises(TimeoutError):
                waiting.recv(65536)
            streams.pop().close()
            waiting.settimeout(30.0)
            reply = b""
            while not reply.endswith(b"pong"):
                chunk = waiting.recv(65536)
                assert chunk, reply
                reply += chunk
            assert get(waiting, "/ping").endswith(b"pong")
        streams.pop().close()


def test_a_stream_keeps_its_keepalives_coming_after_it_is_handed_over() -> None:
    with limited_server() as port:
        with open_stream(port) as stream:
            seen = b""
            while seen.count(b": keepalive") < 3:
                chunk = stream.recv(65536)
                assert chunk, seen
                seen += chunk
            assert seen.startswith(b"d\r\n: keepalive\n\n\r\n" * 2), seen  # a chunk each


def quiet_server(**limits: object) -> AbstractContextManager[int]:
    """The same small server with a keepalive of a minute: a stream's reader that went away
    can only be noticed by reading its end of the connection."""
    script = test_server_limits.SERVER_SCRIPT.replace("keepalive=0.1", "keepalive=60")
    return limited_server(script, **limits)


@pytest.mark.parametrize("how", ["close", "reset"])
def test_a_stream_whose_reader_went_away_gives_its_place_back_at_once(how: str) -> None:
    """A phone reloading its page 32 times would otherwise be turned away until the next
    keepalive found each old stream gone (15-30 s: a hostile client's finding)."""
    with quiet_server(per_address=1, count_loopback=True) as port:
        stream = open_stream(port)
        if how == "reset":
            stream.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
        stream.close()
        assert served_again(port)  # well before the minute's keepalive


def test_the_answer_to_a_head_is_its_head_alone() -> None:
    """Nothing after the head: a byte of body would be read as the start of the next answer
    on the connection (a hostile client's finding: the last chunk of a chunked stream)."""
    with limited_server() as port, connect(port) as sock:
        sock.sendall(b"HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n")
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += sock.recv(1)
        assert head.startswith(b"HTTP/1.1 200 ")
        assert get(sock, "/ping").startswith(b"HTTP/1.1 200 ")
        sock.sendall(b"HEAD /ping HTTP/1.1\r\nHost: x\r\n\r\n")
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += sock.recv(1)
        assert b"Content-Length: 4" in head
        assert get(sock, "/ping").startswith(b"HTTP/1.1 200 ")
