"""A screen sent as the bytes kept (Fragments.get_encoded: the referee's answers) is the same
screen Fragments.get gives, looked up by the same version and what the night shows: drawn
once per version, each device's form token filled in, a newer version never replaced by an
older one, and what the night shows now drawn again."""

from __future__ import annotations

from collections.abc import Callable

from app.web.fragments import CSRF_SLOT, Fragments


def test_the_bytes_kept_are_the_screen_get_gives() -> None:
    fragments, drawn = Fragments(), []

    def screen(text: str) -> Callable[[], str]:
        def draw() -> str:
            drawn.append(text)
            return f"<p>{text}’s turn</p><input value=\"{CSRF_SLOT}\">"
        return draw

    def both(version: int, text: str, now: object = None) -> tuple[bytes, str]:
        encoded = fragments.get_encoded("t", "tablet", version, screen(text), "tok1", now)
        return encoded, fragments.get("t", "tablet", version, screen(text), "tok2", now)

    encoded, html = both(1, "Ann")
    assert encoded == '<p>Ann’s turn</p><input value="tok1">'.encode()
    assert html == '<p>Ann’s turn</p><input value="tok2">' and drawn == ["Ann"]
    assert fragments.get_encoded("t", "tablet", 1, screen("x"), "tok3") == \
        '<p>Ann’s turn</p><input value="tok3">'.encode() and drawn == ["Ann"]
    encoded, html = both(2, "Bob")  # a new version: drawn again, once
    assert encoded.decode().replace("tok1", "tok2") == html and drawn == ["Ann", "Bob"]
    encoded, _ = both(1, "Old")  # a stale version: drawn, and not kept over the newer
    assert encoded == '<p>Old’s turn</p><input value="tok1">'.encode()
    assert fragments.get_encoded("t", "tablet", 2, screen("x"), "tok1").startswith(b"<p>Bob")
    encoded, html = both(2, "Cy", now=("countdown", 9))  # what the night shows changed
    assert encoded.startswith(b"<p>Cy") and html.startswith("<p>Cy")
    assert drawn == ["Ann", "Bob", "Old", "Old", "Cy"]
