"""Every test file's name is its own: the tests are not packages, so pytest imports each file
by its bare name, and a second file of the same name anywhere under tests/ stops the whole run
at collection ("import file mismatch"). A run of one folder never meets the clash; CI's does."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_files_share_a_name() -> None:
    names = Counter(path.name for path in TESTS.rglob("test_*.py")
                    if "artifacts" not in path.parts)
    assert [name for name, count in names.items() if count > 1] == []
