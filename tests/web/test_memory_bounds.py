"""What the server holds for open tables stays bounded (issue 12): remembered fragments are kept
as UTF-8 within a byte budget, and a parked stream holds no screen as text; a stream closed by
the server leaves the broker at once."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace

from tablekit import Table, version_of

from app.live import Broker
from app.web.fragments import CSRF_SLOT, Fragments
from app.web.screens import event_stream
from app.wsgi import LimitedHandler


def drawn(text: str) -> Callable[[], str]:
    return lambda: text


def test_a_fragment_comes_back_as_drawn_whatever_its_script() -> None:
    fragments = Fragments()
    for screen, html in [("en", "<p>Ann’s turn · 2 coins</p>"), ("ru", "<p>Ход Анны</p>"),
                         ("ja", "<p>アンの番です</p>"), ("slot", f"<input value='{CSRF_SLOT}'>")]:
        assert fragments.part("t", screen, 3, drawn(html)) == html
        assert fragments.part("t", screen, 3, drawn("drawn again")) == html  # remembered
    assert fragments.get("t", "slot", 3, drawn("drawn again"), "tok") == "<input value='tok'>"
    assert ("en", (3, None), "<p>Ann’s turn · 2 coins</p>") in fragments.held("t")  # (version, now)


def test_fragments_beyond_the_byte_budget_let_the_oldest_go() -> None:
    fragments = Fragments(budget=100)
    fragments.part("t", "a", 1, drawn("a" * 40))
    fragments.part("t", "b", 1, drawn("б" * 20))  # 40 bytes as UTF-8
    assert fragments.size_in_bytes == 80 and len(fragments) == 2
    fragments.part("t", "a", 1, drawn("not drawn"))  # a hit: "a" is now the newest used
    fragments.part("t", "c", 1, drawn("c" * 40))
    assert fragments.size_in_bytes == 80
    assert {screen for screen, _v, _html in fragments.held("t")} == {"a", "c"}
    fragments.part("t", "a", 2, drawn("a" * 10))  # a newer version replaces the older
    assert fragments.size_in_bytes == 50
    assert fragments.part("t", "b", 1, drawn("b again")) == "b again"  # it was let go
    fragments.part("t", "huge", 1, drawn("x" * 101))  # alone beyond the budget: not kept
    assert fragments.size_in_bytes <= 100
    assert fragments.part("t", "huge", 1, drawn("again")) == "again"


def test_a_parked_stream_holds_no_screen_as_text() -> None:
    broker = Broker(keepalive=60)
    chunks = broker.stream("t1", 0, draw=lambda v: f"<p data-version=\"{v}\">’</p>")
    assert next(chunks) == b": open\n\n"
    broker.publish("t1", 1)
    assert next(chunks) == 'event: changed\ndata: <p data-version="1">’</p>\n\n'.encode()
    waiting = threading.Thread(target=lambda: next(chunks))  # as the server asks for more
    waiting.start()
    for _ in range(1000):  # until it is parked in its wait
        if broker._channels["t1"].changed._cond._waiters:  # type: ignore[attr-defined]
            break
        time.sleep(0.01)
    held = [*chunks._iterating.gi_frame.f_locals.values(),  # type: ignore[union-attr]
            *(getattr(chunks, name) for name in chunks.__slots__)]
    broker.publish("t1", 2)
    waiting.join()
    assert not [value for value in held if isinstance(value, (str, bytes))
                and "data-version" in str(value)]
    chunks.close()
    assert broker._channels == {}  # closing the stream leaves the broker


def test_closing_a_served_stream_leaves_the_broker(started: Table) -> None:
    broker = started.app.extensions["tables"].broker
    version = version_of(started.page())
    stream = started.phone("Ann").get(f"{started.link('Ann')}/events?since={version}",
                                      buffered=False)
    chunks = iter(stream.response)
    assert next(chunks).startswith(b":")
    assert started.table_id in broker._channels
    stream.close()
    assert started.table_id not in broker._channels


def test_the_server_lets_go_of_each_chunk_once_written() -> None:
    """gevent's write loop held the last chunk it wrote until the app's iterator gave the next
    one: for a parked stream, its last screen (LimitedHandler.process_result lets go of it)."""
    sent: list[bytes] = []
    counts: list[int] = []

    def result() -> Iterator[bytes]:
        chunk = b"event: changed\ndata: " + b"<p>screen</p>" * 400
        sent.append(chunk)
        yield chunk
        del chunk
        counts.append(sys.getrefcount(sent[0]))  # asked for more: who holds the last chunk?
        yield b": keepalive\n\n"

    handler = SimpleNamespace(result=result(), command="GET", written=[], status="200 OK",
                              headers_sent=True,
                              response_use_chunked=True, ended=[])
    handler.write = lambda data: handler.written.append(len(data))
    handler._sendall = handler.ended.append
    LimitedHandler.process_result(handler)
    assert counts == [2]  # the list above and getrefcount's own argument: nobody else
    assert handler.written == [len(sent[0]), 13] and handler.ended == [b"0\r\n\r\n"]


def test_a_served_stream_is_the_apps_own_iterable(started: Table) -> None:
    """No encoding loop of Werkzeug's between the stream and the server (it would hold the
    last chunk too): the response is passed through as it is."""
    with started.app.test_request_context(f"{started.link('Ann')}/events"):
        response = event_stream(started.table_id, 0)
        assert response.direct_passthrough
        response.close()
