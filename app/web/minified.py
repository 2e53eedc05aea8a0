"""Our own stylesheets and scripts go out without their comments and spaces.

``static/app.css``, ``app.js``, ``night.css`` and ``night.js`` keep the notes that explain them;
a phone needs none of those bytes. At start each is minified once (rcssmin, rjsmin: made for
this, conservative: they drop comments and spaces and rename nothing) and kept in memory; the
static route serves that copy with an ETag of its own, so a browser revalidates it as before
(``no-cache``, 304 when unchanged). Files in ``static/vendor/`` come minified already, and
anything that is neither CSS nor JavaScript is served from the folder as Flask does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import rcssmin  # type: ignore[import-untyped]
import rjsmin  # type: ignore[import-untyped]
from flask import Flask, Response, request
from werkzeug.wrappers import Response as AnyResponse

MINIFIERS: dict[str, tuple[Callable[[str], str], str]] = {
    ".css": (rcssmin.cssmin, "text/css"),
    ".js": (rjsmin.jsmin, "text/javascript"),
}


@dataclass(frozen=True)
class Minified:
    body: bytes
    mimetype: str
    etag: str


def minify(path: Path) -> Minified | None:
    """The file's minified copy, or None when it is not ours to minify."""
    kind = MINIFIERS.get(path.suffix)
    if kind is None or not path.is_file():
        return None
    shrink, mimetype = kind
    body = shrink(path.read_text(encoding="utf-8")).encode("utf-8")
    return Minified(body, mimetype, hashlib.sha256(body).hexdigest()[:32])


def minify_folder(folder: Path) -> dict[str, Minified]:
    """Each stylesheet and script at the folder's top level (not vendor/), by file name."""
    made = {path.name: minify(path) for path in sorted(folder.glob("*"))}
    return {name: copy for name, copy in made.items() if copy is not None}


def install(app: Flask) -> None:
    """The static route serves the minified copies; every other static file as before."""
    assert app.static_folder is not None
    copies = minify_folder(Path(app.static_folder))

    def static(filename: str) -> AnyResponse:
        copy = copies.get(filename)
        if copy is None:
            return app.send_static_file(filename)
        response = Response(copy.body, mimetype=copy.mimetype)
        response.set_etag(copy.etag)
        response.cache_control.no_cache = True
        return response.make_conditional(request)

    app.view_functions["static"] = static
