"""Game night's settings on the tablet (issue 14): bad values refused with a message by their
field in every language, the referee and a fresh form needed, one load, one write, one publish."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from flask import g
from tablekit import (
    HTMX,
    csrf_of,
    finished_game,
    snapshot,
    started_table,
    version_of,
)

from app.i18n import LANGUAGES
from app.web import evening, words
from app.web.refusals import NightProblem, Why

# -- the night's settings --------------------------------------------------------------------


@pytest.mark.parametrize("form", [{"target": "-1"}, {"target": "21"}, {"target": "two"},
                                  {"target": "0"}, {"target": " 0 "}, {"timer": "0"},
                                  {"target": "１"}, {"timer": "5"}, {"timer": "601"},
                                  {"timer": "1e3"}, {"timer": "-30"}, {"timer": "9" * 400}])
def test_bad_night_settings_are_refused_with_a_message(app, form):
    t = finished_game(app)
    before = snapshot(app)
    response = t.post("/night", form)
    assert response.status_code == 422
    assert 'role="alert"' in response.text
    assert snapshot(app) == before


@pytest.mark.parametrize(("field", "typed", "said"), [
    ("target", "0", "The target must be a number of wins from 1 to 20, or empty."),
    ("timer", "3", "The timer must be from 10 to 600 seconds, or empty (off)."),
])
def test_a_refused_setting_keeps_the_box_open_with_the_message_by_its_field(
        app, field, typed, said):
    """Issue 14.6: the settings stay open, what was typed is still there, and the message is
    right under the field it is about (not at the top of the screen)."""
    t = finished_game(app)
    response = t.post("/night", {field: typed})
    assert response.status_code == 422
    html = response.text
    assert re.search(r'<details class="night-tools"[^>]* open>', html)
    box = html[html.index('class="night-settings"'):html.index("</form>",
                                                             html.index('class="night-settings"'))]
    found = re.search(rf'<input name="{field}"[^>]*value="{typed}"[^>]*aria-invalid="true"'
                      rf'[^>]*>\s*</label>\s*<p class="field-problem" id="night-problem-{field}" '
                      rf'role="alert">([^<]+)</p>', box)
    assert found, box
    assert found.group(1) == said
    assert evening.settings(t.live()).target == 0 and evening.settings(t.live()).timer == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_night_problem_is_a_reason_the_web_words_in_each_language(app, language):
    """Issue 10: the service raises a typed reason with its values; the web layer words it,
    in the reader's language (the same message the screens above show in English)."""
    with pytest.raises(NightProblem) as caught:
        evening.settings_from_form({"target": "3", "timer": "5"})
    problem = caught.value
    assert (problem.why, problem.field, dict(problem.params)) == (
        Why.BAD_TIMER, "timer", {"min": 10, "max": 600})
    with app.test_request_context():
        g.language = language
        said = words.refusal(problem, None)
    assert "10" in said and "600" in said and "%(" not in said
    english = "The timer must be from 10 to 600 seconds, or empty (off)."
    assert (said == english) == (language == "en")


def test_night_settings_need_the_referee_and_a_fresh_form(app):
    t = finished_game(app)
    assert app.test_client().post(t.url + "/night", data={"timer": "30"}).status_code == 403
    html = t.page()
    stale = t.tablet.post(t.url + "/night", data={"csrf": "x", "version": version_of(html),
                                                  "timer": "30"}, headers=HTMX)
    assert stale.status_code == 400
    assert evening.settings(t.live()).timer == 0


def test_saving_the_night_settings_is_one_load_one_write_one_publish(app, monkeypatch):
    """Issue 10: one route, one service call, one write, one publish; a refused form loads the
    table once and writes nothing."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    html = t.page()
    tables = app.extensions["tables"]
    calls: Counter[str] = Counter()
    for owner, name in ((tables, "load"), (tables, "commit"), (tables.broker, "publish")):
        monkeypatch.setattr(owner, name, counted(calls, name, getattr(owner, name)))
    form = {"csrf": csrf_of(html), "version": version_of(html)}
    saved = t.tablet.post(t.url + "/night", data={**form, "timer": "30"}, headers=HTMX)
    assert saved.status_code == 200 and "data-countdown" in saved.text
    assert calls == {"load": 1, "commit": 1, "publish": 1}
    calls.clear()
    refused = t.tablet.post(t.url + "/night", data={**form, "timer": "5"}, headers=HTMX)
    assert refused.status_code == 422
    assert calls == {"load": 1}
    assert evening.settings(t.live()).timer == 30


def counted(calls: Counter[str], name: str, real):
    def call(*args, **kwargs):
        calls[name] += 1
        return real(*args, **kwargs)
    return call


def test_every_refused_setting_shows_its_message_by_its_field_at_once(app):
    """Issue 14 (outside check): a target of 0 and a timer of 5 sent together: both messages,
    each under its own field, each field marked and still holding what was typed."""
    t = finished_game(app)
    before = snapshot(app)
    response = t.post("/night", {"target": "0", "timer": "5", "stand": "1"})
    assert response.status_code == 422
    box = response.text[response.text.index('class="night-settings"'):]
    box = box[:box.index("</form>")]
    for field, typed, said in (
            ("target", "0", "The target must be a number of wins from 1 to 20, or empty."),
            ("timer", "5", "The timer must be from 10 to 600 seconds, or empty (off).")):
        found = re.search(rf'<input name="{field}"[^>]*value="{typed}"[^>]*aria-invalid="true"'
                          rf' aria-describedby="night-problem-{field}">\s*</label>\s*'
                          rf'<p class="field-problem" id="night-problem-{field}" '
                          rf'role="alert">([^<]+)</p>', box)
        assert found, (field, box)
        assert found.group(1) == said
    assert box.count('class="field-problem"') == 2
    assert snapshot(app) == before
    # one field wrong: one message, by that field; the other field keeps what was typed
    one = t.post("/night", {"target": "3", "timer": "abc"})
    box = one.text[one.text.index('class="night-settings"'):]
    box = box[:box.index("</form>")]
    assert box.count('class="field-problem"') == 1 and 'id="night-problem-timer"' in box
    assert re.search(r'<input name="target"[^>]*value="3"', box)
    with pytest.raises(NightProblem) as caught:
        evening.settings_from_form({"target": "21", "timer": "601"})
    assert [p.field for p in (caught.value, *caught.value.also)] == ["target", "timer"]
