"""How the server writes an answer (app.wsgi.LimitedHandler): the head and the body's first
piece in one send, the head not held once sent. The bytes are gevent's own, framed the same."""

from __future__ import annotations

import pytest

from app.wsgi import ONE_SEND, LimitedHandler


def handler(result: object, headers: list[tuple[bytes, bytes]]) -> tuple[LimitedHandler,
                                                                         list[bytes]]:
    """A handler whose app answered 200 with ``headers`` and will give ``result``; what it
    sends is collected, one item per send."""
    sends: list[bytes] = []
    made = LimitedHandler.__new__(LimitedHandler)
    made.__dict__.update(status=b"200 OK", code=200, response_headers=headers, result=result,
                         provided_date=b"Thu, 26 Nov 2026 19:00:00 GMT",
                         provided_content_length=None, request_version="HTTP/1.1",
                         headers_sent=False, response_use_chunked=False, response_length=0,
                         _sendall=sends.append)
    return made, sends


def test_a_streams_head_and_opening_go_out_in_one_send_and_the_head_is_let_go() -> None:
    stream, sends = handler(iter(()), [(b"Content-Type", b"text/event-stream")])
    stream.write(b": open\n\n")
    stream.write(b"event: changed\ndata: 4\n\n")
    assert sends == [b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n8\r\n: open\n\n\r\n",
                     b"18\r\nevent: changed\ndata: 4\n\n\r\n"]
    assert stream.response_headers == []  # a parked stream holds no head


def test_a_sized_answer_is_one_send_with_its_body_as_it_is() -> None:
    page, sends = handler([b"pong"], [(b"Content-Length", b"4")])
    page.provided_content_length = b"4"
    page.write(b"pong")
    assert sends == [b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\npong"]


def test_an_empty_body_sends_the_head_alone_and_a_large_first_piece_goes_apart() -> None:
    empty, sends = handler([], [(b"Content-Length", b"0")])
    empty.provided_content_length = b"0"
    empty.write(b"")
    assert sends == [b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"]
    big = b"x" * (ONE_SEND + 1)
    large, sends = handler(iter(()), [])
    large.write(big)
    assert sends == [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                     b"%x\r\n" % len(big) + big + b"\r\n"]


class Socket:
    """A socket whose ``send`` takes at most ``room`` bytes, recording each call."""

    def __init__(self, room: int, error: OSError | None = None) -> None:
        self.room = room
        self.error = error
        self.calls: list[tuple[str, bytes]] = []

    def send(self, data: bytes) -> int:
        if self.error is not None:
            raise self.error
        self.calls.append(("send", bytes(data[:self.room])))
        return min(len(data), self.room)

    def sendall(self, data: memoryview) -> None:
        self.calls.append(("sendall", bytes(data)))


def writer(sock: Socket) -> LimitedHandler:
    made = LimitedHandler.__new__(LimitedHandler)
    made.__dict__.update(socket=sock, response_length=0, status=b"200 OK", code=200)
    return made


def test_a_piece_goes_in_one_send_and_what_the_socket_did_not_take_by_sendall() -> None:
    whole = writer(Socket(room=100))
    whole._sendall(b"x" * 60)
    assert whole.socket.calls == [("send", b"x" * 60)] and whole.response_length == 60
    part = writer(Socket(room=100))
    part._sendall(bytearray(b"a" * 100 + b"b" * 50))
    assert part.socket.calls == [("send", b"a" * 100), ("sendall", b"b" * 50)]
    assert part.response_length == 150


def test_a_failed_send_is_raised_and_noted_as_gevent_notes_it() -> None:
    broken = writer(Socket(room=100, error=BrokenPipeError(32, "Broken pipe")))
    with pytest.raises(BrokenPipeError):
        broken._sendall(b"event")
    assert broken.code == -200 and "socket error" in broken.status
    assert broken.response_length == 0
