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

import functools
import re
from collections import defaultdict
from pathlib import Path

import pytest
from leakkit import first_difference, make_plan
from leaknight import Night
from tablekit import finished_game, make_app, snapshot, started_table

from app.web import views

SEEDS = range(7)


@pytest.fixture(autouse=True)
def remembered_qr_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A QR code is a pure function of its link and takes ~40 ms; the lobby redraws them all
    on every refresh. Remembering them keeps this file fast and changes no byte sent."""
    monkeypatch.setattr(views, "qr_svg", functools.lru_cache(maxsize=None)(views.qr_svg))


VARIANTS = ("form", "import", "reissue")


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
