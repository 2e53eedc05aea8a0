"""Bad input never breaks anything: random and malformed requests to every endpoint, from every
kind of device, never get a 500, and a refused one (4xx) leaves the database exactly as it was.
The requests include text of every script in fields, form tokens and query values, devices
whose cookies are not ours (any text as the device id and the referee key), and uploaded
records nested far deeper than a JSON decoder follows.
Malformed record files given to `coup-referee check` and `import` get one clear line each.

Each hypothesis example starts from fresh tables (made through the store, in milliseconds) in
one app, so a failing example replays the same way while it is shrunk.
"""

from __future__ import annotations

import io
import json
import string
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tablekit import CSRF_FIELD, SMALL_RECORD, check_headers, make_app, snapshot
from werkzeug.datastructures import MultiDict

from app.cli import main
from app.engine import STEPS
from app.engine.cards import CHARACTERS
from app.explore import legal_steps
from app.store import NewSeat, Store
from app.web.security import DEVICE_COOKIE, referee_cookie
from app.web.state import CONTROL

NAMES = ["Ann", "Bob", "Cy"]
HANDS = {"Ann": ["inquisitor", "captain"], "Bob": ["contessa", "duke"], "Cy": None}
RULES = {"exchanger": "inquisitor", "examine_shown_by": "examiner"}

PATHS = [
    "/", "/tables", "/healthz",
    "/t/{t}", "/t/{t}/view", "/t/{t}/step", "/t/{t}/undo", "/t/{t}/start", "/t/{t}/rematch",
    "/t/{t}/seat/{n}/tracked", "/t/{t}/seat/{n}/reissue", "/t/{t}/record.json", "/t/{t}/rules",
    "/t/{t}/events", "/t/{t}/join", "/t/{t}/join-code", "/tables/import",
    "/s/{s}", "/s/{s}/view", "/s/{s}/hand", "/s/{s}/step", "/s/{s}/language", "/s/{s}/rules",
    "/s/{s}/events",
]
CLIENTS = ["tablet", "tablet2", "ann", "bob", "dee", "stranger"]
TABLES = ["t1", "t2", "nope"]
SEATS = ["ann", "bob", "cy", "dee", "eve", "x" * 32]

junk = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
words = st.one_of(
    st.sampled_from([*STEPS, *CHARACTERS, *NAMES, "Dee", "Eve", "joker", "", "0", "1",
                     "-1", "2", "99999999999999999999", "None", "null", "true", "en", "ru",
                     "xx"]),
    junk,
)
FIELDS = ["do", "by", "target", "as", "card", "cards", "position", "tracked", "card1", "card2",
          "language", "players", "first", "edition", "preset", "exchanger", "reformation",
          "coins_in_box", "ambassador_max_swap", "examine_shown_by", "since", "code"]


@dataclass
class Request:
    client: str
    method: str
    path: str
    table: str
    seat: str
    seat_no: str
    fields: list[tuple[str, str]]
    csrf: str  # right, other, none, junk
    version: str  # current, stale, future, junk, none
    headers: dict[str, str]
    query: str
    oversized: bool
    cookies: str | None = None  # a raw Cookie header instead of the device's own cookies
    csrf_text: str = ""  # the csrf value sent when csrf is "text"
    upload: bytes | None = None  # a record file, for the start page's upload


TABLET_PATHS = [p for p in PATHS if p.startswith("/t/")]
PHONE_PATHS = [p for p in PATHS if p.startswith("/s/")]
POSTS = {"/tables", "/tables/import", "/t/{t}/join-code", "/t/{t}/record.json", "/t/{t}/step",
         "/t/{t}/undo", "/t/{t}/start", "/t/{t}/rematch", "/t/{t}/seat/{n}/tracked",
         "/t/{t}/seat/{n}/reissue", "/s/{s}/hand", "/s/{s}/step", "/s/{s}/language"}
PRIVATE_KINDS_STEPS = {"prove", "concede", "lose", "draw", "keep", "show", "swap", "return"}
OWN = {"tablet": ("t1", None), "tablet2": ("t2", None), "ann": ("t1", "ann"),
       "bob": ("t1", "bob"), "dee": ("t2", "dee"), "stranger": ("t1", None)}
card = st.sampled_from([*CHARACTERS, "joker", ""]) | junk
step_fields = st.fixed_dictionaries(
    {"do": st.sampled_from([*STEPS, "dance", ""])},
    optional={"by": st.sampled_from([*NAMES, "Dee", "nobody", ""]),
              "target": st.sampled_from([*NAMES, "Dee", ""]),
              "as": card, "card": card, "position": st.sampled_from(["0", "1", "2", "-1", "x"]),
              "cards": st.lists(card, max_size=3)},
).map(lambda d: [(k, c) for k, v in d.items() for c in (v if isinstance(v, list) else [v])])


cookie_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",),
                                             exclude_characters=";\r\n"), max_size=30)


@st.composite
def odd_cookies(draw, table: str) -> str:
    """A Cookie header with a device id and a referee key that are not ours: any text,
    non-ASCII included. ``{t}`` stands for the table's id."""
    device = draw(cookie_text)
    referee = draw(cookie_text)
    return f"coup_device={device}; coup_ref_{{t}}={referee}"


def nested(depth: int, opener: bytes = b"[", closer: bytes = b"]") -> bytes:
    return opener * depth + closer * depth


uploads = st.one_of(
    st.sampled_from([nested(30000), nested(1500), nested(999), nested(10000, b'{"a":', b"}"),
                     b'{"format": "coup-record/1", "players": ' + nested(5000) + b"}",
                     json.dumps(SMALL_RECORD).encode(), b"", b"\xff\xfe\x00"]),
    st.binary(max_size=200),
    st.text(max_size=100).map(lambda t: t.encode("utf-8")),
)


@st.composite
def requests(draw) -> Request:
    """Mostly a device on its own table or seat (so that requests get deep into the code),
    sometimes anything at all."""
    client = draw(st.sampled_from(CLIENTS))
    own_table, own_seat = OWN[client]
    coherent = draw(st.integers(0, 9)) < 8
    if not coherent:
        path = draw(st.sampled_from(PATHS) | st.text(string.printable, max_size=30).map(
            lambda s: "/" + s))
    elif own_seat is not None and draw(st.booleans()):
        path = draw(st.sampled_from(PHONE_PATHS))
    else:
        path = draw(st.sampled_from(TABLET_PATHS + ["/", "/tables", "/tables/import"]))
    if coherent and draw(st.integers(0, 9)) < 8:
        method = "POST" if path in POSTS else "GET"
    else:
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]))
    fields = draw(step_fields) if path.endswith("/step") else []
    fields += draw(st.lists(st.tuples(st.sampled_from(FIELDS), words), max_size=4))
    return Request(
        client=client,
        method=method,
        path=path,
        table=own_table if coherent else draw(st.sampled_from(TABLES) | st.text(
            string.ascii_letters + "-_", max_size=40)),
        seat=(own_seat or "cy") if coherent else draw(st.sampled_from(SEATS) | st.text(
            string.ascii_letters + "-_", max_size=40)),
        seat_no=draw(st.sampled_from(["0", "1", "2", "3", "99", "18446744073709551616"])),
        fields=fields,
        csrf=draw(st.sampled_from(["right"] * 6 + ["other", "none", "junk", "text"])),
        csrf_text=draw(junk),
        version=draw(st.sampled_from(["current"] * 5 + ["stale", "future", "junk", "none"])),
        headers=draw(st.sampled_from([
            {"HX-Request": "true"}, {"HX-Request": "true"}, {"HX-Request": "true"}, {}, {},
            {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
            {"Sec-Fetch-Site": "same-origin", "HX-Request": "true"},
            {"Origin": "http://evil.example"}, {"Content-Type": "application/json"},
        ])),
        query=draw(st.sampled_from(["", "", "", "?since=0", "?since=1", "?since=x", "?key=abc",
                                    "?key=%C3%A9", "?since=%E6%97%A5", "?key=%FF"])),
        oversized=draw(st.sampled_from([False] * 19 + [True])),
        cookies=draw(st.none() | st.none() | odd_cookies(own_table)),
        upload=draw(uploads) if path == "/tables/import" else None,
    )


@dataclass
class World:
    """Two tables: t1's game is under way (Ann and Bob on phones, Cy without one), t2 waits in
    its lobby (Dee's phone has claimed her seat, Eve's link is unopened)."""

    app: Flask
    ids: dict[str, str] = field(default_factory=dict)  # t1, t2 -> table id
    seats: dict[str, tuple[str, int]] = field(default_factory=dict)  # ann -> (t1, 0)
    clients: dict[str, FlaskClient] = field(default_factory=dict)
    scope_page: dict[str, str] = field(default_factory=dict)  # client -> a page with its form

    def store(self) -> AbstractContextManager[Store]:
        return self.app.extensions["tables"].pool.store()

    def token(self, seat: str) -> str:
        if seat not in self.seats:
            return seat
        table, number = self.seats[seat]
        with self.store() as store:
            found = store.read(self.ids[table])
        assert found is not None
        return found.seats[number].token

    def version(self, table: str) -> int:
        with self.store() as store:
            return store.version(self.ids.get(table, table)) or 0


def build_world(app: Flask) -> World:
    world = World(app)
    with world.store() as store:
        for key, names, hands in (("t1", NAMES, HANDS), ("t2", ["Dee", "Eve"], None)):
            settings = {"first": names[0], "rules": RULES if key == "t1" else {},
                        "edition": "official"}
            seats = [NewSeat(n) if hands is None else NewSeat(
                n, None if hands[n] is None else tuple(hands[n]), hands[n] is not None)
                for n in names]
            setup = {"players": names, "first": names[0], "rules": RULES, "hands": hands}
            table = store.create_table(settings, seats, "en", log=[] if hands is None else [
                {CONTROL: "start", "setup": setup}])
            world.ids[key] = table.id
            for number, name in enumerate(names):
                world.seats[name.lower()] = (key, number)
            tablet = app.test_client()
            tablet.set_cookie(referee_cookie(table.id), table.referee_token)
            tablet.set_cookie(DEVICE_COOKIE, f"tablet-device-of-{key}-0123456789")
            world.clients["tablet" if key == "t1" else "tablet2"] = tablet
        for name in ("ann", "bob", "dee"):
            key, number = world.seats[name]
            client = app.test_client()
            device = f"{name}-phone-device-0123456789"
            client.set_cookie(DEVICE_COOKIE, device)
            table_id = world.ids[key]
            with store.write(table_id, store.version(table_id) or 0) as writing:
                writing.update_seat(number, device=device)
                writing.append({CONTROL: "seat"})
            world.clients[name] = client
    world.clients["stranger"] = app.test_client()
    return world


def csrf_for(world: World, client: str, path: str) -> str | None:
    """The CSRF value this client's own page gives for the form the path belongs to."""
    c = world.clients[client]
    if path.startswith("/s/"):
        page = c.get("/s/" + path.split("/")[2])
    elif path.startswith("/t/"):
        page = c.get("/t/" + path.split("/")[2])
    else:
        page = c.get("/")
    match = CSRF_FIELD.search(page.get_data(as_text=True))
    return match.group(1) if match else None


def prepare(world: World, r: Request) -> tuple[str, list[tuple[str, str]]]:
    """The URL and form of a request. Fetching a right CSRF value may open (claim) a seat,
    so this runs before the "before" snapshot."""
    table_id = world.ids.get(r.table, r.table)
    path = (r.path.replace("{t}", table_id).replace("{s}", world.token(r.seat))
            .replace("{n}", r.seat_no))
    data: list[tuple[str, str]] = list(r.fields)
    if r.csrf == "right":
        value = csrf_for(world, r.client, path)
        if value:
            data.append(("csrf", value))
    elif r.csrf == "other":
        value = csrf_for(world, "stranger" if r.client != "stranger" else "tablet", path)
        if value:
            data.append(("csrf", value))
    elif r.csrf == "text":
        data.append(("csrf", r.csrf_text))
    elif r.csrf == "junk":
        data.append(("csrf", "0" * 32))
    if r.version != "none" and r.table in world.ids:
        now = world.version(r.table)
        data.append(("version", {"current": str(now), "stale": str(now - 1),
                                 "future": str(now + 5)}.get(r.version, "v; DROP")))
    if r.oversized:
        data.append(("players", "x" * 70_000))
    return path + r.query, data


def send(world: World, r: Request, url: str, data: list[tuple[str, str]]):
    client = world.clients[r.client]
    extra: dict[str, Any] = {}
    if r.cookies is not None:  # as a server reads them: the header's UTF-8 bytes as latin-1
        table_id = world.ids.get("t1", "")
        header = r.cookies.replace("{t}", table_id)
        extra["environ_overrides"] = {"HTTP_COOKIE": header.encode("utf-8").decode("latin-1")}
        client = world.app.test_client()  # a device with these cookies and no others
    if r.upload is not None and r.method == "POST":
        files = MultiDict(data)
        files.add("record", (io.BytesIO(r.upload), "record.json"))
        response = client.post(url, data=files, headers=r.headers,
                               content_type="multipart/form-data", **extra)
        return response
    if r.method == "GET":
        response = client.get(url, headers=r.headers, **extra)
    else:
        response = client.open(url, method=r.method, data=MultiDict(data), headers=r.headers,
                               **extra)
    if response.mimetype == "text/event-stream":
        response.close()  # an event stream never ends: close it unread
    return response


def games_load(world: World) -> None:
    tables = world.app.extensions["tables"]
    for table_id in world.ids.values():
        assert tables.load(table_id) is not None


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    return make_app(tmp_path_factory.mktemp("fuzz"))


def legal_request(world: World, data: st.DataObject) -> Request | None:
    """A step the engine would take now at t1, from the device that may take it, so that
    some requests are accepted and the game moves on between the odd ones."""
    live = world.app.extensions["tables"].load(world.ids["t1"])
    options = legal_steps(live.game) if live and live.game else []
    if not options:
        return None
    step = data.draw(st.sampled_from(options))
    by = step.get("by")
    phone = step["do"] in PRIVATE_KINDS_STEPS and by in ("Ann", "Bob")
    fields = [(k, c) for k, v in step.items() for c in (v if isinstance(v, list) else [v])
              if not (phone and k == "by")]
    return Request(client=by.lower() if phone else "tablet",
                   method="POST", path="/s/{s}/step" if phone else "/t/{t}/step", table="t1",
                   seat=by.lower() if phone else "cy", seat_no="0", fields=fields,
                   csrf="right", version="current", headers={"HX-Request": "true"}, query="",
                   oversized=False)


@settings(max_examples=50, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_requests_never_break_anything(fuzz_app: Flask, data: st.DataObject):
    world = build_world(fuzz_app)
    for _ in range(data.draw(st.integers(1, 12))):
        r = (data.draw(st.sampled_from([True, False, False])) and legal_request(world, data)
             or data.draw(requests()))
        url, form = prepare(world, r)
        before = snapshot(fuzz_app)
        response = send(world, r, url, form)
        assert response.status_code < 500, (r, url, form)
        if response.status_code >= 400:
            assert snapshot(fuzz_app) == before, (r, url, form, response.status_code)
        if response.mimetype != "text/event-stream":
            check_headers(response)
    games_load(world)


def test_oversized_bodies_are_refused_and_change_nothing(fuzz_app: Flask):
    world = build_world(fuzz_app)
    big = {"players": "Ann\n" * 20_000, "do": "income", "by": "Ann"}
    for client, path in (("stranger", "/tables"), ("tablet", "/t/{t}/step"),
                         ("ann", "/s/{s}/step"), ("ann", "/s/{s}/hand")):
        before = snapshot(fuzz_app)
        url = path.replace("{t}", world.ids["t1"]).replace("{s}", world.token("ann"))
        response = world.clients[client].post(url, data=big)
        assert response.status_code == 413
        assert snapshot(fuzz_app) == before


def test_every_wrong_method_is_a_405_page(fuzz_app: Flask):
    world = build_world(fuzz_app)
    both = {"/t/{t}/join"}  # a form page that posts to itself
    for template in PATHS:
        url = (template.replace("{t}", world.ids["t1"]).replace("{s}", world.token("ann"))
               .replace("{n}", "0"))
        wrong = ["PUT", "DELETE", "PATCH"]
        if template not in both:
            wrong.append("GET" if template in POSTS else "POST")
        for method in wrong:
            before = snapshot(fuzz_app)
            response = world.clients["ann"].open(url, method=method)
            assert response.status_code == 405, (method, template, response.status_code)
            assert snapshot(fuzz_app) == before


def test_a_show_by_position_with_nothing_to_examine_is_refused(fuzz_app: Flask):
    world = build_world(fuzz_app)
    tablet = world.clients["tablet"]
    url = f"/t/{world.ids['t1']}"
    statuses = []
    for do, extra in (("show", {}), ("exchange", {}), ("show", {})):
        before = snapshot(fuzz_app)
        form = {"csrf": csrf_for(world, "tablet", url), "version": world.version("t1"),
                "do": do, "by": "Ann", "position": "0", **extra}
        if do == "exchange":
            form.pop("position")
        response = tablet.post(url + "/step", data=form, headers={"HX-Request": "true"})
        statuses.append(response.status_code)
        if do == "show":
            assert snapshot(fuzz_app) == before
    assert statuses[0] < 500 and statuses[2] < 500, statuses


# -- the command line ---------------------------------------------------------------------


def record(**changes: Any) -> bytes:
    data = {"format": "coup-record/1", "players": ["A", "B"], "hands": {"A": None, "B": None},
            "steps": []}
    data.update(changes)
    return json.dumps(data).encode()


BAD_FILES: dict[str, bytes | None] = {
    "not-json.json": b"{this is not json",
    "empty.json": b"",
    "binary.json": bytes(range(256)) * 4,
    "latin1.json": '{"name": "caf\xe9"}'.encode("latin-1"),
    "list.json": b"[1, 2, 3]",
    "string.json": b'"coup"',
    "null.json": b"null",
    "wrong-format.json": record(format="coup-record/2"),
    "no-steps.json": json.dumps({"format": "coup-record/1", "players": ["A", "B"],
                                 "hands": {"A": None, "B": None}}).encode(),
    "players-number.json": record(players=5),
    "players-objects.json": record(players=[{}, []]),
    "hands-list.json": record(hands=[["duke"]]),
    "hand-numbers.json": record(hands={"A": [1, 2], "B": None}),
    "steps-object.json": record(steps={}),
    "step-number.json": record(steps=[7]),
    "step-by-object.json": record(steps=[{"do": "income", "by": {"x": 1}}]),
    "step-cards-string.json": record(steps=[{"do": "income", "by": "A", "cards": "duke"}]),
    "rules-garbage.json": record(rules={"coins_in_box": "many"}),
    "rules-list.json": record(rules=["bga"]),
    "directory": None,  # made a folder below
}
# Each of these still ends in a traceback; see test_a_malformed_file_that_still_crashes.
CRASHING_FILES: dict[str, tuple[bytes, str]] = {
    "step-do-list.json": (
        record(steps=[{"do": ["income"], "by": "A"}]),
        "TypeError (unhashable type: 'list') in app/records.py check_step: `do not in "
        "ACTIONS` on a 'do' that is a list or object. Fix: refuse a 'do' that is not a string",
    ),
    "preset-list.json": (
        record(rules={"preset": ["bga"]}),
        "TypeError (unhashable type: 'list') in app/engine/rules.py parse_rules: `preset not "
        "in PRESETS` on a preset that is a list or object. Fix: refuse a preset that is not a "
        "string",
    ),
    "deeply-nested.json": (
        b"[" * 100_000 + b"]" * 100_000,
        "RecursionError from json.loads in app/records.py load(): only JSONDecodeError is "
        "caught. Fix: also catch RecursionError and say 'nested too deeply'",
    ),
}


def write_bad_files(folder: Path) -> list[Path]:
    paths = []
    for name, content in BAD_FILES.items():
        path = folder / name
        if content is None:
            path.mkdir()
        else:
            path.write_bytes(content)
        paths.append(path)
    return [*paths, folder / "missing.json"]


def one_clear_line(capsys: pytest.CaptureFixture[str]) -> str:
    out = capsys.readouterr()
    text = (out.out + out.err).strip()
    assert "Traceback" not in text, text
    assert len(text.splitlines()) == 1, text
    return text


def run_cli(command: str, path: Path, instance: Path) -> int:
    extra = ["--instance", str(instance)] if command == "import" else []
    return main([command, str(path), *extra])


COMMANDS = ["check", "import"]


@pytest.mark.parametrize("command", COMMANDS)
def test_each_bad_file_gets_one_clear_line(command: str, tmp_path: Path, capsys):
    bad = tmp_path / "bad"
    bad.mkdir()
    for path in write_bad_files(bad):
        status = run_cli(command, path, tmp_path / "instance")
        line = one_clear_line(capsys)
        assert status != 0, line
        assert path.name in line, line


@pytest.mark.parametrize("command", ["check", "import"])
@pytest.mark.parametrize("name", [
    name for name in CRASHING_FILES])
def test_a_malformed_file_gets_one_clear_line_too(command: str, name: str, tmp_path: Path, capsys):
    path = tmp_path / name
    path.write_bytes(CRASHING_FILES[name][0])
    status = run_cli(command, path, tmp_path / "instance")
    line = one_clear_line(capsys)
    assert status != 0 and name in line, line


leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=6),
                 st.sampled_from(["A", "B", "duke", "captain", "contessa", "income", "tax",
                                  "steal", "lose", "draw", "keep", "pass", "bga", "inquisitor"]))
value = st.recursive(leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["do", "by", "target", "card", "cards", "coins", "hand",
                                     "A", "B", "preset", "exchanger", "coins_in_box"]),
                    inner, max_size=3)), max_leaves=8)
scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=6),
                   st.sampled_from(["income", "tax", "steal", "lose", "draw", "pass", "bga"]))
steps = st.lists(st.one_of(value, st.fixed_dictionaries(
    {"do": scalar},  # a list or object 'do' is a known crash (CRASHING_FILES)
    optional={"by": value, "target": value, "as": value, "card": value, "cards": value,
              "rejected": value})), max_size=4)
records = st.fixed_dictionaries(
    {"format": st.just("coup-record/1"),
     "players": st.one_of(st.just(["A", "B"]), value),
     "hands": st.one_of(st.just({"A": None, "B": None}),
                        st.just({"A": ["duke", "captain"], "B": None}), value),
     "steps": st.one_of(steps, value)},
    optional={"rules": st.one_of(st.dictionaries(st.sampled_from(["exchanger", "coins_in_box",
                                                                  "reformation"]), value),
                                 st.fixed_dictionaries({"preset": scalar})),
              "first": value, "revealed": value, "court_deck": value, "coins": value,
              "expect": value, "name": value})


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=records)
def test_random_records_get_one_clear_line(data: dict[str, Any], tmp_path: Path, capsys):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in ("check", "import"):
        capsys.readouterr()
        status = run_cli(command, path, tmp_path / "instance")
        out = capsys.readouterr()
        text = out.out + out.err
        assert "Traceback" not in text
        if status != 0:
            assert len(text.strip().splitlines()) == 1, text


ODD_TEXT = ["é", "日本語", "\u00ff" * 40, "a" * 64 + "é", "=;", " ", "\u202e", "🂡🂱", "\x7f"]


def test_odd_cookies_tokens_and_queries_never_break_anything(fuzz_app: Flask):
    """Every path, from a device whose cookies and form token are text of any script: a 4xx
    or a page, never a 500, and a refused request changes nothing."""
    world = build_world(fuzz_app)
    for text in ODD_TEXT:
        cookies = f"coup_device={text}; coup_ref_{{t}}={text}"
        for template in PATHS:
            method = "POST" if template in POSTS else "GET"
            r = Request(client="stranger", method=method, path=template, table="t1",
                        seat="eve", seat_no="0", fields=[("code", text), ("do", text)],
                        csrf="text", version="current", headers={"HX-Request": "true"},
                        query="?key=%C3%A9&since=%E6%97%A5", oversized=False, cookies=cookies,
                        csrf_text=text)
            url, form = prepare(world, r)
            before = snapshot(fuzz_app)
            response = send(world, r, url, form)
            assert response.status_code < 500, (template, text)
            if response.status_code >= 400:
                assert snapshot(fuzz_app) == before, (template, text)


@pytest.mark.parametrize("body", [nested(30000), nested(10000, b'{"a":', b"}"),
                                  b'{"format": "coup-record/1", "players": ' + nested(5000)
                                  + b"}", nested(900)])
def test_a_deeply_nested_upload_is_refused_in_one_message(fuzz_app: Flask, body: bytes):
    world = build_world(fuzz_app)
    r = Request(client="stranger", method="POST", path="/tables/import", table="t1", seat="cy",
                seat_no="0", fields=[], csrf="right", version="none", headers={}, query="",
                oversized=False, upload=body)
    url, form = prepare(world, r)
    before = snapshot(fuzz_app)
    response = send(world, r, url, form)
    assert response.status_code == 422
    assert "not a game record we can load" in response.get_data(as_text=True)
    assert snapshot(fuzz_app) == before
