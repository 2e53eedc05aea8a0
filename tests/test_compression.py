"""Responses are compressed for browsers that accept it, except the SSE stream, which must reach
the phones event by event (a compressor would hold events back)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

GZIP = {"Accept-Encoding": "gzip"}


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
