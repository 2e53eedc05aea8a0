"""What every page of ours must be, for tests in every folder: the headers every response
carries, no inline script (the Content-Security-Policy allows none), and a phone's gold panel.
"""

from __future__ import annotations

import re

from werkzeug.test import TestResponse

SCRIPT_WITHOUT_SRC = re.compile(r"<script\b(?![^>]*\ssrc\s*=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[a-zA-Z][^>]*?\s(on[a-z]+)\s*=", re.I | re.S)
JAVASCRIPT_URL = re.compile(r"""\s(?:href|src|action|formaction)\s*=\s*["']?\s*javascript:""",
                            re.I)


def alert(html: str) -> str:
    """A phone's gold panel (what this phone must do now), as HTML."""
    found = re.search(r'<section id="alert".*?</section>', html, re.S)
    assert found
    return found.group(0)


def inline_script_problems(html: str) -> list[str]:
    """What would need 'unsafe-inline': inline scripts, on*= handlers, javascript: URLs."""
    problems = [f"inline script: {m.group(0)}" for m in SCRIPT_WITHOUT_SRC.finditer(html)]
    problems += [f"inline handler {m.group(1)}=" for m in INLINE_HANDLER.finditer(html)]
    problems += ["a javascript: URL" for _ in JAVASCRIPT_URL.finditer(html)]
    return problems


def check_headers(response: TestResponse) -> None:
    """The headers every response of ours carries (static files aside)."""
    csp = response.headers.get("Content-Security-Policy", "")
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp, csp
    assert "frame-ancestors 'none'" in csp, csp
    assert response.headers.get("X-Frame-Options") == "DENY"
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Cache-Control") == "no-store"
    if response.mimetype == "text/html":
        problems = inline_script_problems(response.get_data(as_text=True))
        assert not problems, problems
