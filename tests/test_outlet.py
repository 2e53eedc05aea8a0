"""A handed-over stream's connection (app/outlet.py): written without waiting for the reader,
what a slow reader leaves written later, the newest event replacing one still waiting.

gevent's own sockets, in this process (no monkey-patching needed for them): a socket pair,
the reading end read to its end."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import gevent
import gevent.socket

from app.outlet import LAST_CHUNK, SocketOutlet

BOUND_S = 30.0


class Released:
    def __init__(self) -> None:
        self.outlets: list[SocketOutlet] = []

    def __call__(self, outlet: SocketOutlet) -> None:
        self.outlets.append(outlet)


@contextmanager
def pair(chunked: bool = True, buffer: int | None = None
         ) -> Iterator[tuple[SocketOutlet, gevent.socket.socket, Released]]:
    """An outlet on one end of a socket pair, and the other end to read."""
    writer, reader = gevent.socket.socketpair()
    if buffer is not None:
        writer.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, buffer)
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffer)
    writer.settimeout(BOUND_S)
    reader.settimeout(BOUND_S)
    released = Released()
    outlet = SocketOutlet(writer, chunked, None, released)
    try:
        yield outlet, reader, released
    finally:
        outlet.close()
        reader.close()


def read_all(reader: gevent.socket.socket) -> bytes:
    data = b""
    while chunk := reader.recv(65536):
        data += chunk
    return data


def test_an_event_goes_out_as_one_chunk_and_the_end_as_the_last_chunk() -> None:
    with pair() as (outlet, reader, released):
        outlet.send(b"event: changed\ndata: 4\n\n")
        assert not outlet.busy
        outlet.close()
        assert read_all(reader) == b"18\r\nevent: changed\ndata: 4\n\n\r\n" + LAST_CHUNK
        assert released.outlets == [outlet] and outlet.closed


def test_an_unchunked_response_gets_the_bytes_as_they_are() -> None:
    with pair(chunked=False) as (outlet, reader, _released):
        outlet.send(b": keepalive\n\n")
        outlet.close()
        assert read_all(reader) == b": keepalive\n\n"


def test_closing_twice_releases_once() -> None:
    with pair() as (outlet, reader, released):
        outlet.close()
        outlet.close()
        outlet.send(b"late")  # nothing is written once closed
        assert read_all(reader) == LAST_CHUNK and released.outlets == [outlet]


def test_a_slow_reader_gets_the_rest_later_and_only_the_newest_of_what_waited() -> None:
    """The first event does not fit the socket's buffers: the send returns at once, the rest
    goes out once the reader reads; of two events sent meanwhile only the newer is written."""
    with pair(buffer=4096) as (outlet, reader, _released):
        first, second, third = (bytes([n]) * 300_000 for n in b"abc")
        outlet.send(first)
        assert outlet.busy  # and this test was not held up by the reader
        outlet.send(second)
        outlet.send(third)
        received = gevent.spawn(read_all, reader)
        while outlet.busy:
            gevent.sleep(0.01)
        outlet.close()
        data = received.get(timeout=BOUND_S)
        frame = b"%x\r\n" % len(first)
        assert data == (frame + first + b"\r\n" + frame + third + b"\r\n" + LAST_CHUNK)


def test_a_reader_gone_closes_the_outlet_for_writing() -> None:
    with pair() as (outlet, reader, released):
        reader.close()
        for _ in range(3):  # the first write may still be taken by the kernel
            outlet.send(b"event: changed\ndata: 4\n\n")
        assert outlet.closed and released.outlets == []  # the deliverer closes it, then
        outlet.close()
        assert released.outlets == [outlet]
