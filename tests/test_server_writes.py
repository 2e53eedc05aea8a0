"""How the server writes an answer (app.wsgi.LimitedHandler): the head and the body's first
piece in one send, the head not held once sent. The bytes are gevent's own, framed the same."""

from __future__ import annotations

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
