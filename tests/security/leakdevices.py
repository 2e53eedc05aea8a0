"""What each device of a leak-differential game is sent (tests/security/test_no_leaks.py):
every response noted per device, the events its stream carries, the parts every phone shares;
then the secrets checked and everything masked for comparison.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from leakkit import Plan
from pagekit import check_headers
from tablekit import CSRF_FIELD, HTMX, PUBLIC, csrf_of, make_app, version_of
from werkzeug.test import TestResponse

from app.live import Broker
from app.web import views
from app.web.screenregions import PHONE
from app.web.state import TableState

OWN_REGIONS = frozenset({"phone mine", *PHONE})
"""The regions remembered per seat, by its token (the key's second item)."""


class Recorder(Broker):
    """The app's broker, noting each version pushed to the streams."""

    def __init__(self) -> None:
        super().__init__()
        self.versions: list[int] = []

    def publish(self, table_id: str, version: int) -> None:
        self.versions.append(version)
        super().publish(table_id, version)


class Devices:
    """The devices of one game night through the test client, and everything each one is
    sent (:class:`leaknight.Night` plays the night)."""

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
        state = self.live()
        if state.game is not None and not state.lobby:  # each seat's view is made from it
            self.seen["shared parts"].append((f"{label} public view", state.version, "",
                                              repr(views.public_view(state))))
        self.own_regions(label, held)

    def own_regions(self, label: str, held: list[tuple[Any, Any, str]]) -> None:
        """Each seat's own regions, remembered by the seat's token until what they show
        changes: its coins and cards (app/web/phoneparts.py), its alert, private steps and
        answers (app/web/screenregions.py). Every seat's but X's must be the same whatever X
        holds. (X's own show X's hand, on X's phone only: the screens' comparison covers
        where it goes.) The referee's screen's regions are public: the screens cover them."""
        x_seat = f"[seat {self.plan.names.index(self.plan.x)}."
        masks = dict(self.tokens)
        own = sorted((f"{masks[screen[1]]} {screen[0]}", html.replace(screen[1], masks[screen[1]]))
                     for screen, _shows, html in held
                     if screen[0] in OWN_REGIONS and screen[1] in masks)  # its own links masked
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
