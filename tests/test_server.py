"""The banner shows a URL phones can open and a QR code of it, without network traffic; serving
sets start-up's objects aside from the garbage collector."""

from __future__ import annotations

import io
import ipaddress
import subprocess
import sys

from app import server


def test_lan_address_is_none_or_a_non_loopback_ipv4() -> None:
    address = server.lan_address()
    if address is not None:
        ip = ipaddress.IPv4Address(address)
        assert not ip.is_loopback and not ip.is_unspecified


def test_public_url_of_a_specific_host() -> None:
    assert server.public_url("192.168.1.20", 5000) == "http://192.168.1.20:5000/"
    assert server.public_url("127.0.0.1", 5000) is None  # phones can't open the laptop's loopback


def test_public_url_of_all_interfaces_uses_the_lan_address(monkeypatch) -> None:
    monkeypatch.setattr(server, "lan_address", lambda: "10.0.0.7")
    assert server.public_url("0.0.0.0", 5077) == "http://10.0.0.7:5077/"
    monkeypatch.setattr(server, "lan_address", lambda: None)
    assert server.public_url("0.0.0.0", 5077) is None


def test_banner_prints_the_url_and_a_qr_code() -> None:
    out = io.StringIO()
    server.print_banner("http://192.168.1.20:5000/", 5000, out=out)
    text = out.getvalue()
    assert "http://192.168.1.20:5000/" in text
    assert "http://127.0.0.1:5000/" in text
    assert text.count("\n") > 10 and "█" in text  # the code's rows


def test_banner_names_the_address_serve_is_bound_to_on_the_laptop() -> None:
    out = io.StringIO()
    server.print_banner(None, 5000, out=out, host="::1")
    assert "http://[::1]:5000/" in out.getvalue()
    assert "127.0.0.1" not in out.getvalue()
    assert server.local_url("0.0.0.0", 5000) == "http://127.0.0.1:5000/"
    assert server.local_url("::", 5000) == "http://[::1]:5000/"
    assert server.local_url("192.168.1.20", 80) == "http://192.168.1.20:80/"


def test_banner_without_a_lan_address_says_what_to_do() -> None:
    out = io.StringIO()
    server.print_banner(None, 5000, out=out)
    text = out.getvalue()
    assert "--public-url" in text
    assert "█" not in text


def test_no_delay_turns_nagle_off_on_a_tcp_socket() -> None:
    """Responses go out in two writes (headers, body); Nagle would hold the body for the
    client's delayed ACK."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        server.no_delay(sock)
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    left, right = socket.socketpair()  # not TCP: the option does not apply, nothing breaks
    with left, right:
        server.no_delay(left)


def test_serving_sets_start_up_aside_and_collects_garbage_less_often() -> None:
    """What start-up made leaves the collector's sight for good and collections come less often
    (a full one paused every tap in flight for ~200 ms at 100 tables): in a process of its own,
    so this one's collector is left as it was."""
    check = ("import gc; from app.server import COLLECT_EVERY, collect_less; "
             "before = gc.get_freeze_count(); collect_less(); "
             "assert gc.get_threshold() == COLLECT_EVERY, gc.get_threshold(); "
             "assert gc.get_freeze_count() > before; "
             "assert COLLECT_EVERY[0] > 700 and COLLECT_EVERY[2] > 10")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
