"""The banner shows a URL phones can open and a QR code of it, without network traffic."""

from __future__ import annotations

import io
import ipaddress

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
