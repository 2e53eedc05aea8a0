"""The app's Jinja environment gives each template its globals as one plain dict
(:mod:`app.web.templating`): the same names as Jinja's layered globals, a template's own on
top, the environment's left alone."""

from __future__ import annotations

from pathlib import Path

from tablekit import make_app

from app.web.templating import FlatGlobalsEnvironment


def test_templates_see_every_global_as_a_plain_dict(tmp_path: Path):
    app = make_app(tmp_path)
    assert isinstance(app.jinja_env, FlatGlobalsEnvironment)
    template = app.jinja_env.get_template("_macros.html")
    assert type(template.globals) is dict
    assert template.globals == dict(app.jinja_env.globals)
    for name in ("_", "ngettext", "url_for", "log_html", "get_locale"):
        assert name in template.globals


def test_a_templates_own_globals_overlay_the_environments_and_stay_its_own(tmp_path: Path):
    env = make_app(tmp_path).jinja_env
    before = dict(env.globals)
    own = env.from_string("{{ who }} {{ range(2) | list }}", globals={"who": "Ann"})
    assert own.render() == "Ann [0, 1]"
    assert env.globals == before
    assert env.from_string("{{ who }}|").render() == "|"
