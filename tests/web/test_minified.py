"""Our stylesheets and scripts are served without their comments (app/web/minified.py), cached
the way every static file is, and everything else in static/ is served as it lies."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from app.web.factory import STATIC
from app.web.minified import minify, minify_folder

OURS = ["app.css", "app.js", "night.css", "night.js", "tablet.css", "tablet.js"]


@pytest.mark.parametrize("name", OURS)
def test_our_files_are_served_without_their_notes(app: Flask, name: str):
    source = (STATIC / name).read_text(encoding="utf-8")
    assert "/*" in source or "//" in source  # the source keeps its notes
    served = app.test_client().get(f"/static/{name}")
    text = served.get_data(as_text=True)
    assert served.status_code == 200
    assert "/*" not in text
    assert len(text) < 0.8 * len(source)
    assert served.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")
    assert served.headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize("name", OURS)
def test_a_browser_with_the_file_gets_a_304_and_nothing_else(app: Flask, name: str):
    client = app.test_client()
    first = client.get(f"/static/{name}")
    again = client.get(f"/static/{name}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    stale = client.get(f"/static/{name}", headers={"If-None-Match": '"an-older-copy"'})
    assert stale.status_code == 200 and stale.data == first.data


def test_vendored_and_other_files_are_served_as_they_lie(app: Flask):
    client = app.test_client()
    for name in ("vendor/htmx.min.js", "vendor/sse.min.js", "favicon.svg"):
        served = client.get(f"/static/{name}")
        assert served.status_code == 200
        assert served.data == (STATIC / name).read_bytes(), name
        served.close()


def test_a_missing_or_outside_file_is_a_404(app: Flask):
    client = app.test_client()
    for path in ("/static/nothing.css", "/static/../app/web/factory.py",
                 "/static/vendor/../../pyproject.toml", "/static/%2e%2e/README.md"):
        assert client.get(path).status_code == 404, path


def test_the_copy_changes_when_the_file_does(tmp_path: Path):
    sheet = tmp_path / "a.css"
    sheet.write_text("/* a note */\nbody {\n  color: red;\n}\n", encoding="utf-8")
    first = minify(sheet)
    sheet.write_text("/* a note */\nbody {\n  color: blue;\n}\n", encoding="utf-8")
    second = minify(sheet)
    assert first is not None and second is not None
    assert first.body == b"body{color:red}" and second.body == b"body{color:blue}"
    assert first.etag != second.etag


def test_only_stylesheets_and_scripts_at_the_top_are_minified(tmp_path: Path):
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "lib.js").write_text("var a = 1; // note\n", encoding="utf-8")
    (tmp_path / "icon.svg").write_text("<svg/>", encoding="utf-8")
    (tmp_path / "page.js").write_text("var a = 1; // note\n", encoding="utf-8")
    assert set(minify_folder(tmp_path)) == {"page.js"}
    assert minify_folder(tmp_path)["page.js"].body == b"var a=1;"
