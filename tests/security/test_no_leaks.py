"""No leaks, proven: two games that differ only in one seat's hidden cards look the same, byte for
byte, on every other device.

For each seed: a random table (edition, rules, 2-5 seats, some without a phone) and a random
legal game, played in the engine from `app.explore.legal_steps`. Then seat X and a second deal
for X are chosen so that every step of the game stays legal (X never names, proves, loses,
keeps or shows a card that differs). Both games are played through the Flask test client: the
referee's steps from the tablet, each private step from its seat's phone with the form fields
the templates use. Everything the server sends is collected per device (pages, fragments, each
fragment again as the server remembers it for its version, the screen each device's event
stream carries, the rules page, the start of the event stream, the versions pushed to streams,
refusals) and,
once table ids, seat tokens, QR codes and CSRF values are masked, must be identical on every
device except X's phones. A spectators' board (the TV link of game night) follows the game
like any other device, and every screen asks for the timeline of the game, which is refused
until the game is over (it shows every hand); the players' page counts a game as soon as it
is over, but of a game an undo could still reopen only what everyone saw (games, wins,
challenges, claims): never the bluffs, which tell hidden cards. Once the game is over the
spectators' board shows the night's scoreboard too.

The seeds take turns at three ways a table comes to be (see :class:`Night`): the set-up form;
a record uploaded on the start page, whose unclaimed links the phones first open by their
refresh; and the set-up form with new links for X and another seat mid-game. In each, a late
device tries every claimed seat link, and at the end the referee downloads the record and
tries to undo.
"""

from __future__ import annotations

import difflib
import functools
import io
import json
import random
import re
from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from tablekit import (
    CSRF_FIELD,
    HTMX,
    PUBLIC,
    check_headers,
    csrf_of,
    finished_game,
    make_app,
    snapshot,
    started_table,
    version_of,
)
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from app.editions import EDITIONS
from app.engine import (
    STEPS,
    Game,
    RuleError,
    apply,
    blind_target,
    characters_in_play,
    check_table,
    new_game,
    parse_rules,
)
from app.engine.rules import CHOICES
from app.explore import Chooser, legal_steps, random_rules
from app.live import Broker
from app.web import views
from app.web.home import FormProblem, settings_from_form
from app.web.state import TableState

SEEDS = range(7)
WATCH = re.compile(r'href="http://coup\.test(/w/[^"]+)"')
MAX_STEPS = 40
FULL_PAGE_EVERY = 8  # the fragment is fetched after every step, the whole page this often
UNDO_EVERY = 6  # so often a step is undone (the tablet lists undone steps) and redone
PRIVATE_STEPS = {name for name, kind in STEPS.items() if kind.private}


@dataclass
class Plan:
    names: list[str]
    form: dict[str, str]  # the home page's form
    hands: dict[str, list[str] | None]  # None: no phone (untracked)
    setup: dict[str, Any]
    steps: list[dict[str, Any]]
    x: str = ""
    hand_b: list[str] | None = None


def make_plan(seed: int, app) -> Plan | None:
    """A random table and game, and a second deal for one seat; None when there is none."""
    rng = random.Random(seed)
    n = rng.randint(2, 5)
    names = [f"P{i}" for i in range(n)]
    form = {"players": "\n".join(names), "first": rng.choice(names),
            "edition": rng.choice(list(EDITIONS))}
    for key, value in random_rules(mostly_official(rng), n).items():
        if key == "preset" or (key in CHOICES and key != "two_player_setup"):
            form[key] = str(value)
    # Who answers the table's questions: phones too (their own seat's declarations, challenges,
    # blocks), or the tablet only. Derived from the seed, so each seed's game stays the same.
    form["answers"] = "tablet" if seed % 3 == 2 else "both"
    if seed % 2:  # the Inquisitor's examination: a card shown to one player only
        form["exchanger"] = "inquisitor"
        form["examine_shown_by"] = "examiner" if seed % 4 == 1 else "target"
    try:
        with app.test_request_context():
            names, settings = settings_from_form(MultiDict(form))
        rules = settings["rules"]
        check_table(rules, names)
    except (FormProblem, RuleError):
        return None
    parsed = parse_rules(rules)
    deck = [c for c in characters_in_play(parsed) for _ in range(parsed.copies(n))]
    rng.shuffle(deck)
    hands: dict[str, list[str] | None] = {name: [deck.pop(), deck.pop()] for name in names}
    for name in names:
        if rng.random() < 0.3:
            hands[name] = None
    if all(h is None for h in hands.values()):
        hands[names[0]] = [deck.pop(), deck.pop()]
    setup: dict[str, Any] = {"players": names, "first": settings["first"], "hands": hands}
    if rules:
        setup["rules"] = rules
    plan = Plan(names, form, hands, setup, random_game(setup, rng))
    return plan if second_deal(plan, rng) else None


def random_game(setup: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    game = new_game(setup)
    for _ in range(MAX_STEPS):
        if game.over:
            break
        options = legal_steps(game)
        rng.shuffle(options)
        for step in options:
            try:
                game = apply(game, step)
                break
            except RuleError:
                continue
        else:
            break
    return game.steps


def second_deal(plan: Plan, rng: random.Random) -> bool:
    """Choose X and a different hand for X with which the same steps are all legal."""
    rules = parse_rules(plan.setup.get("rules"))
    pairs = list(combinations_with_replacement(characters_in_play(rules), 2))
    tracked = [name for name, hand in plan.hands.items() if hand is not None]
    rng.shuffle(tracked)
    for x in tracked:
        mine = sorted(plan.hands[x] or [])
        candidates = [list(p) for p in pairs if sorted(p) != mine]
        rng.shuffle(candidates)
        for hand in candidates:
            rng.shuffle(hand)
            setup = {**plan.setup, "hands": {**plan.hands, x: hand}}
            if (public(setup, plan.steps) == public(plan.setup, plan.steps)
                    and hand_after(setup, plan.steps, x) != hand_after(plan.setup, plan.steps, x)):
                plan.x, plan.hand_b = x, hand
                return True
    return False


def hand_after(setup: dict[str, Any], steps: list[dict[str, Any]], x: str) -> list[str]:
    """X's hand once a third of the game is played: an imported table's phones open there, so
    the two deals must still differ then (an exchange may have made them the same)."""
    game = new_game(setup)
    for step in steps[:len(steps) // 3]:
        game = apply(game, step)
    return sorted(game.player(x).hand or [])


def public(setup: dict[str, Any], steps: list[dict[str, Any]]) -> list[Any] | None:
    """What the table sees after each step (rulings, cards face up), or None if a step is
    refused. A card turned face up on its own (a last influence lost) is public too."""
    seen: list[Any] = []
    try:
        game = new_game(setup)
        for step in steps:
            game = apply(game, step)
            seen.append((list(game.log), [(p.revealed, p.face_down) for p in game.players]))
    except RuleError:
        return None
    return seen


# -- one game through the web -------------------------------------------------------------


class Recorder(Broker):
    """The app's broker, noting each version pushed to the streams."""

    def __init__(self) -> None:
        super().__init__()
        self.versions: list[int] = []

    def publish(self, table_id: str, version: int) -> None:
        self.versions.append(version)
        super().publish(table_id, version)


class Night:
    """One game night through the test client, noting everything each device is sent.

    ``variant`` is how the table came to be and what happens on the way: "form" (the set-up
    form, each phone opening its page), "import" (a record of the first steps uploaded on the
    start page; each phone's first look is the refresh, /view, of an unclaimed link) or
    "reissue" (the set-up form, then mid-game the referee gives X and another seat new links,
    which new phones open by their refresh). In every variant a late device tries each seat's
    link once the phones hold them, and at the end the referee downloads the record and tries
    to undo."""

    def __init__(self, instance: Path, plan: Plan, hands: dict[str, list[str] | None],
                 variant: str) -> None:
        self.app = make_app(instance)
        self.tables = self.app.extensions["tables"]
        self.recorder = self.tables.broker = Recorder()
        self.plan = plan
        self.hands = hands
        self.variant = variant
        self.tablet = self.app.test_client()
        self.clients: dict[str, FlaskClient] = {"tablet": self.tablet}
        self.links: dict[str, str] = {}  # phone device -> its seat link, as it was given
        self.last: dict[str, str] = {}  # device -> the last page or fragment it holds
        self.tapped: dict[str, str] = {}  # device -> the version its last good tap answered
        self.seen: dict[str, list[tuple[str, int, str, str]]] = defaultdict(list)
        self.table_id = ""
        self.tokens: list[tuple[str, str]] = []  # every seat token ever, with its mask
        self.referee_token = ""
        self.watch = ""  # the spectators' link, as the tablet shows it

    # every response goes through here
    def note(self, device: str, what: str, response: TestResponse, holds: bool = True) -> str:
        check_headers(response)
        body = response.get_data(as_text=True)
        self.seen[device].append((what, response.status_code, response.mimetype,
                                  body + "\nLocation: " + response.headers.get("Location", "")))
        if holds and response.status_code == 200 and response.mimetype == "text/html":
            self.last[device] = body
        return body

    def client(self, device: str) -> FlaskClient:
        return self.clients[device]

    def base(self, device: str) -> str:
        if device == "tv":
            return self.watch
        return f"/t/{self.table_id}" if device == "tablet" else self.links[device]

    def get(self, device: str, path: str, what: str, holds: bool = True) -> str:
        response = self.client(device).get(self.base(device) + path)
        return self.note(device, what, response, holds)

    def post(self, device: str, path: str, data: dict[str, Any], what: str) -> TestResponse:
        held = self.last[device]
        form = {"csrf": csrf_of(held), "version": version_of(held), **data}
        response = self.client(device).post(self.base(device) + path, data=form, headers=HTMX)
        self.note(device, what, response)
        if response.status_code == 200:
            self.tapped[device] = version_of(response.get_data(as_text=True))
        return response

    def devices(self) -> list[str]:
        return [d for d in self.clients if d != "late"]

    def refresh(self, label: str, whole: bool = False) -> None:
        for device in self.devices():
            self.get(device, "/view", f"{label} view")
            if whole:
                self.get(device, "", f"{label} page")
        for device in self.devices():  # again: each screen as remembered for this version
            self.get(device, "/view", f"{label} view again")
        for device in self.devices():  # and as each device's event stream carries it
            self.event(device, f"{label} event")
        self.shared_parts(label)

    def shared_parts(self, label: str) -> None:
        """The parts every phone of the table shares (the other players' rows, the newest
        rulings), as the server remembers them: drawn once for all seats, they must be the
        same whatever X holds, like any screen X's phones don't show."""
        held = self.app.extensions["fragments"].held(self.table_id)
        for screen, version, html in sorted(held, key=repr):
            if screen[0] in ("phone rows", "phone rulings"):
                self.seen["shared parts"].append((f"{label} {screen}", version, "", html))
        self.own_regions(label, held)

    def own_regions(self, label: str, held: list[tuple[Any, Any, str]]) -> None:
        """Each seat's own coins and cards, remembered by the seat's token until they change
        (app/web/phoneparts.py): every seat's but X's must be the same whatever X holds. (X's
        own shows X's hand, on X's phone only: the screens' comparison covers where it goes.)"""
        x_seat = f"[seat {self.plan.names.index(self.plan.x)}."
        masks = dict(self.tokens)
        own = sorted((masks[screen[1]], html) for screen, _shows, html in held
                     if screen[0] == "phone mine" and screen[1] in masks)
        for mask, html in own:
            if not mask.startswith(x_seat):
                self.seen["own regions"].append((f"{label} {mask}", 0, "", html))

    def event(self, device: str, what: str) -> None:
        """The event a device's stream sends when the table moved past the screen it shows
        (its page said one version less): the fresh screen itself, swapped in by htmx (the
        spectators' board gets the version, and fetches; so does the device whose tap's answer
        was that screen)."""
        version = self.live().version
        stream = self.client(device).get(f"{self.base(device)}/events?since={version - 1}")
        if stream.status_code != 200 or version < 1:
            self.note(device, what, stream, holds=False)
            return
        chunks = iter(stream.response)
        assert next(chunks)  # the opening comment
        event = next(chunks)
        stream.close()
        text = event.decode() if isinstance(event, bytes) else event
        if device == "tv" or self.tapped.get(device) == str(version):
            assert text == f"event: changed\ndata: {version}\n\n"
        else:
            assert text.startswith("event: changed\n") and f'data-version="{version}"' in text
        self.seen[device].append((what, stream.status_code, stream.mimetype, text))

    def live(self) -> TableState:
        state = self.tables.load(self.table_id)
        assert state is not None
        return state

    def learn_tokens(self) -> None:
        for seat in self.live().seats:
            if all(seat.token != token for token, _mask in self.tokens):
                self.tokens.append((seat.token, f"[seat {seat.seat}.{len(self.tokens)}]"))

    def seat_link(self, name: str) -> str:
        return f"/s/{self.live().seats[self.plan.names.index(name)].token}"

    def new_phone(self, name: str, first_look: str) -> None:
        """A phone opens its seat's link: ``first_look`` "" is the page, "/view" a refresh."""
        self.clients[name] = self.app.test_client()
        self.links[name] = self.seat_link(name)
        assert "Hold to see" not in self.get(name, first_look, f"{name} opens {first_look}") \
            or self.hands[name] is not None
        assert self.live().seats[self.plan.names.index(name)].device is not None  # claimed
        self.get(name, "", f"{name} page")

    # the night itself
    def play(self) -> None:
        played = self.create_by_import() if self.variant == "import" else self.create_by_form()
        self.refresh("started", whole=True)
        self.late_device("started")
        self.around_the_edges("start")
        for i, step in enumerate(self.plan.steps[played:], played):
            self.submit(step)
            self.refresh(f"step {i}", whole=i % FULL_PAGE_EVERY == 0)
            if i % UNDO_EVERY == UNDO_EVERY - 1:  # the referee takes it back, then it is redone
                assert self.post("tablet", "/undo", {}, f"undo {i}").status_code == 200
                self.refresh(f"undo {i}", whole=True)
                self.submit(step)
                self.refresh(f"redo {i}")
            if self.variant == "reissue" and i == len(self.plan.steps) // 2:
                self.reissue_links(i)
            assert self.live().game.steps == self.plan.steps[: i + 1]
        self.refresh("end", whole=True)
        self.around_the_edges("end")
        self.download_then_undo()

    def create_by_form(self) -> int:
        plan = self.plan
        self.note("tablet", "home", self.tablet.get("/"))
        form = {"csrf": csrf_of(self.last["tablet"]), **plan.form}
        created = self.tablet.post("/tables", data=form)
        self.note("tablet", "create", created)
        assert created.status_code == 303, created.text
        self.table_id = created.headers["Location"].split("/t/")[1]
        self.referee_token = self.live().table.referee_token
        self.learn_tokens()
        self.get("tablet", "", "lobby")
        self.new_tv()
        for i, name in enumerate(plan.names):
            if self.hands[name] is None:
                self.post("tablet", f"/seat/{i}/tracked", {"tracked": "0"}, "untrack")
        for name, hand in self.hands.items():
            if hand is None:
                continue
            self.new_phone(name, "")
            self.refresh(f"{name} opened")
            response = self.post(name, "/hand", {"card1": hand[0], "card2": hand[1]}, "hand")
            assert response.status_code == 200, response.text
            self.refresh(f"{name} entered")
        assert self.post("tablet", "/start", {}, "start").status_code == 200
        assert self.live().game.setup == new_game({**plan.setup, "hands": self.hands}).setup
        return 0

    def create_by_import(self) -> int:
        """The first third of the game as a record, loaded on the start page."""
        played = len(self.plan.steps) // 3
        record = {"format": "coup-record/1", **self.plan.setup, "hands": self.hands,
                  "steps": self.plan.steps[:played]}
        self.note("tablet", "home", self.tablet.get("/"))
        upload = {"csrf": csrf_of(self.last["tablet"]),
                  "record": (io.BytesIO(json.dumps(record).encode()), "night.json")}
        created = self.tablet.post("/tables/import", data=upload,
                                   content_type="multipart/form-data")
        self.note("tablet", "import", created)
        assert created.status_code == 303, created.text
        self.table_id = created.headers["Location"].split("/t/")[1]
        self.referee_token = self.live().table.referee_token
        self.learn_tokens()
        self.get("tablet", "", "imported")
        self.new_tv()
        self.get("tablet", "/phones", "phones page", holds=False)
        for name, hand in self.hands.items():
            if hand is not None:
                self.new_phone(name, "/view")  # an unclaimed link's refresh claims it too
                self.refresh(f"{name} opened")
        return played

    def new_tv(self) -> None:
        """A spectators' board opens the link the tablet shows."""
        match = WATCH.search(self.last["tablet"])
        assert match, "no spectators' link on the tablet"
        self.watch = match.group(1)
        self.clients["tv"] = self.app.test_client()
        self.get("tv", "", "tv opens")

    def reissue_links(self, i: int) -> None:
        """New links for X and one other seat with a phone; new phones open them by their
        refresh. The old phones are then shown nothing at all."""
        others = [n for n in self.plan.names if self.hands[n] is not None and n != self.plan.x]
        for name in [self.plan.x, *others[:1]]:
            seat = self.plan.names.index(name)
            assert self.post("tablet", f"/seat/{seat}/reissue", {}, f"new code {name}") \
                .status_code == 200
            old = f"old {name}"
            self.clients[old], self.links[old] = self.clients.pop(name), self.links.pop(name)
            self.seen[old], self.last[old] = self.seen.pop(name), self.last.pop(name)
            self.learn_tokens()
            self.new_phone(name, "/view")
            for path in ("", "/view", "/rules"):
                assert self.client(old).get(self.links[old] + path).status_code == 404
            self.refresh(f"reissued {name} at {i}", whole=True)

    def late_device(self, label: str) -> None:
        """Another device tries every seat link a phone holds: refused, and shown nothing."""
        late = self.clients.setdefault("late", self.app.test_client())
        for name, link in list(self.links.items()):
            if not name.startswith("old "):
                for path in ("", "/view", "/rules", "/timeline"):
                    response = late.get(link + path)
                    assert response.status_code == 403, (name, path)
                    self.note("late", f"{label} {name}{path}", response)

    def download_then_undo(self) -> None:
        """At the end the referee downloads the record, then tries to undo. The record holds
        every hand by design, so its body is kept out of the comparison; what follows it on
        every screen is compared."""
        held = self.last["tablet"]
        response = self.tablet.post(self.base("tablet") + "/record.json", data={
            "csrf": csrf_of(held), "version": version_of(held)})
        self.seen["tablet"].append(("download", response.status_code, response.mimetype,
                                    "[record]" if response.status_code == 200 else
                                    response.get_data(as_text=True)))
        self.refresh("downloaded", whole=True)
        undo = self.post("tablet", "/undo", {}, "undo after download")
        if self.live().game.over and response.status_code == 200:
            assert undo.status_code == 422, "a downloaded game was undone"
        self.refresh("after the undo", whole=True)
        self.late_device("end")

    def around_the_edges(self, label: str) -> None:
        """The rules page, the start of each event stream, and what a phone is refused."""
        version = self.live().version
        for device in self.devices():
            if device.startswith("old "):
                continue
            if not self.live().game.over:  # refused: the timeline shows every hand
                response = self.client(device).get(self.base(device) + "/timeline")
                assert response.status_code == 409, device
            self.get(device, "/timeline", f"{label} timeline", holds=False)
            self.get(device, "/rules", f"{label} rules", holds=False)
            response = self.client(device).get(f"{self.base(device)}/view?since={version}")
            assert response.status_code == 204
            self.note(device, f"{label} unchanged", response)
            stream = self.client(device).get(self.base(device) + "/events")
            first = next(iter(stream.response))
            stream.close()
            self.seen[device].append((f"{label} events", stream.status_code, stream.mimetype,
                                      first.decode() if isinstance(first, bytes) else first))
        # the players' page: of a game an undo could reopen, only what everyone saw
        self.note("tv", f"{label} players", self.client("tv").get("/players"), holds=False)
        for device in self.links:
            response = self.client(device).post(f"/t/{self.table_id}/record.json")
            assert response.status_code == 403
            self.note(device, f"{label} record refused", response)

    def submit(self, step: dict[str, Any]) -> None:
        game: Game = self.live().game
        do, by = step["do"], step.get("by")
        with_phone = by is not None and self.hands[by] is not None
        # Where phones answer, every other public step of a seat with a phone is tapped there.
        answers_on_phones = self.plan.form.get("answers", "both") == "both"
        public_on_phone = answers_on_phones and len(game.steps) % 2 == 0
        phone = with_phone and (do in PRIVATE_STEPS or public_on_phone)
        device = by if phone else "tablet"
        data: dict[str, Any] = {"do": do}
        for key in ("target", "as", "card", "cards"):
            if key in step:
                data[key] = step[key]
        target = blind_target(game)
        if do == "show" and "card" in step and target is not None:
            # Picked blind by the examiner: by its place in the target's hand, as the
            # template's "Card 1 / Card 2" buttons do.
            hand = game.player(target).hand or []
            data["position"] = str(hand.index(data.pop("card")))
        if not phone and by is not None:
            data["by"] = by
        response = self.post(device, "/step", data, f"step {do}")
        assert response.status_code == 200, (step, response.text)

    def check_secrets(self) -> None:
        """The referee's key is only ever a cookie; a phone's pages hold neither another
        seat's token (its hand) nor the table's address (the referee's screen)."""
        for device, entries in self.seen.items():
            bodies = [body for *_, body in entries]
            assert not any(self.referee_token in body for body in bodies)
            if device in ("tv", "shared parts", "own regions"):
                for token, _mask in self.tokens:
                    assert not any(token in body for body in bodies), device
            if device in ("tablet", "late", "tv", "shared parts", "own regions"):
                continue
            mine = self.links[device].split("/s/")[1]
            for token, _mask in self.tokens:
                if token != mine:
                    assert not any(token in body for body in bodies), device
            assert not any(self.table_id in body for body in bodies), device

    def masked(self) -> dict[str, list[tuple[str, int, str, str]]]:
        qr = {views.qr_svg(f"{PUBLIC}/s/{token}"): f"[QR {mask}]" for token, mask in self.tokens}
        watch_key = self.watch.rsplit("/", 1)[-1]

        def mask(text: str) -> str:
            for svg, label in qr.items():
                text = text.replace(str(svg), label)
            text = CSRF_FIELD.sub('name="csrf" value="[csrf]"', text)
            text = text.replace(self.table_id, "[table]").replace(watch_key, "[watch]")
            for token, label in self.tokens:
                text = text.replace(token, label)
            return text

        return {device: [(w, s, m, mask(b)) for w, s, m, b in entries]
                for device, entries in self.seen.items()}


def first_difference(a: list[tuple[str, int, str, str]], b: list[tuple[str, int, str, str]]) -> str:
    for one, two in zip(a, b, strict=False):
        if one != two:
            diff = difflib.unified_diff(one[3].splitlines(), two[3].splitlines(), lineterm="",
                                        n=2)
            return f"{one[:3]} vs {two[:3]}\n" + "\n".join(list(diff)[:40])
    return f"{len(a)} responses vs {len(b)}"


@pytest.fixture(autouse=True)
def remembered_qr_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A QR code is a pure function of its link and takes ~40 ms; the lobby redraws them all
    on every refresh. Remembering them keeps this file fast and changes no byte sent."""
    monkeypatch.setattr(views, "qr_svg", functools.lru_cache(maxsize=None)(views.qr_svg))


VARIANTS = ("form", "import", "reissue")


def mostly_official(rng: random.Random) -> Chooser:
    """Each rule setting left at the official value seven times in ten (the explorer's own
    chooser varies them more than a table usually does, and fewer deals keep every step legal
    for a second hand)."""
    return lambda options, label: options[0] if rng.random() < 0.7 else rng.choice(options)


def test_other_devices_cannot_tell_two_deals_apart(tmp_path: Path):
    probe = make_app(tmp_path / "probe")
    played: dict[str, int] = defaultdict(int)
    shared = own = 0
    for seed in SEEDS:
        plan = make_plan(seed, probe)
        if plan is None:
            continue
        variant = VARIANTS[seed % len(VARIANTS)]
        a = Night(tmp_path / f"{seed}-a", plan, plan.hands, variant)
        a.play()
        b = Night(tmp_path / f"{seed}-b", plan, {**plan.hands, plan.x: plan.hand_b}, variant)
        b.play()
        seen_a, seen_b = a.masked(), b.masked()
        assert set(seen_a) == set(seen_b)
        for night in (a, b):
            night.check_secrets()
        xs = {plan.x, f"old {plan.x}"}  # X's phones, the one before a new link included
        for device in seen_a:
            if device in xs:
                continue
            assert seen_a[device] == seen_b[device], (
                f"seed {seed} ({variant}): {device} can tell {plan.x}'s {plan.hands[plan.x]} "
                f"from {plan.hand_b}: " + first_difference(seen_a[device], seen_b[device]))
        assert a.recorder.versions == b.recorder.versions  # what every event stream carries
        # X's own phones do see X's cards.
        assert [seen_a.get(x) for x in sorted(xs)] != [seen_b.get(x) for x in sorted(xs)]
        played[variant] += 1
        shared += len(seen_a.get("shared parts", []))
        own += len(seen_a.get("own regions", []))
    assert sum(played.values()) >= len(SEEDS) // 2, f"only {played} seeds had a second deal"
    assert set(played) == set(VARIANTS), played
    assert shared, "no phone's shared parts were drawn: the comparison above saw none"
    assert own, "no seat's own region was remembered: the comparison above saw none"


def test_the_tablets_download_holds_no_hidden_card_during_a_game(tmp_path: Path):
    """The record holds every hand: while a game with phones is under way it is nobody's, and
    the tablet offers no Download button."""
    for i, ann in enumerate((["duke", "captain"], ["duke", "contessa"])):
        table = started_table(make_app(tmp_path / str(i)),
                              {"Ann": ann, "Bob": ["assassin", "ambassador"], "Cy": None})
        assert table.post("/step", {"do": "income", "by": "Ann"}).status_code == 200
        before = snapshot(table.app)
        response = table.download()
        assert response.status_code == 403
        assert "once the game is over" in response.text
        assert not re.search(r"duke|captain|contessa|assassin|ambassador", response.text)
        assert "Download" not in table.page()
        assert snapshot(table.app) == before


def test_downloading_closes_the_game_so_undo_cannot_reopen_it(tmp_path: Path):
    """Issue 11.2: the record of a finished game holds every hand. The screen says, before the
    download, that it closes the game for good; after it, no step of that game can be undone
    (undoing would reopen a game whose hidden cards the downloader knows)."""
    table = finished_game(make_app(tmp_path / "instance"))
    page = table.page()
    assert "Downloading it closes this game for good" in page
    assert re.search(r'<button type="submit"\s+>Undo<', page)  # undo is open until then
    record = table.download()
    assert record.status_code == 200 and record.json["hands"]["Bob"] == ["contessa", "assassin"]
    page = table.page()
    assert "this game is closed" in page
    assert re.search(r'<button type="submit"\s+disabled>Undo<', page)
    before = snapshot(table.app)
    refused = table.post("/undo", {})
    assert refused.status_code == 422 and "the game is closed" in refused.text
    assert snapshot(table.app) == before
    assert "Ann wins!" in table.page()
    again = table.download()  # the file can be had again; nothing more is closed
    assert again.status_code == 200 and again.json == record.json
    assert snapshot(table.app) == before
    assert table.post("/rematch", {}).status_code == 200  # the table plays on


def test_a_game_without_phones_downloads_at_any_time_and_stays_open(tmp_path: Path):
    """Nothing of a game without phones is hidden from the record's reader, so its download
    closes nothing."""
    table = started_table(make_app(tmp_path / "instance"), {"Ann": None, "Bob": None})
    assert table.post("/step", {"do": "income", "by": "Ann"}).status_code == 200
    assert "closes this game" not in table.page()
    record = table.download()
    assert record.status_code == 200 and record.json["hands"] == {"Ann": None, "Bob": None}
    assert table.post("/undo", {}).status_code == 200


def test_a_blind_examiner_cannot_probe_the_targets_hand(tmp_path: Path):
    answers = []
    for i, bob in enumerate((["contessa", "assassin"], ["duke", "contessa"])):
        table = started_table(make_app(tmp_path / str(i)),
                              {"Ann": ["inquisitor", "captain"], "Bob": bob, "Cy": None},
                              exchanger="inquisitor", examine_shown_by="examiner")
        assert table.post("/step", {"do": "examine", "by": "Ann", "target": "Bob"}).status_code \
            == 200
        assert table.post("/step", {"do": "pass"}).status_code == 200
        response = table.phone_post("Ann", "/step", {"do": "show", "card": "duke"})
        alert = re.findall(r'role="alert">([^<]*)<', response.text)
        answers.append((response.status_code, alert))
    assert answers[0] == answers[1], answers
