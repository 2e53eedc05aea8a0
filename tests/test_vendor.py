"""The vendored front-end files are exactly the released ones (static/vendor/README.md)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

VENDOR = Path(__file__).resolve().parents[1] / "static" / "vendor"


@pytest.mark.parametrize(
    ("name", "sha256"),
    [
        ("htmx.min.js", "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"),
        ("sse.min.js", "98a46496de0c3605fbffdce9167ba427bdd9553184f83f149c261891a92c0136"),
    ],
)
def test_vendored_file_matches_its_release(name: str, sha256: str) -> None:
    assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == sha256
    assert sha256 in (VENDOR / "README.md").read_text(encoding="utf-8")
