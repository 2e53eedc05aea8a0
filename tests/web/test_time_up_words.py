"""When the decision timer runs out, its words say what can be done now: the table still
waits for a step only its player can take (no rule lets the clock declare or choose for
them), so the referee reminds them; in a window open to all, the referee may let it stand.
"Time is up for Vera. The referee decides what happens." offered the referee nothing."""

from __future__ import annotations

import re

from flask import Flask
from nightwebkit import settings
from tablekit import started_table

HANDS = {"Вера": ["duke", "captain"], "Боря": ["contessa", "assassin"]}


def time_up(page: str) -> str:
    """The words the countdown shows once the time is up, as text."""
    found = re.search(r"<p class=\"up\" data-up hidden>(.*?)</p>", page, re.S)
    assert found, "no countdown"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_a_declaration_that_times_out_says_remind_them(app: Flask):
    t = started_table(app, HANDS)
    assert settings(t, timer="30") == 200
    said = time_up(t.page())
    assert said == "Time is up for Вера. Remind them: the game waits until they decide."
    assert time_up(t.phone_page("Вера")) == "Your time is up. The game waits until you decide."


def test_a_window_that_times_out_says_the_referee_may_let_it_stand(app: Flask):
    t = started_table(app, HANDS)
    assert settings(t, timer="30") == 200
    t.step(do="tax", by="Вера")
    assert time_up(t.page()) == ("Time is up for Боря. The referee may let it stand, "
                                 "or wait.")


def test_the_words_are_in_the_table_s_language(app: Flask):
    t = started_table(app, HANDS, language="ru")
    assert settings(t, timer="30") == 200
    assert time_up(t.page()) == "Время вышло: Вера. Напомните: игра ждёт решения."
