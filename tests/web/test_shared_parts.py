"""What is drawn once and shared: the parts every phone shares, per version and language
(app/web/phoneparts.py), the templates' links (app/web/links.py), a log's lines
(app/web/loglines.py) and each seat's language form."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, g, request, template_rendered, url_for
from jinja2 import Template
from tablekit import HTMX, Table, csrf_of, version_of, view

from app.engine import Ruling
from app.i18n import Voice
from app.web import loglines, phone, phoneparts
from app.web.links import LINKS, Links, link_for
from app.web.loglines import RULES_SLOT, log_html
from app.web.phoneframe import frame
from app.web.phoneparts import PhoneParts
from app.web.state import TableState
from app.web.views import LogLine

# -- the parts every phone shares, drawn once per version and language (app/web/phoneparts.py) --


@contextmanager
def drawn_templates(app: Flask) -> Iterator[Counter[str]]:
    """How many times each template is drawn while the block runs. A seat's screen put
    together in Python (app/web/phoneframe.py) counts as its template drawn, and the other
    players' rows and the rulings (app/web/phoneparts.py) as phone/_others.html and
    phone/_log.html, and a log's line (app/web/loglines.py) as _logline.html, the templates
    they were."""
    drawn: Counter[str] = Counter()
    whole, rows, rulings = phone._drawn, phoneparts._rows, phoneparts._rulings
    line_html = loglines.line_html

    def line_drawn(line: LogLine, voice: Voice) -> str:
        drawn["_logline.html"] += 1
        return line_html(line, voice)

    def rows_drawn(state: TableState) -> str:
        drawn["phone/_others.html"] += 1
        return rows(state)

    def rulings_drawn(state: TableState) -> str:
        drawn["phone/_log.html"] += 1
        return rulings(state)

    def note(_app: Flask, template: Template, context: dict[str, object]) -> None:
        drawn[template.name or ""] += 1

    def framed(view: dict[str, Any]) -> str:
        screen = frame(view)
        if screen is None:
            return whole(view)
        drawn["phone/_phone.html"] += 1
        return screen

    template_rendered.connect(note, app)
    phone._drawn = framed  # type: ignore[assignment]
    phoneparts._rows, phoneparts._rulings = rows_drawn, rulings_drawn
    loglines.line_html = line_drawn  # type: ignore[assignment]
    try:
        yield drawn
    finally:
        phone._drawn = whole  # type: ignore[assignment]
        phoneparts._rows, phoneparts._rulings = rows, rulings
        loglines.line_html = line_html  # type: ignore[assignment]
        template_rendered.disconnect(note, app)


def test_the_other_players_and_rulings_are_drawn_once_for_every_phone(started: Table):
    assert started.step(by="Ann", do="steal", target="Bob").status_code == 200
    with drawn_templates(started.app) as drawn:
        screens = {n: view(started.phone(n), started.link(n)) for n in ("Ann", "Bob", "Cy")}
    assert drawn["phone/_phone.html"] == 3  # each seat's own screen...
    assert drawn["phone/_others.html"] == drawn["phone/_log.html"] == 1  # ...shares these
    for name, html in screens.items():
        others = re.search(r'<ol class="others">(.*?)</ol>', html, re.S)
        assert others, name
        rows = re.findall(r"<b>(\w+)</b>", others.group(1))
        assert rows == [n for n in ("Ann", "Bob", "Cy") if n != name]  # all but its own
        assert "Ann claims the Captain" in html
    # Another language draws its own parts, once (the answer to Cy's choice draws them).
    with drawn_templates(started.app) as drawn:
        assert started.phone_post("Cy", "/language", {"language": "ru"}).status_code == 200
        ann, cy, bob = (view(started.phone(n), started.link(n)) for n in ("Ann", "Cy", "Bob"))
    assert drawn["phone/_others.html"] == drawn["phone/_log.html"] == 2
    assert "монет" in cy and "монет" not in ann + bob and "coins" in ann


def test_the_shared_parts_hold_no_seat_and_take_each_seats_own_rules_link(started: Table):
    assert started.step(by="Ann", do="income").status_code == 200
    view(started.phone("Ann"), started.link("Ann"))
    parts = [html for screen, _version, html in started.app.extensions["fragments"].held(
        started.table_id) if screen[0] in ("phone rows", "phone rulings")]
    assert len(parts) == 2
    for html in parts:
        assert not any(token in html for token in started.tokens.values())
        assert "Duke" not in html and "Captain" not in html  # nobody's hand
    shared = PhoneParts((("Ann", "<li>Ann</li>"), ("Bob", "<li>Bob</li>")),
                        f'<li><a class="rule" href="{RULES_SLOT}#E-20">E-20</a></li>')
    assert shared.others("Ann") == "<li>Bob</li>" and shared.others("Zed").count("<li>") == 2
    assert shared.log('/s/tok"en/rules') == (
        '<li><a class="rule" href="/s/tok&#34;en/rules#E-20">E-20</a></li>')


# -- the templates' links, remembered (app/web/links.py) ------------------------------------


def test_a_remembered_link_is_the_one_url_for_builds_for_that_request(app: Flask):
    remember = Links()
    cases = [("/", "http://coup.test"), ("/", "http://other.test:8080"), ("/x", "https://a.test")]
    for _round in range(2):  # built, then remembered
        for root, base in cases:
            with app.test_request_context("/s/abc", base_url=base + root):
                for endpoint, values in (("phone.rules", {"token": "abc"}),
                                         ("phone.fragment", {"token": "abc", "since": 3}),
                                         ("tablet.page", {"table_id": "t1", "_external": True})):
                    assert remember(endpoint, **values) == url_for(endpoint, **values)
    with app.test_request_context("/s/abc"):
        request.url_rule = app.url_map._rules_by_endpoint["phone.page"][0]
        assert remember(".rules", token="abc") == url_for("phone.rules", token="abc")
    with app.test_request_context("/t/t1"):
        request.url_rule = app.url_map._rules_by_endpoint["tablet.page"][0]
        assert remember(".rules", table_id="t1") == url_for("tablet.rules", table_id="t1")
        assert remember("tablet.page", table_id="t1", x=["a", "b"]) == url_for(
            "tablet.page", table_id="t1", x=["a", "b"])  # not a key: built each time
    assert len(remember) <= LINKS


def test_link_for_is_the_templates_remembered_url_for(app: Flask):
    with app.test_request_context("/", base_url="http://coup.test"):
        built = link_for("phone.page", token="abc")
        assert built == url_for("phone.page", token="abc") == "/s/abc"
        assert link_for("phone.page", token="abc") is built  # remembered


def test_a_screens_refresh_asks_since_the_version_it_shows(started: Table):
    version = started.live().version
    tablet = started.tablet.get(f"{started.url}/view", headers=HTMX).text
    assert f'hx-get="{started.url}/view?since={version}"' in tablet
    name = started.names[0]
    phone = started.phone(name).get(f"{started.link(name)}/view", headers=HTMX).text
    assert f'hx-get="{started.link(name)}/view?since={version}"' in phone


# -- a log's lines, each drawn once (app/web/loglines.py) ------------------------------------

MACRO_LOOP = ('{% from "_macros.html" import log_line %}'
              '{% for line in log %}{{ log_line(line, ruling, rules_url) }}{% endfor %}')


def test_a_remembered_log_is_what_the_macro_draws_with_the_screens_own_rules_link(app: Flask):
    said = Ruling("%(name)s takes Income.", {"name": "Ann"})
    ruled = Ruling("%(name)s takes Income.", {"name": "<Bob>"}, rule="E-20")
    lines = [LogLine(3, ruled), LogLine(undone="Ann: Income"), LogLine(2, said),
             LogLine(1, said)]
    for language in ("en", "ru"):
        with app.test_request_context("/"):
            g.language = language
            voice = Voice(language)
            for rules_url in ("/t/abc/rules", '/s/a"b/rules'):
                macro = app.jinja_env.from_string(MACRO_LOOP).render(
                    log=lines, ruling=voice.ruling, rules_url=rules_url)
                for _again in range(2):  # drawn, then remembered
                    assert log_html(lines, voice, rules_url) == macro
            assert "E-20" in macro and "&lt;Bob&gt;" in macro and "\x1e" not in macro


def test_each_tap_draws_only_the_new_lines_of_the_log(started: Table):
    for step in ({"by": "Ann", "do": "income"}, {"by": "Bob", "do": "income"}):
        assert started.step(**step).status_code == 200
    view(started.tablet, started.url)
    with drawn_templates(started.app) as drawn:
        assert started.step(by="Cy", do="income").status_code == 200
        tablet = view(started.tablet, started.url)
        view(started.phone("Ann"), started.link("Ann"))
    assert drawn["_logline.html"] == 1  # Cy's Income; the two before it are remembered
    assert tablet.index('<span class="n">3.</span>') < tablet.index('<span class="n">2.</span>')
    with drawn_templates(started.app) as drawn:  # an undo replays: new rulings, drawn anew
        assert started.post("/undo", {}).status_code == 200
    assert drawn["_logline.html"] >= 1


FOOT = re.compile(r'<footer class="foot">.*?</footer>', re.S)


def test_a_seats_language_form_is_drawn_once_per_seat_and_language(started: Table):
    """The language form shows only the seat's link, its language and the device's form token:
    it is remembered per seat and language, and each screen still carries its own."""
    with drawn_templates(started.app) as drawn:
        ann = view(started.phone("Ann"), started.link("Ann"))
        assert started.step(by="Ann", do="income").status_code == 200
        again = view(started.phone("Ann"), started.link("Ann"))
        bob = view(started.phone("Bob"), started.link("Bob"))
    assert drawn["phone/_foot.html"] == 0  # remembered since each phone opened its page
    assert drawn["phone/_phone.html"] == 3
    assert version_of(again) != version_of(ann)
    foot, bobs = FOOT.search(ann), FOOT.search(bob)
    assert foot and bobs and FOOT.search(again).group(0) == foot.group(0)  # type: ignore[union-attr]
    assert f'action="{started.link("Ann")}/language"' in foot.group(0)
    assert f'value="{csrf_of(ann)}"' in foot.group(0) and csrf_of(ann) != csrf_of(bob)
    assert started.link("Ann") not in bobs.group(0) and f'value="{csrf_of(bob)}"' in bobs.group(0)
    assert '<option value="en" selected>' in foot.group(0)
    page = started.phone_page("Ann")  # the whole page takes the same form, with its token
    assert FOOT.search(page).group(0) == foot.group(0)  # type: ignore[union-attr]

    with drawn_templates(started.app) as drawn:
        answer = started.phone_post("Ann", "/language", {"language": "ja"})
        view(started.phone("Ann"), started.link("Ann"))
    assert answer.status_code == 200 and drawn["phone/_foot.html"] == 1  # once, in Japanese
    ja = FOOT.search(answer.get_data(as_text=True))
    assert ja and '<option value="ja" selected>' in ja.group(0)
    assert '<option value="en" selected>' not in ja.group(0) and "Change" not in ja.group(0)
    assert FOOT.search(view(started.phone("Bob"), started.link("Bob"))).group(0) == \
        bobs.group(0)  # type: ignore[union-attr]
