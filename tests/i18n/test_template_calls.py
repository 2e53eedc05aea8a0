"""The templates' ``_()``, ``gettext()`` and ``ngettext()`` do what Jinja's i18n extension
does with ``newstyle`` (they replace its wrappers, which cost a screen several calls each): the
screen's voice translates, each value is escaped into the sentence, ``%%`` is a percent sign,
and ``ngettext`` fills ``%(num)s`` and picks the form by the number."""

from __future__ import annotations

from pathlib import Path

from flask import g
from tablekit import make_app

from app.i18n import Voice


def render(tmp_path: Path, source: str, **context: object) -> str:
    app = make_app(tmp_path)
    with app.test_request_context("/"):
        g.language = "en"
        return app.jinja_env.from_string(source).render(**context)


def test_values_are_escaped_into_the_sentence(tmp_path: Path):
    html = render(tmp_path, "{{ _('%(name)s wins.', name=who) }} {{ gettext('100%%') }}",
                  who="<b>Ann</b>")
    assert html == "&lt;b&gt;Ann&lt;/b&gt; wins. 100%"


def test_ngettext_fills_the_number_and_picks_the_form(tmp_path: Path):
    source = "{{ ngettext('%(num)s coin', '%(num)s coins', n) }}"
    assert render(tmp_path, source, n=1) == "1 coin"
    assert render(tmp_path, source, n=3) == "3 coins"


def test_the_screens_voice_translates(tmp_path: Path):
    source = "{{ _('Rules') }} · {{ ngettext('%(num)s coin', '%(num)s coins', 2) }}"
    assert render(tmp_path, source, voice=Voice("ru")) == "Правила · 2 монеты"
