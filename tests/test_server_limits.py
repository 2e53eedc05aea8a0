"""Slow and greedy clients (issue 11, item 6).

A small WSGI app served by app.wsgi.serve in a subprocess (serve monkey-patches gevent), with
short limits so the tests run in a moment. Each pass or fail is decided by what the server
answers, never by a clock: the socket timeouts below only keep a broken server from hanging
the test.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from app import server

ROOT = Path(__file__).resolve().parents[1]
BOUND_S = 30.0  # how long a test waits for an answer before it calls the server broken

SERVER_SCRIPT = """
from gevent import monkey
monkey.patch_all()
import json, sys
from app.live import Broker
from app.server import Limits
from app.wsgi import serve

limits = Limits(**json.loads(sys.argv[1]))
broker = Broker(keepalive=0.1)
calls = {"app": 0}

def app(environ, start_response):
    path = environ["PATH_INFO"]
    if path == "/calls":
        body = str(calls["app"]).encode()
    else:
        calls["app"] += 1
        if path == "/events":
            start_response("200 OK", [("Content-Type", "text/event-stream")])
            return broker.stream("t", 0)
        body = environ["wsgi.input"].read() if path == "/echo" else b"pong"
    start_response("200 OK", [("Content-Type", "text/plain"),
                              ("Content-Length", str(len(body)))])
    return [body]

serve(app, "127.0.0.1", 0, lambda port: print(port, flush=True), limits)
"""


@contextmanager
def limited_server(script: str = SERVER_SCRIPT, **limits: object) -> Iterator[int]:
    """The small app above (or ``script``) served with ``limits``; its port."""
    process = subprocess.Popen([sys.executable, "-c", script, json.dumps(limits)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.strip().isdigit(), process.stderr.read() if process.stderr else line
        yield int(line)
    finally:
        process.terminate()
        _, err = process.communicate(timeout=BOUND_S)
    assert "Traceback" not in err, err


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=BOUND_S)
    return sock


def answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def get(sock: socket.socket, path: str) -> bytes:
    """One keep-alive request; the response's head and body (the server sends a length)."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def calls(port: int) -> int:
    with connect(port) as sock:
        return int(get(sock, "/calls").rpartition(b"\r\n\r\n")[2])


def test_a_half_sent_request_is_answered_408_and_closed() -> None:
    with limited_server(headers_s=0.3) as port, connect(port) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # and never the rest
        assert answer(sock).startswith(b"HTTP/1.1 408 ")
        assert calls(port) == 0


def test_an_idle_connection_is_closed() -> None:
    with limited_server(idle_s=0.3) as port, connect(port) as sock:
        assert get(sock, "/ping").endswith(b"pong")
        assert answer(sock) == b""  # nothing more asked: the server closes it


def test_a_slow_body_is_answered_408_and_never_reaches_the_app() -> None:
    with limited_server(body_s=0.3) as port, connect(port) as sock:
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
        assert answer(sock).startswith(b"HTTP/1.1 408 ")
        assert calls(port) == 0


def test_a_body_is_read_whole_before_the_app_runs() -> None:
    body = b"x" * 50_000
    chunked = b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
    with limited_server() as port:
        with connect(port) as sock:
            sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 50000\r\n"
                         b"Connection: close\r\n\r\n" + body)
            assert answer(sock).endswith(b"\r\n\r\n" + body)
        with connect(port) as sock:
            sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                         b"Connection: close\r\n\r\n" + chunked)
            assert answer(sock).endswith(b"\r\n\r\nhello world")


def test_a_head_and_a_body_longer_than_the_read_buffer_arrive_whole() -> None:
    """Each connection buffers only ``Limits.read_buffer`` bytes (it is held all evening): a
    longer head (a big cookie) and a longer body are read in pieces, on a kept-alive connection."""
    buffer = server.Limits().read_buffer
    cookie = "c" * (4 * buffer)
    body = bytes(range(256)) * (buffer // 64)
    with limited_server() as port, connect(port) as sock:
        for _ in range(2):
            sock.sendall(f"POST /echo HTTP/1.1\r\nHost: x\r\nCookie: k={cookie}\r\n"
                         f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            reply = b""
            while not reply.endswith(body):
                chunk = sock.recv(65536)
                assert chunk, reply[:200]
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 200 ")
        assert get(sock, "/ping").endswith(b"pong")


def test_a_body_over_the_servers_limit_is_refused_unread() -> None:
    with limited_server(max_body=1000) as port, connect(port) as sock:
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n")
        assert answer(sock).startswith(b"HTTP/1.1 413 ")
        assert calls(port) == 0


def test_connections_per_client_address_are_bounded() -> None:
    with limited_server(per_address=3, count_loopback=True) as port:
        held = [connect(port) for _ in range(3)]
        for sock in held:
            assert get(sock, "/ping").endswith(b"pong")  # served, and still open
        with connect(port) as fourth:
            assert answer(fourth).startswith(b"HTTP/1.1 503 ")
        held.pop().close()
        for _ in range(50):  # the server sees the close when it next reads that socket
            with connect(port) as again:
                reply = answer_or_get(again)
            if reply.endswith(b"pong"):
                break
        else:
            pytest.fail("a closed connection's place was never given back")
        for sock in held:
            sock.close()


def answer_or_get(sock: socket.socket) -> bytes:
    sock.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    try:
        return answer(sock)
    except ConnectionResetError:
        return b""


def test_the_laptop_itself_is_not_counted_by_default() -> None:
    """The tablet in the laptop's own browser, and the benchmarks, connect from loopback."""
    with limited_server(per_address=3) as port:
        held = [connect(port) for _ in range(10)]
        try:
            for sock in held:
                assert get(sock, "/ping").endswith(b"pong")
        finally:
            for sock in held:
                sock.close()


def test_an_event_stream_outlives_every_timeout_on_its_heartbeat() -> None:
    """An open stream sends no request, so none of the request timeouts may end it; the
    broker's keepalive comments reach the client one by one, not held in a buffer."""
    with limited_server(idle_s=0.2, headers_s=0.2, body_s=0.2, stall_s=0.5) as port, \
            connect(port) as sock:
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        seen = b""
        while seen.count(b": keepalive") < 20:  # 20 x 0.1 s: well past every limit above
            chunk = sock.recv(65536)
            assert chunk, f"the stream was closed: {seen!r}"
            seen += chunk
        assert seen.startswith(b"HTTP/1.1 200 ")


def test_the_file_limit_is_raised_and_connections_kept_under_it() -> None:
    limit = server.raise_file_limit()
    if limit is not None:
        import resource

        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == limit
    assert server.connection_cap(1024) < 1024
    assert server.connection_cap(None) > 0


def test_the_apps_event_stream_keepalive_reaches_the_client_through_the_server(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real `serve` and the real stream: app/live.py's keepalive (every 15 s) arrives at
    the tablet as it is written, so a vanished phone's stream ends and no proxy or server
    timeout closes a quiet one."""
    import http.client
    from http.cookies import SimpleCookie

    from serverkit import ServerProcess

    from app.cli import main

    live = ServerProcess(tmp_path / "instance").start()
    try:
        assert main(["import", str(ROOT / "tests" / "records" / "01-worked-example.json"),
                     "--instance", str(live.instance)]) == 0
        table = capsys.readouterr().out.splitlines()[0].split(": ", 1)[1]
        path = table.removeprefix(live.url)
        conn = http.client.HTTPConnection(*live.host, timeout=BOUND_S)
        conn.request("GET", path)
        opened = conn.getresponse()
        opened.read()
        cookie = SimpleCookie()
        for header in opened.headers.get_all("Set-Cookie") or []:
            cookie.load(header)
        cookies = "; ".join(f"{k}={m.value}" for k, m in cookie.items())
        conn.request("GET", path.split("?")[0] + "/events", headers={"Cookie": cookies})
        stream = conn.getresponse()
        assert stream.status == 200
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        seen = b""
        while b": keepalive" not in seen:  # 15 s after the stream opened
            chunk = stream.read1(65536)
            assert chunk, f"the stream was closed: {seen!r}"
            seen += chunk
        conn.close()
    finally:
        live.stop()
    assert not live.errors(), live.errors()


def test_a_request_formats_no_access_log_line() -> None:
    """The server keeps no access log: gevent's handler would format a line for each request
    (the date in it) and drop it. A formatter that fails would show in the server's stderr."""
    script = SERVER_SCRIPT.replace(
        "from app.wsgi import serve",
        "from app.wsgi import LimitedHandler, serve\n"
        "LimitedHandler.format_request = lambda self: 1 / 0")
    with limited_server(script) as port:
        with connect(port) as sock:  # two requests on one connection
            sock.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n"
                         b"GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert answer(sock).count(b"pong") == 2
        with connect(port) as sock:  # an error's answer logs its line too
            sock.sendall(b"NONSENSE\r\n\r\n")
            assert answer(sock).startswith(b"HTTP/1.1 400")
