"""What one request gets from the caches is shared with every other request (greenlet) at the
same version: it can't be changed, and a screen drawn from it is never another screen's.
Here: frozen states and JSON, and rendered fragments remembered per version (the stream's
events: test_screens_in_events.py; the parts every phone shares: test_shared_parts.py)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable

import pytest
from flask import Flask
from tablekit import (
    CSRF_FIELD,
    HTMX,
    Table,
    csrf_of,
    hand_of,
    stop_the_clock,
    version_of,
    view,
)

from app.frozen import FrozenDict, FrozenList, freeze
from app.live import Broker, LiveUpdates
from app.store import PlayerLog, TableLog
from app.web.fragments import CSRF_SLOT, Fragments
from app.web.security import referee_cookie


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
    # A fragment (no page of its own), in Russian, its screen saying so (app.js sets the
    # page's <html lang> from it):
    assert ann.status_code == 200 and "<html" not in ann.text
    assert 'lang="ru"' in ann.text.lstrip().split(">", 1)[0]
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


def test_the_tablets_screen_is_drawn_once_per_version_and_night(app: Flask, started: Table,
                                                               monkeypatch):
    """Its night parts (scoreboard, countdown, rulings to read aloud) are compared as values:
    fetched again unchanged, the screen is not drawn again; a change there draws it anew. The
    clock is stopped: a second passing between two fetches is a change (the countdown's)."""
    from app.web import tablet

    stop_the_clock(app, monkeypatch, 5)
    drawn: list[int] = []
    context = tablet.context
    monkeypatch.setattr(tablet, "context", lambda *a, **k: drawn.append(1) or context(*a, **k))
    answer = started.post("/night", {"timer": "30"})  # a new version, drawn for its answer
    assert answer.status_code == 200 and drawn
    drawn.clear()
    assert view(started.tablet, started.url) == view(started.tablet, started.url) == answer.text
    assert not drawn
    extras = tablet.night_extras
    monkeypatch.setattr(tablet, "night_extras", lambda state: {**extras(state), "timer_max": 1})
    assert view(started.tablet, started.url) and len(drawn) == 1


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
        "results", "aliases", "name_people", "language_of_device"}


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
