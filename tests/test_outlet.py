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

from app.outlet import LAST_CHUNK, SEND_BUFFER, Connections, SocketOutlet

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


def test_the_send_buffer_is_small_and_fixed() -> None:
    """Left to itself the kernel grows a stalled reader's send buffer to ~1.5 MiB before a
    write waits at all (a hostile client's finding): an outlet's is a few screens."""
    with pair() as (outlet, _reader, _released):
        assert outlet.sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) <= 2 * SEND_BUFFER


def test_a_reader_that_goes_away_is_noticed_without_a_write() -> None:
    """And whoever writes to the outlet is told, once (the deliverer ends the stream then,
    not when its next keepalive is due)."""
    with pair() as (outlet, reader, released):
        told: list[bool] = []
        outlet.on_gone = lambda: told.append(outlet.closed)
        reader.close()
        for _ in range(300):
            if outlet.closed:
                break
            gevent.sleep(0.01)
        assert outlet.closed and released.outlets == []  # the deliverer ends the stream
        assert told == [True]
        outlet.send(b"late")  # a write after it tells nobody again
        assert told == [True]


def test_an_outlet_the_server_closes_tells_its_writer_once() -> None:
    """As the server stops it closes every handed-over stream's outlet: the deliverer is told
    and ends each stream then (it stops listening before it closes one itself)."""
    with pair() as (outlet, reader, released):
        told: list[bool] = []
        outlet.on_gone = lambda: told.append(outlet.closed)
        outlet.close()
        outlet.close()
        assert told == [True] and released.outlets == [outlet]
        assert read_all(reader) == LAST_CHUNK


def test_a_write_that_fails_tells_the_writer_once() -> None:
    with pair() as (outlet, reader, _released):
        told: list[bool] = []
        outlet.on_gone = lambda: told.append(outlet.closed)
        outlet._watcher.stop()  # only the writes may find the reader gone here
        reader.close()
        for _ in range(3):  # the first write may still be taken by the kernel
            outlet.send(b"event: changed\ndata: 4\n\n")
        assert outlet.closed and told == [True]


def test_what_a_reader_sends_after_its_request_is_dropped_and_the_outlet_goes_on() -> None:
    with pair() as (outlet, reader, _released):
        reader.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 100)
        gevent.sleep(0.2)
        assert not outlet.closed
        outlet.send(b": keepalive\n\n")
        assert reader.recv(65536) == b"d\r\n: keepalive\n\n\r\n"


def test_a_full_pool_counts_the_streams_and_its_semaphore_says_so() -> None:
    """gevent's accept loop stops when the pool is full and waits on its semaphore. A stream
    handed over keeps its greenlet's place, so "full" and a taken semaphore agree: when they
    did not (streams counted apart), the loop was woken at once, again and again, and spun a
    core at the cap (a hostile client's finding)."""
    pool = Connections(2)
    with pair() as (first, _r1, _x1), pair() as (second, _r2, _x2):
        for outlet in (first, second):
            pool.spawn(pool.pass_on, outlet).join()
            gevent.sleep(0)  # the pool learns that the greenlet ended
        assert pool.streams == 2 and pool.full() and pool._semaphore.locked()
        pool.give_back(first)
        assert pool.free_count() == 1 and not pool.full() and not pool._semaphore.locked()
        pool.give_back(first)  # given back once only
        assert pool.free_count() == 1 and pool._semaphore.counter == 1


def test_a_stream_that_ended_before_its_greenlet_gives_the_place_back_with_it() -> None:
    pool = Connections(1)
    with pair() as (outlet, _reader, _released):
        greenlet = pool.spawn(lambda: (pool.pass_on(outlet), outlet.close()))
        greenlet.join()
        gevent.sleep(0)
        assert pool.streams == 0 and pool.free_count() == 1 and not pool._semaphore.locked()
