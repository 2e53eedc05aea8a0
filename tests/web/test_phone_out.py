"""A phone's list of the other players says a player is out, as the tablet does: «вне игры»
where the coins stood, not «Боря 0 монет · Полицейский Княжна»."""

from __future__ import annotations

import re

from flask import Flask
from tablekit import started_table


def others(page: str) -> str:
    found = re.search(r'<ol class="others">(.*?)</ol>', page, re.S)
    assert found
    return found.group(1)


def test_an_out_player_is_out_on_the_other_phones(app: Flask):
    t = started_table(app, {"Аня": ["duke", "captain"], "Боря": ["contessa", "assassin"],
                            "Вера": ["ambassador", "captain"]}, language="ru")
    t.step(do="tax", by="Аня")
    t.step(do="challenge", by="Боря")
    assert t.phone_step("Аня", do="prove").status_code == 200
    assert t.phone_step("Аня", do="draw", cards="contessa").status_code == 200
    assert t.phone_step("Боря", do="lose", card="assassin").status_code == 200
    assert 'class="out"' not in others(t.phone_page("Вера"))
    t.step(do="tax", by="Боря")
    t.step(do="challenge", by="Вера")
    assert t.phone_step("Боря", do="concede").status_code == 200
    assert not t.live().game.over  # Боря's last card went face up by itself: he is out
    for phone in ("Вера", "Аня"):
        rows = others(t.phone_page(phone))
        bob = re.search(r'<li class="out">(.*?)</li>', rows, re.S)
        assert bob and "Боря" in bob.group(1), rows
        assert '<span class="status">вне игры</span>' in bob.group(1)
        assert "монет" not in bob.group(1)
