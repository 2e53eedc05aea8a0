"""Whether a form came from our own pages (security.same_origin) is decided as before it
remembered its own origin per scheme and Host (security.own_origin): for every Host a laptop
is reached by (an address, a port, IPv6, a local name, an international one) and every
Origin and Sec-Fetch-Site a browser or another page may send, taking turns."""

from __future__ import annotations

import itertools

from flask import Flask, request

from app.web.security import same_origin

HOSTS = ["localhost:5000", "192.168.1.5:8000", "192.168.1.5", "[::1]:5000", "laptop.local",
         "xn--bcher-kva.local:5000", "LAPTOP.lan:80"]
SITES = [None, "same-origin", "none", "same-site", "cross-site"]


def stock_same_origin() -> bool:
    """same_origin as it was: the headers by name, the origin from ``request.host_url``."""
    site = request.headers.get("Sec-Fetch-Site")
    if site not in (None, "same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    return origin is None or origin == request.host_url.rstrip("/")


def origins(scheme: str, host: str) -> list[str | None]:
    return [None, f"{scheme}://{host}", f"{scheme}://{host.lower()}", f"{scheme}://{host}/",
            f"{'https' if scheme == 'http' else 'http'}://{host}", "null",
            "http://evil.example", f"{scheme}://{host}:1", "http://bücher.local:5000"]


def test_the_same_answer_as_request_host_url_gave(app: Flask) -> None:
    decided = set()
    for _round, scheme, host in itertools.product(range(2), ("http", "https"), HOSTS):
        for origin, site in itertools.product(origins(scheme, host), SITES):
            headers = {"Host": host, **({"Origin": origin} if origin else {}),
                       **({"Sec-Fetch-Site": site} if site else {})}
            with app.test_request_context("/t/abc/step", method="POST", headers=headers,
                                          base_url=f"{scheme}://{host}"):
                answer = same_origin()
                assert answer == stock_same_origin(), (scheme, host, origin, site)
                decided.add(answer)
    assert decided == {True, False}
