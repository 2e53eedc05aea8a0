"""A required field left empty says so in the page's language: Chromium's own "Please select
an item in the list." showed in English on a Russian phone's draw form. Each required field
carries the page's words (``data-invalid``), which app.js gives the browser."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
FIELD = re.compile(r"<(?:input|select|textarea)\b[^>]*>")


def test_every_required_field_carries_its_own_words():
    bare = [(path.name, tag) for path in sorted(TEMPLATES.rglob("*.html"))
            for tag in FIELD.findall(path.read_text(encoding="utf-8"))
            if re.search(r"\brequired\b", tag) and 'data-invalid="{{ _(' not in tag]
    assert not bare, bare


def test_a_russian_phone_s_hand_says_what_is_missing_in_russian(make_table):
    table = make_table("ru")
    page = table.phone_page("Ann")
    said = re.findall(r'<input type="radio" name="card1"[^>]*data-invalid="([^"]*)"', page)
    assert said and set(said) == {"Выберите две карты, которые вам сдали."}, said
