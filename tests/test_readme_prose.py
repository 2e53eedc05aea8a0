"""The README writes apostrophes as the app does: typographic (’) in prose, straight (') only
inside code, where a shell or Python needs them."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
CODE = re.compile(r"`[^`]*`")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, the line without its code spans) for each line outside fenced code."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append((number, CODE.sub("", line)))
    return lines


def test_the_readme_prose_uses_typographic_apostrophes() -> None:
    straight = [(n, line) for n, line in prose_lines(README.read_text(encoding="utf-8"))
                if "'" in line]
    assert not straight, straight


def test_code_keeps_its_straight_quotes() -> None:
    lines = prose_lines("text’s\n```\nprint('a')\n```\nsee `f('x')` and it's")
    assert [line for _n, line in lines] == ["text’s", "see  and it's"]
