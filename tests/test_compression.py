"""Responses are compressed for browsers that accept it, except the SSE stream, which must reach
the phones event by event (a compressor would hold events back)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

GZIP = {"Accept-Encoding": "gzip"}
HX = {"HX-Request": "true"}


def new_table(client: FlaskClient) -> str:
    home = client.get("/").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', home)
    assert csrf
    created = client.post("/tables", data={"csrf": csrf.group(1), "players": "Ann\nBob\nCy"})
    assert created.status_code == 303
    return str(created.headers["Location"])


def test_pages_and_static_files_are_gzipped_when_accepted(app: Flask) -> None:
    client = app.test_client()
    url = new_table(client)
    page = client.get(url, headers=GZIP)
    assert page.headers["Content-Encoding"] == "gzip"
    assert b"data-version" in gzip.decompress(page.data)
    script = client.get("/static/vendor/htmx.min.js", headers=GZIP)
    assert script.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(script.data) == (Path(app.static_folder or "") /
                                            "vendor/htmx.min.js").read_bytes()
    script.close()
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers
    assert b"data-version" in plain.data


def test_the_event_stream_is_never_compressed(app: Flask) -> None:
    client = app.test_client()
    url = new_table(client)
    for offer in ("gzip", "gzip, deflate, br, zstd"):
        response = client.get(url + "/events", headers={"Accept-Encoding": offer},
                              buffered=False)
        try:
            assert response.status_code == 200
            assert response.mimetype == "text/event-stream"
            assert "Content-Encoding" not in response.headers
            assert next(iter(response.response)) == b": open\n\n"  # the first chunk, as is
        finally:
            response.close()


def test_screens_are_gzipped_quickly_and_static_files_tightly(app: Flask) -> None:
    """A screen htmx asks for (a tap's answer, a fetch) is gzipped at level 1 (half of level
    6's CPU for ~10% more bytes on a LAN); pages and static files, the first load's weight,
    keep level 6; a browser that prefers zstd or br gets Flask-Compress's choice."""
    client = app.test_client()
    url = new_table(client)
    page, plain_page = client.get(url, headers=GZIP).data, client.get(url).data
    assert len(page) == len(gzip.compress(plain_page, 6))
    for path, headers in ((url, HX), (url + "/view", HX)):
        plain = client.get(path, headers=headers).data
        packed = client.get(path, headers={**headers, **GZIP})
        assert packed.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert gzip.decompress(packed.data) == plain
        assert len(packed.data) == len(gzip.compress(plain, 1))
        assert int(packed.headers["Content-Length"]) == len(packed.data)
        modern = client.get(path, headers={**headers,
                                           "Accept-Encoding": "gzip, deflate, br, zstd"})
        assert modern.headers["Content-Encoding"] in ("zstd", "br")
        preferred = client.get(path, headers={**headers,
                                              "Accept-Encoding": "br;q=0.5, gzip;q=1"})
        assert preferred.headers["Content-Encoding"] == "gzip"
    raw = (Path(app.static_folder or "") / "app.css").read_bytes()
    served = client.get("/static/app.css")
    plain_css = served.data
    served.close()
    css = client.get("/static/app.css", headers=GZIP)
    assert css.headers["Content-Encoding"] == "gzip" and len(raw) >= len(plain_css)
    assert len(css.data) == len(gzip.compress(plain_css, 6))
    css.close()


def test_a_refusal_and_a_small_answer_are_left_to_flask_compress(app: Flask) -> None:
    client = app.test_client()
    assert "Content-Encoding" not in client.get("/healthz", headers=GZIP).headers
    missing = client.get("/t/no-such-table", headers=GZIP)
    assert missing.status_code == 404 and "Content-Encoding" not in missing.headers


def test_each_accept_encoding_gets_its_own_choice_when_headers_take_turns(app: Flask) -> None:
    """Which encoding a header asks for first is remembered per header (factory._gzip_first):
    browsers asking differently, one after the other, each get their own."""
    client = app.test_client()
    url = new_table(client)
    offers = [("gzip", "gzip"), ("gzip;q=0, br", "br"), ("identity", None),
              ("br;q=0.5, gzip;q=1", "gzip"), ("gzip;q=0, br", "br"), ("gzip", "gzip")]
    for offer, chosen in offers * 2:
        answer = client.get(url + "/view", headers={**HX, "Accept-Encoding": offer})
        assert answer.headers.get("Content-Encoding") == chosen, offer
