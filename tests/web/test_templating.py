"""The app's Jinja environment (:mod:`app.web.templating`) gives each template its globals as
one plain dict (the same names as Jinja's layered globals, a template's own on top, the
environment's left alone) and reads a dict's item by dot at once, with Jinja's answers."""

from __future__ import annotations

from pathlib import Path

import jinja2
from tablekit import make_app

from app.web.templating import ScreensEnvironment


def test_templates_see_every_global_as_a_plain_dict(tmp_path: Path):
    app = make_app(tmp_path)
    assert isinstance(app.jinja_env, ScreensEnvironment)
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


def test_a_dicts_items_by_dot_are_what_jinja_gives(tmp_path: Path):
    """``p.coins`` on a dict is its item; a dict's own methods and a missing key go Jinja's
    way (the method; undefined), as on a plain Jinja environment."""
    env = make_app(tmp_path).jinja_env
    plain = jinja2.Environment(autoescape=True)
    source = ("{{ p.coins }}|{{ p.items() | list }}|{{ p.missing is defined }}|"
              "{{ p.get('coins') }}|{{ q.count }}|{{ none_.x is defined }}")
    values = {"p": {"coins": 3, "name": "<b>"}, "q": {"count": 2, "items": "x"},
              "none_": None}
    assert env.from_string(source).render(values) == plain.from_string(source).render(values)
    assert env.from_string("{{ q.items }}").render(values) == \
        plain.from_string("{{ q.items }}").render(values)  # the method, as Jinja gives it
    assert env.from_string("{{ p.name }}").render(values) == "&lt;b&gt;"


@jinja2.pass_context
def seen(context: jinja2.runtime.Context, name: str, **values: object) -> str:
    """What a context-wanting function sees: a name's value in the caller's scope."""
    return f"{context.get(name)}{sorted(values)}"


@jinja2.pass_environment
def autoescaping(environment: jinja2.Environment) -> bool:
    return bool(environment.autoescape)


class Shout:
    @jinja2.pass_context
    def __call__(self, context: jinja2.runtime.Context, text: str) -> str:
        return f"{text.upper()}@{context.get('who')}"


def stops() -> str:
    raise StopIteration


def test_calls_from_a_template_get_what_jinjas_give(tmp_path: Path):
    """A call goes straight to a plain function, and each kind of callable gets what Jinja
    gives it: the context with the variables set in a loop or a block, the environment, a
    callable object's own context, a macro's output, undefined for a StopIteration."""
    env = make_app(tmp_path).jinja_env
    plain = jinja2.Environment(autoescape=True)
    source = ("{% macro m(x) %}<{{ x }}>{% endmacro %}"
              "{{ seen('who', a=1) }}|{{ len('abc') }}|{{ m('<i>') }}|{{ shout('hi') }}|"
              "{{ autoescaping() }}|{{ stops() is defined }}|{{ '-'.join(['a', 'b']) }}|"
              "{% for i in range(2) %}{% set who = 'in' ~ i %}{{ seen('who') }}{{ len('ab') }}"
              "{{ seen('i') }}{% endfor %}|{% set who = 'set' %}{{ seen('who') }}")
    values = {"seen": seen, "len": len, "shout": Shout(), "autoescaping": autoescaping,
              "stops": stops, "who": "Ann"}
    ours = env.from_string(source).render(values)
    assert ours == plain.from_string(source).render(values)
    assert ours == ("Ann[&#39;a&#39;]|3|<&lt;i&gt;>|HI@Ann|True|False|a-b|"
                    "in0[]2None[]in1[]2None[]|set[]")  # a loop's own variable is not shared


# -- a screen's part drawn without render_template's per-draw work (templating.draw) ---------


def test_the_request_names_render_template_adds_are_globals_already(tmp_path: Path):
    """``render_template`` puts ``g``, ``request`` and ``session`` in each context; Flask's
    environment has them as globals too, so what :func:`draw` leaves out a template still
    sees."""
    globals_ = make_app(tmp_path).jinja_env.globals
    assert {"g", "request", "session"} <= set(globals_)


def test_draw_is_render_template_and_sends_its_signals_to_listeners(tmp_path: Path):
    from flask import g, render_template, template_rendered

    from app.web.templating import draw

    app = make_app(tmp_path)
    source = "{{ who }}: {{ _('Rulings') }} {{ request.path }} {{ g.language }}"
    app.jinja_env.loader = jinja2.DictLoader({"t.html": source})
    app.jinja_env.cache = {}
    heard: list[str] = []

    def note(_app: object, template: jinja2.Template, context: dict[str, object]) -> None:
        heard.append(template.name or "")

    with app.test_request_context("/here"):
        g.language = "uk"
        assert draw("t.html", who="Ann<") == render_template("t.html", who="Ann<")
        assert draw("t.html", who="Ann<") == "Ann&lt;: Рішення /here uk"
        assert not heard
        template_rendered.connect(note, app)
        try:
            draw("t.html", who="Bob")
        finally:
            template_rendered.disconnect(note, app)
    assert heard == ["t.html"]
