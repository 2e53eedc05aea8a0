"""Random and malformed requests for tests/security/test_fuzz.py: what a request may be (every
endpoint, device, odd cookie, form token and field), a world of fresh tables to send it to,
and the sending."""

from __future__ import annotations

import io
import json
import string
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import strategies as st
from tablekit import CSRF_FIELD, SMALL_RECORD
from werkzeug.datastructures import MultiDict

from app.engine import STEPS
from app.engine.cards import CHARACTERS
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
