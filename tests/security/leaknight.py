"""One game night of the leak-differential test (tests/security/test_no_leaks.py): how the
table comes to be, the game played step by step from the tablet and the phones, and what is
tried around the edges.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

from leakdevices import Devices
from tablekit import csrf_of, version_of

from app.engine import STEPS, Game, blind_target, new_game

WATCH = re.compile(r'href="http://coup\.test(/w/[^"]+)"')
FULL_PAGE_EVERY = 8  # the fragment is fetched after every step, the whole page this often
UNDO_EVERY = 6  # so often a step is undone (the tablet lists undone steps) and redone
PRIVATE_STEPS = {name for name, kind in STEPS.items() if kind.private}


class Night(Devices):
    """One game night through the test client, noting everything each device is sent.

    ``variant`` is how the table came to be and what happens on the way: "form" (the set-up
    form, each phone opening its page), "import" (a record of the first steps uploaded on the
    start page; each phone's first look is the refresh, /view, of an unclaimed link) or
    "reissue" (the set-up form, then mid-game the referee gives X and another seat new links,
    which new phones open by their refresh). In every variant a late device tries each seat's
    link once the phones hold them, and at the end the referee downloads the record and tries
    to undo."""

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
