"""Game night's scoreboard (issue 14.2) through the test client: rematches add up, the target
names who reached it, undo takes a win back, and after a restart the night is folded once."""

from __future__ import annotations

import re

from nightwebkit import settings, settle
from tablekit import (
    finished_game,
    make_app,
)

# -- the night's scoreboard -------------------------------------------------------------------


def test_the_scoreboard_adds_up_rematches_and_names_who_reached_the_target(app):
    t = finished_game(app)
    assert settings(t, target="1") == 200
    page = t.page()
    assert "Tonight" in page and "first to 1 win" in page
    assert "Ann takes the night!" in page
    assert re.search(r"<span>Ann</span> <b>1</b>", page)
    assert t.post("/rematch", {}).status_code == 200
    lobby = t.page()
    assert re.search(r"<span>Ann</span> <b>1</b>", lobby)
    assert re.search(r"<span>Bob</span> <b>0</b>", lobby)
    assert "1 game played" in t.phone_page("Bob")


def test_the_scoreboard_follows_a_second_game_row_by_row(app):
    t = finished_game(app)
    assert t.post("/rematch", {}).status_code == 200
    assert "1 game played" in t.page()
    for name, hand in (("Ann", ["duke", "captain"]), ("Bob", ["contessa", "assassin"])):
        assert t.enter_hand(name, hand).status_code == 200
    assert t.post("/start", {}).status_code == 200
    assert "game played" not in t.page()  # mid-game: the scoreboard waits for the end
    turns = ({"do": "tax", "by": "Ann"}, {"do": "pass"}, {"do": "income", "by": "Bob"})
    for _round in range(3):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    assert t.phone_step("Bob", do="lose", card="assassin").status_code == 200
    assert t.post("/step", {"do": "income", "by": "Bob"}).status_code == 200
    for _round in range(2):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    page = t.page()
    assert "2 games played" in page and re.search(r"<span>Ann</span> <b>2</b>", page)
    assert t.live().night_winners == ("Ann", "Ann")
    assert t.post("/undo", {}).status_code == 200  # the last coup taken back
    assert "game played" not in t.page()
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    assert "2 games played" in t.page()


def test_after_a_restart_the_night_is_folded_once(app, tmp_path, monkeypatch):
    """The night's winners come from the one fold of the log: after a restart, drawing the
    tablet's lobby with the night's scoreboard applies each step of the log once, no more."""
    t = settle(finished_game(app))
    with app.extensions["tables"].pool.store() as store:
        rows = store.read(t.table_id).rows
    steps = len([r for r in rows if r.kind == "step" and "control" not in r.step])
    assert steps == 19
    restarted = make_app(tmp_path / "instance")
    tablet = restarted.test_client()
    for cookie in t.tablet._cookies.values():
        tablet.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
    import app.web.state as state_module

    applies = []
    real = state_module.apply

    def counted(game, step):
        applies.append(step)
        return real(game, step)

    monkeypatch.setattr(state_module, "apply", counted)
    page = tablet.get(t.url)
    assert page.status_code == 200 and "1 game played" in page.text
    assert len(applies) == steps  # each step of the log once, not once more for the night
    assert "1 game played" in tablet.get(t.url).text
    assert len(applies) == steps  # the next screen comes from the cache
