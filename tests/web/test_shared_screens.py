"""What one request gets from the caches is shared with every other request (greenlet) at the
same version: it can't be changed, and a screen drawn from it is never another screen's."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from flask import Flask, g, request, template_rendered, url_for
from flask.testing import FlaskClient
from jinja2 import Template
from tablekit import CSRF_FIELD, HTMX, Table, csrf_of, version_of

from app.engine import Ruling
from app.frozen import FrozenDict, FrozenList, freeze
from app.i18n import Voice
from app.live import Broker, LiveUpdates
from app.store import PlayerLog, TableLog
from app.web.fragments import CSRF_SLOT, Fragments
from app.web.links import LINKS, Links, link_for
from app.web.loglines import RULES_SLOT, log_html
from app.web.phoneparts import PhoneParts
from app.web.security import referee_cookie
from app.web.views import LogLine


def test_a_cached_state_cannot_be_changed_by_a_request(started: Table):
    state = started.live()
    setup = state.setup
    assert setup is not None
    with pytest.raises(TypeError):
        setup["players"].append("Mallory")  # type: ignore[index]
    with pytest.raises(TypeError):
        setup["hands"]["Ann"] = ["duke", "duke"]  # type: ignore[index]
    with pytest.raises(TypeError):
        state.table.setup["rules"] = {}  # type: ignore[index]
    started.step(by="Ann", do="income")
    _seq, step = started.live().steps[-1]
    with pytest.raises(TypeError):
        step["do"] = "tax"  # type: ignore[index]
    assert started.live().setup == setup and started.live().steps[-1][1]["do"] == "income"


def test_frozen_json_reads_compares_and_dumps_as_json_and_copies_into_plain_json():
    value = {"players": ["Ann", "Bob"], "rules": {"variant": "x"}, "n": 2}
    frozen = freeze(value)
    assert frozen == value and json.dumps(frozen) == json.dumps(value)
    assert isinstance(frozen["players"], FrozenList) and isinstance(frozen["rules"], FrozenDict)
    for change in (lambda: frozen.update(n=3), lambda: frozen.pop("n"),
                   lambda: frozen["players"].extend(["Cy"]), lambda: frozen.setdefault("m", 1),
                   lambda: frozen["players"].sort(), lambda: frozen.__delitem__("n")):
        with pytest.raises(TypeError):
            change()
    thawed = copy.deepcopy(frozen)
    thawed["players"].append("Cy")
    assert frozen["players"] == ["Ann", "Bob"] and type(thawed["rules"]) is dict
    assert {**frozen, "n": 3}["n"] == 3 and frozen["n"] == 2


def test_the_store_hands_out_frozen_json(app: Flask, started: Table):
    live = started.live()
    assert isinstance(live.table.setup, FrozenDict)
    assert all(isinstance(step, FrozenDict) for _seq, step in live.steps) or not live.steps


# -- rendered fragments, remembered per version (app/web/fragments.py) ------------------------

HAND = re.compile(r'<p id="hand"[^>]*>(.*?)</p>', re.S)


def view(client: FlaskClient, path: str) -> str:
    response = client.get(path + "/view", headers=HTMX)
    assert response.status_code == 200, response.status_code
    assert "\x1e" not in response.text  # the form token's slot is always filled in
    return response.text


def hand_of(html: str) -> str:
    match = HAND.search(html)
    assert match, "no hand on this screen"
    return match.group(1)


def test_a_new_version_is_never_served_the_old_fragment(started: Table):
    tablet, ann = view(started.tablet, started.url), view(started.phone("Ann"), started.link("Ann"))
    assert view(started.tablet, started.url) == tablet  # the same version: the same screen
    assert started.step(by="Ann", do="income").status_code == 200
    tablet2 = view(started.tablet, started.url)
    ann2 = view(started.phone("Ann"), started.link("Ann"))
    assert version_of(tablet2) == version_of(ann2) == str(int(version_of(tablet)) + 1)
    assert "1 coin" not in tablet2 or tablet2 != tablet
    assert version_of(ann) != version_of(ann2)
    assert started.post("/undo", {}).status_code == 200  # and back: a version never repeats
    assert int(version_of(view(started.tablet, started.url))) == int(version_of(tablet2)) + 1


def test_one_seats_fragment_is_never_served_to_another_seat(started: Table):
    ann = view(started.phone("Ann"), started.link("Ann"))
    bob = view(started.phone("Bob"), started.link("Bob"))
    assert version_of(ann) == version_of(bob)
    assert "Duke" in hand_of(ann) and "Captain" in hand_of(ann)
    assert "Contessa" in hand_of(bob) and "Assassin" in hand_of(bob)
    assert "Duke" not in hand_of(bob) and "Contessa" not in hand_of(ann)
    assert started.tokens["Ann"] not in bob and started.tokens["Bob"] not in ann
    # Bob's phone asking for Ann's screen is refused, remembered screen or not.
    assert started.phone("Bob").get(started.link("Ann") + "/view", headers=HTMX
                                    ).status_code == 403


def test_one_languages_fragment_is_never_served_in_another(started: Table):
    view(started.phone("Ann"), started.link("Ann"))
    bob_before = view(started.phone("Bob"), started.link("Bob"))
    ann = started.phone_post("Ann", "/language", {"language": "ru"})
    assert ann.status_code == 200 and 'lang="ru"' not in ann.text  # a fragment, in Russian:
    assert "Язык" in ann.text  # "Language", the footer's label
    bob = view(started.phone("Bob"), started.link("Bob"))
    assert "Язык" not in bob and "Language" in bob and bob != bob_before  # a new version
    assert "Язык" in view(started.phone("Ann"), started.link("Ann"))
    assert "Язык" not in view(started.tablet, started.url)


def test_each_referee_device_gets_the_same_screen_with_its_own_form_token(started: Table):
    second = started.app.test_client()  # another device, made a referee of this table
    key = referee_cookie(started.table_id)
    second.set_cookie(key, started.tablet.get_cookie(key).value)  # type: ignore[union-attr]
    one, two = view(started.tablet, started.url), view(second, started.url)
    assert csrf_of(one) != csrf_of(two)  # bound to each device...
    assert CSRF_FIELD.sub("", one) == CSRF_FIELD.sub("", two)  # ...and nothing else differs
    answer = second.post(started.url + "/step", headers=HTMX, data={
        "csrf": csrf_of(two), "version": version_of(two), "by": "Ann", "do": "income"})
    assert answer.status_code == 200 and csrf_of(answer.text) == csrf_of(two)
    assert csrf_of(view(started.tablet, started.url)) == csrf_of(one)


def test_a_screen_with_a_message_is_drawn_for_that_answer_only(started: Table):
    stale = started.post("/step", {"by": "Ann", "do": "income"}, version="1")
    assert stale.status_code == 409 and 'role="alert"' in stale.text
    assert 'role="alert"' not in view(started.tablet, started.url)


def test_nothing_new_is_204_with_no_body_and_no_content_encoding(started: Table):
    version = version_of(started.page())
    for client, path in ((started.tablet, started.url),
                         (started.phone("Ann"), started.link("Ann"))):
        answer = client.get(f"{path}/view?since={version}",
                            headers={**HTMX, "Accept-Encoding": "gzip"})
        assert answer.status_code == 204 and answer.data == b""
        assert "Content-Encoding" not in answer.headers


def test_the_store_and_the_broker_are_behind_small_interfaces(app: Flask):
    """docs/SCALING.md: another store or broker is a module that has these methods."""
    service = app.extensions["tables"]
    with service.pool.store() as store:
        assert isinstance(store, TableLog)
        assert isinstance(store, PlayerLog)
    updates: LiveUpdates = service.broker
    assert isinstance(updates, Broker)
    assert {name for name in vars(TableLog) if not name.startswith("_")} == {
        "version", "read", "table_of_seat", "create_table", "write"}
    assert {name for name in vars(PlayerLog) if not name.startswith("_")} == {
        "results", "aliases", "name_people"}


def test_a_late_draw_of_an_older_version_never_replaces_the_newer_screen():
    fragments = Fragments(size=2)
    draws: list[str] = []

    def draw(text: str) -> Callable[[], str]:
        return lambda: draws.append(text) or f"<p>{text} {CSRF_SLOT}</p>"

    assert fragments.get("t", "tablet", 5, draw("v5"), "tok1") == "<p>v5 tok1</p>"
    assert fragments.get("t", "tablet", 5, draw("again"), "tok2") == "<p>v5 tok2</p>"
    assert fragments.get("t", "tablet", 4, draw("v4"), "tok1") == "<p>v4 tok1</p>"  # a slow one
    assert fragments.get("t", "tablet", 5, draw("again"), "tok1") == "<p>v5 tok1</p>"
    assert draws == ["v5", "v4"]
    fragments.get("t", ("seat", "a", "en"), 5, draw("a"), "x")
    fragments.get("t", ("seat", "b", "en"), 5, draw("b"), "x")
    assert len(fragments) == 2  # the least recently used screen went
    fragments.get("t", "tablet", 5, draw("v5 again"), "x")
    assert draws[-1] == "v5 again"


# -- the fresh screen inside the stream's event (htmx sse-swap) -------------------------------

EVENT_DATA = re.compile(r"^data: ?(.*)$", re.M)


def screen_in(event: bytes | str) -> str:
    text = event.decode() if isinstance(event, bytes) else event
    assert text.startswith("event: changed\n") and text.endswith("\n\n")
    return "\n".join(EVENT_DATA.findall(text))


def test_a_change_comes_inside_each_devices_event_as_its_own_screen(started: Table):
    """Each device's event is its own fresh screen; the device whose tap it was has that screen
    in its tap's answer, so its event carries only the version."""
    started.app.extensions["tables"].broker.keepalive = 0.1
    version = version_of(started.page())
    streams = {name: started.phone(name).get(f"{started.link(name)}/events?since={version}",
                                             buffered=False) for name in ("Ann", "Bob")}
    streams["tablet"] = started.tablet.get(f"{started.url}/events?since={version}",
                                           buffered=False)
    chunks = {device: iter(stream.response) for device, stream in streams.items()}
    for device in chunks:
        assert next(chunks[device]).startswith(b":")  # open, and nothing new yet
    tap = started.phone_post("Ann", "/language", {"language": "ru"})
    assert tap.status_code == 200
    events = {device: next(chunks[device]).decode() for device in chunks}
    for stream in streams.values():
        stream.close()
    new = str(int(version) + 1)
    assert events["Ann"] == f"event: changed\ndata: {new}\n\n"  # her answer has the screen
    ann = tap.get_data(as_text=True).strip()
    screens = {device: screen_in(events[device]) for device in ("Bob", "tablet")}
    assert all(version_of(html) == new for html in [ann, *screens.values()])
    bob = screens["Bob"]
    assert ann == view(started.phone("Ann"), started.link("Ann")).strip()  # just as fetched
    assert bob == view(started.phone("Bob"), started.link("Bob")).strip()
    assert screens["tablet"] == view(started.tablet, started.url).strip()
    assert "Duke" in hand_of(ann) and "Contessa" in hand_of(bob)
    assert "Duke" not in hand_of(bob) and "Contessa" not in hand_of(ann)
    assert "Язык" in ann and "Язык" not in bob and "Язык" not in screens["tablet"]
    assert 'id="hand"' not in screens["tablet"]


class Device:
    """A page as app.js runs it: the version its screen shows, moved on by a tap's answer, by a
    screen inside an event, and by a fetch when an event says only a newer version."""

    def __init__(self, client: FlaskClient, base: str, version: str) -> None:
        self.client, self.base, self.held = client, base, int(version)
        self.chunks: Iterator[bytes] | None = None
        self.stream: object = None
        self.version_only = 0  # events that carried only the version

    def listen(self) -> None:
        self.stream = self.client.get(f"{self.base}/events?since={self.held}", buffered=False)
        self.chunks = iter(self.stream.response)  # type: ignore[attr-defined]
        assert next(self.chunks).startswith(b":")

    def hang_up(self) -> None:
        self.stream.close()  # type: ignore[attr-defined]
        self.chunks = None

    def answer(self, response: object) -> None:
        assert response.status_code == 200  # type: ignore[attr-defined]
        self.held = int(version_of(response.get_data(as_text=True)))  # type: ignore[attr-defined]

    def hear(self) -> None:
        """The next event, as app.js takes it (keepalives skipped)."""
        assert self.chunks is not None
        for _ in range(100):
            text = next(self.chunks).decode()
            if not text.startswith(":"):
                break
        data = "\n".join(EVENT_DATA.findall(text))
        assert data, repr(text)
        if 'data-version="' in data:
            self.held = max(self.held, int(version_of(data)))
        elif int(data) > self.held:  # not this screen: fetch it, as app.js does
            self.version_only += 1
            fetched = self.client.get(f"{self.base}/view?since={self.held}", headers=HTMX)
            assert fetched.status_code == 200
            self.held = int(version_of(fetched.get_data(as_text=True)))
        else:
            self.version_only += 1


def test_every_device_ends_on_the_newest_version_whoever_taps_and_after_a_reconnect(
        started: Table):
    started.app.extensions["tables"].broker.keepalive = 0.05
    version = started.version()
    second = started.app.test_client()  # a second referee device (say, the referee's phone)
    key = started.live().table.referee_token
    assert second.get(f"{started.url}?key={key}").status_code == 303
    devices = {"tablet": Device(started.tablet, started.url, version),
               "second": Device(second, started.url, version),
               **{name: Device(started.phone(name), started.link(name), version)
                  for name in ("Ann", "Bob")}}
    for device in devices.values():
        device.listen()

    def newest() -> int:
        return started.live().version

    def everyone_hears(*deaf: str) -> None:
        for name, device in devices.items():
            if name not in deaf:
                device.hear()

    devices["tablet"].answer(started.step(by="Ann", do="income"))  # the referee's tap
    everyone_hears()
    assert devices["tablet"].version_only == 1  # its answer had the screen
    devices["Bob"].answer(started.phone_post("Bob", "/language", {"language": "ru"}))
    everyone_hears()
    assert devices["Bob"].version_only == 1
    assert all(d.held == newest() for d in devices.values())

    started.step(by="Bob", do="income")  # the tablet's answer is lost on the way
    everyone_hears()
    assert devices["tablet"].held == newest()  # it fetched: the event was newer than its screen

    devices["Ann"].hang_up()
    devices["tablet"].hang_up()
    devices["Ann"].answer(started.phone_post("Ann", "/language", {"language": "uk"}))
    everyone_hears("Ann", "tablet")
    started.step(by="Cy", do="income")  # neither hears this one; the tablet's answer is lost
    everyone_hears("Ann", "tablet")
    for device in devices["Ann"], devices["tablet"]:  # back on the Wi-Fi
        device.listen()
        device.hear()
    assert devices["Ann"].version_only == 0  # the screen came in the event
    assert devices["tablet"].version_only == 3  # its own tap: the version, so it fetched
    assert {name: d.held for name, d in devices.items()} == dict.fromkeys(devices, newest())
    for device in devices.values():
        device.hang_up()


def test_a_stream_opened_behind_the_table_catches_up_with_the_screen_at_once(started: Table):
    version = int(version_of(started.page()))
    stream = started.phone("Cy").get(f"{started.link('Cy')}/events?since={version - 1}",
                                     buffered=False)
    chunks = iter(stream.response)
    next(chunks)
    assert version_of(screen_in(next(chunks))) == str(version)
    stream.close()


@pytest.mark.parametrize("since", ["", "abc", "-1", "99999999999999999999", "1e3"])
def test_an_odd_since_on_a_stream_is_taken_as_now(started: Table, since: str):
    started.app.extensions["tables"].broker.keepalive = 0.05
    stream = started.phone("Ann").get(f"{started.link('Ann')}/events?since={since}",
                                      buffered=False)
    assert stream.status_code == 200
    chunks = iter(stream.response)
    assert next(chunks).startswith(b":") and next(chunks).startswith(b":")  # only keepalives
    stream.close()


def test_a_remembered_prompt_cannot_be_changed_by_a_request(started: Table):
    """pending() is worked out once per state and shared by every screen: its options (which
    may hold a player's cards) are read-only."""
    from app.engine import pending

    game = started.live().game
    assert game is not None
    prompt = pending(game)[0]
    with pytest.raises(TypeError):
        prompt.options["hacked"] = 1  # type: ignore[index]
    assert "hacked" not in pending(game)[0].options
    actions = prompt.options["actions"]
    with pytest.raises(TypeError):
        actions.append({"action": "hacked"})  # the nested lists too, all the way down
    with pytest.raises(TypeError):
        actions[0]["targets"] = ["Ann"]
    assert pending(game)[0].options["actions"] == actions


def test_a_prompt_s_cards_are_read_only_and_still_read_as_a_list():
    """A prompt to lose an influence lists the player's own cards: no request may change them,
    and templates and JSON still read them as a list."""
    from app.engine.prompts import Prompt

    prompt = Prompt("Ann", "lose", {"cards": ["Duke", "Captain"], "why": {"n": [1]}})
    with pytest.raises(TypeError):
        prompt.options["cards"].append("Contessa")
    with pytest.raises(TypeError):
        prompt.options["why"]["n"].append(2)
    assert prompt.options["cards"] == ["Duke", "Captain"]
    assert json.dumps(prompt.options["cards"]) == '["Duke", "Captain"]'


# -- the parts every phone shares, drawn once per version and language (app/web/phoneparts.py) --


@contextmanager
def drawn_templates(app: Flask) -> Iterator[Counter[str]]:
    """How many times each template is drawn while the block runs."""
    drawn: Counter[str] = Counter()

    def note(_app: Flask, template: Template, context: dict[str, object]) -> None:
        drawn[template.name or ""] += 1

    template_rendered.connect(note, app)
    try:
        yield drawn
    finally:
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
