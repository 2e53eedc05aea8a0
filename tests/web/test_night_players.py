"""Game night's players across nights (issue 14.5) through the test client: the players' page
counts finished games over every table, renames and merges (a referee's, with its form), and
counts bluffs only of a game no undo can reopen. Bad input is refused with a message."""

from __future__ import annotations

import io
import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from nightwebkit import settle
from tablekit import (
    Table,
    csrf_of,
    finished_game,
    snapshot,
    started_table,
)

RECORDS = Path(__file__).resolve().parents[1] / "records"


# -- the players' page ------------------------------------------------------------------------


def players_form(client, path: str, **form: str):
    page = client.get("/players").text
    return client.post(path, data={"csrf": csrf_of(page), **form})

def test_the_players_page_counts_finished_games_across_tables(app):
    settle(finished_game(app))
    settle(finished_game(app))
    client = app.test_client()
    page = client.get("/players").text
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td[^>]*>(\d+)</td>'
                      r'<td[^>]*>(\d+)</td>', page)
    assert ("Ann", "2", "2") in rows and ("Bob", "2", "0") in rows
    assert "Duke" in page  # Ann's favourite claim


def test_rename_and_merge(app):
    client = settle(finished_game(app)).tablet  # the referee's device
    renamed = players_form(client, "/players/rename", name="Bob", new="  Robert ")
    assert renamed.status_code == 303
    page = client.get(renamed.headers["Location"]).text
    assert "Bob is now called Robert." in page
    assert ">Robert<" in page and ">Bob<" not in page
    settle(finish(app, "Rob", "Cleo"))  # the same person, under another name
    assert players_form(client, "/players/merge", name="Rob", into="Robert").status_code == 303
    page = client.get("/players?done=merge&name=Rob&other=Robert").text
    assert "Rob’s games now count for Robert." in page
    assert re.search(r'<th scope="row">Robert</th><td[^>]*>2</td><td[^>]*>1</td>', page)
    assert ">Rob<" not in page
    settle(finish(app, "Cleo", "Bob"))  # a new night with "Bob": still Robert's now
    page = client.get("/players").text
    assert re.search(r'<th scope="row">Robert</th><td[^>]*>3</td><td[^>]*>1</td>', page)


def test_two_players_who_sat_at_one_game_are_not_merged(app):
    """Merging them would count their game twice (two games, one of them a win and a loss at
    once): refused with a message, and nothing changes."""
    client = settle(finished_game(app)).tablet  # the referee's device
    assert players_form(client, "/players/rename", name="Bob", new="Robert").status_code == 303
    before = snapshot(app)
    refused = players_form(client, "/players/merge", name="Robert", into="Ann")
    assert refused.status_code == 422
    assert "Robert and Ann played in the same game" in refused.text
    assert snapshot(app) == before
    page = client.get("/players").text
    assert re.search(r'<th scope="row">Ann</th><td[^>]*>1</td><td[^>]*>1</td>', page)
    assert re.search(r'<th scope="row">Robert</th><td[^>]*>1</td><td[^>]*>0</td>', page)


@pytest.mark.parametrize("path,form", [
    ("/players/rename", {"name": "Bob", "new": ""}),
    ("/players/rename", {"name": "Bob", "new": "   "}),
    ("/players/rename", {"name": "Bob", "new": "x" * 300}),
    ("/players/rename", {"name": "Bob", "new": "Bo\u200bb"}),
    ("/players/rename", {"name": "Bob", "new": "ANN"}),
    ("/players/rename", {"name": "Nobody", "new": "Zed"}),
    ("/players/rename", {"new": "Zed"}),
    ("/players/merge", {"name": "Bob", "into": "Bob"}),
    ("/players/merge", {"name": "Bob", "into": "Nobody"}),
    ("/players/merge", {"name": "\x00", "into": "Ann"}),
    ("/players/merge", {}),
])
def test_bad_renames_and_merges_are_refused_with_a_message(app, path, form):
    client = settle(finished_game(app)).tablet  # the referee's device
    response = players_form(client, path, **form)
    assert response.status_code == 422, response.text
    assert 'role="alert"' in response.text


def test_players_changes_need_the_form(app):
    client = settle(finished_game(app)).tablet  # the referee's device
    assert client.post("/players/rename", data={"name": "Bob", "new": "Z"}).status_code == 400
    assert ">Bob<" in client.get("/players").text



def test_only_a_referee_renames_or_merges_and_a_merge_asks_first(app):
    """Issue 14.4: the TV or a guest's phone sees the numbers, not the tools; its posts are
    refused with a message and change nothing. A referee's merge button asks before it acts."""
    t = settle(finished_game(app))
    settle(finish(app, "Rob", "Cleo"))
    stolen = csrf_of(t.tablet.get("/players").text)  # a referee's form token, copied
    for guest in (app.test_client(), t.phones["Bob"]):
        page = guest.get("/players").text
        assert "Only a referee’s device" in page
        assert "/players/rename" not in page and "/players/merge" not in page
        before = snapshot(app)
        for path, form in (("/players/rename", {"name": "Bob", "new": "Zed"}),
                           ("/players/merge", {"name": "Rob", "into": "Bob"})):
            refused = guest.post(path, data={"csrf": stolen, **form})
            assert refused.status_code == 403
            assert "Only a referee’s device" in refused.text
        assert snapshot(app) == before
    forged = app.test_client()
    forged.set_cookie("coup_ref_" + t.table_id, "not-the-key")
    forged.set_cookie("coup_ref_nonsense", "x")
    assert forged.post("/players/rename", data={"csrf": stolen, "name": "Bob", "new": "Zed"}
                       ).status_code == 403
    page = t.tablet.get("/players").text
    merge = page[page.index('action="/players/merge"'):]
    assert re.search(r'<button type="submit" data-confirm="[^"]*can’t be undone', merge)
    assert "can’t be undone" in merge[:merge.index("data-confirm")]
    for bad in ("/players?done=merge&name=Rob", "/players?done=x&name=a&other=b",
                "/players?done=rename&name=" + "x" * 5000 + "&other=y"):
        assert t.tablet.get(bad).status_code == 200


def finish(app, winner: str, loser: str) -> Table:
    """``winner`` beats ``loser`` with taxes and two coups (as tablekit's finished_game)."""
    t = started_table(app, {winner: ["duke", "captain"], loser: ["contessa", "assassin"]})
    turns = ({"do": "tax", "by": winner}, {"do": "pass"}, {"do": "income", "by": loser})
    for _round in range(3):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": winner, "target": loser}).status_code == 200
    assert t.phone_post(loser, "/step", {"do": "lose", "card": "assassin"}).status_code == 200
    assert t.post("/step", {"do": "income", "by": loser}).status_code == 200
    for _round in range(2):
        for step in turns:
            assert t.post("/step", step).status_code == 200
    assert t.post("/step", {"do": "coup", "by": winner, "target": loser}).status_code == 200
    assert t.live().game.winner == winner
    return t


def test_names_that_look_the_same_are_one_player(app):
    settle(finish(app, "Ann", "Bob"))
    settle(finish(app, "ann", "Cleo"))
    page = app.test_client().get("/players").text
    assert re.search(r'<th scope="row">Ann</th><td[^>]*>2</td><td[^>]*>2</td>', page)
    assert ">ann<" not in page


def player_row(page: str, name: str) -> list[str] | None:
    """A player's cells on the players' page: games, wins, bluff rate, challenge accuracy."""
    match = re.search(rf'<th scope="row">{name}</th><td[^>]*>(\d+)</td><td[^>]*>(\d+)</td>'
                      r'\s*<td[^>]*>([^<]*)</td>\s*<td[^>]*>([^<]*)</td>', page)
    return list(match.groups()) if match else None


def test_a_game_counts_as_soon_as_it_ends_and_an_undo_takes_it_out(app):
    """Games and wins count the moment a game ends; the undo of its last step takes it out
    again, in the same transaction as the undo's log row."""
    t = finish(app, "Ann", "Bob")
    client = app.test_client()
    assert player_row(client.get("/players").text, "Ann")[:2] == ["1", "1"]
    assert t.post("/undo", {}).status_code == 200
    assert "No game has finished" in client.get("/players").text
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    page = client.get("/players").text
    assert player_row(page, "Ann")[:2] == ["1", "1"] and player_row(page, "Bob")[:2] == ["1", "0"]


def test_uncaught_bluffs_count_only_once_no_undo_can_reopen_the_game(app):
    """The bluff rate tells whose unchallenged claims were bluffs, which an undo would let
    back into a game under way: it counts once the game is settled (rematch or closed)."""
    t = finish(app, "Ann", "Bob")  # Ann's three taxes: she held the Duke, no bluff
    client = app.test_client()
    assert player_row(client.get("/players").text, "Ann") == ["1", "1", "—", "—"]
    settle(t)
    assert player_row(client.get("/players").text, "Ann") == ["1", "1", "0%", "—"]
    opened = finish(app, "Cleo", "Dan")
    assert player_row(client.get("/players").text, "Cleo")[2] == "—"
    assert opened.phone_post("Dan", "/timeline", {}).status_code == 303  # closes it
    assert player_row(client.get("/players").text, "Cleo")[2] == "0%"


def test_a_game_s_end_and_its_numbers_land_together_or_not_at_all(app, monkeypatch):
    t = finish(app, "Ann", "Bob")
    assert t.post("/undo", {}).status_code == 200
    before = snapshot(app)
    from app.store import Writing

    def broken(self, result):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Writing, "keep_result", broken)
    failed = t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"})
    assert failed.status_code == 503 and "the game is as it was" in failed.text
    assert snapshot(app) == before  # neither the winning step nor its numbers
    monkeypatch.undo()
    assert t.post("/step", {"do": "coup", "by": "Ann", "target": "Bob"}).status_code == 200
    after = snapshot(app)
    assert len(after["steps"]) == len(before["steps"]) + 1 and len(after["night_games"]) == 1


def import_record(app, name: str) -> None:
    client = app.test_client()
    record = (RECORDS / name).read_bytes()
    data = {"csrf": csrf_of(client.get("/").text), "record": (io.BytesIO(record), "r.json")}
    assert client.post("/tables/import", data=data,
                       content_type="multipart/form-data").status_code == 303


def test_the_players_page_writes_nothing(app):
    """Every game is noted by the write that ends it (an imported finished game by the
    import's own transaction), so the players' page has nothing left to write."""
    settle(finished_game(app))
    finish(app, "Cleo", "Dan")
    import_record(app, "34-two-player-game-forced-coup.json")
    before = snapshot(app)
    assert len(before["night_games"]) == 3
    visitor = app.test_client()
    for _ in range(2):
        page = visitor.get("/players").text
        assert player_row(page, "Max")[:2] == ["1", "1"]  # the imported game counts
    assert snapshot(app) == before



def test_a_tie_for_favourite_claim_shows_every_card_of_it():
    """Issue 14.7: not the one that happened to be claimed first."""

    from app.web.stats import _favourite

    assert _favourite(Counter({"duke": 2, "captain": 2, "ambassador": 1})) == ("captain", "duke")
    assert _favourite(Counter({"captain": 1, "duke": 3})) == ("duke",)
    assert _favourite(Counter()) == () and _favourite(None) == ()


def test_the_players_page_speaks_the_phone_s_chosen_language(app):
    """Issue 14 (outside check): a phone that chose Russian reads the players' page in Russian
    whatever its browser prefers, as its seat's other pages; a phone that chose nothing reads
    its table's language; a device with no seat (or a forged cookie) follows its browser."""
    t = settle(finished_game(app))
    english = {"Accept-Language": "en"}
    assert t.phone_post("Bob", "/language", {"language": "ru"}).status_code in (200, 303)
    bob = t.phones["Bob"].get("/players", headers=english)
    assert bob.status_code == 200
    assert '<html lang="ru"' in bob.text and "<h1>Игроки</h1>" in bob.text
    ann = t.phones["Ann"].get("/players", headers=english)  # chose nothing: the table's
    assert '<html lang="en"' in ann.text and "<h1>Players</h1>" in ann.text
    guest = app.test_client()
    assert '<html lang="uk"' in guest.get("/players", headers={"Accept-Language": "uk"}).text
    forged = app.test_client()
    forged.set_cookie("coup_device", "x' OR 1=1 --")
    assert '<html lang="ja"' in forged.get("/players", headers={"Accept-Language": "ja"}).text
    refused = t.phones["Bob"].post("/players/rename", data={"name": "Bob", "new": "Zed"},
                                   headers=english)
    assert refused.status_code == 403 and '<html lang="ru"' in refused.text


def test_a_merge_names_its_two_players_and_a_refusal_stands_by_its_form(app):
    """Issue 14 (outside check): the question before a merge names the two players chosen
    (tablet.js fills them in), and "played in the same game" stands in the merge form, which
    keeps the two names chosen; a refused rename stands in the rename form."""
    client = settle(finished_game(app)).tablet  # the referee's device
    page = client.get("/players").text
    assert ('data-confirm-names="Merge {name} into {into}? Every game of {name} becomes '
            '{into}’s. This can’t be undone."') in page
    refused = players_form(client, "/players/merge", name="Bob", into="Ann")
    assert refused.status_code == 422
    merge = refused.text[refused.text.index('action="/players/merge"'):]
    merge = merge[:merge.index("</form>")]
    assert re.search(r'<p class="field-problem" role="alert">Bob and Ann played in the same '
                     r'game', merge)
    assert "<option selected>Bob</option>" in merge[:merge.index('name="into"')]
    assert "<option selected>Ann</option>" in merge[merge.index('name="into"'):]
    top = refused.text[:refused.text.index('class="player-tools"')]
    assert "played in the same game" not in top
    renamed = players_form(client, "/players/rename", name="Bob", new="ANN")
    assert renamed.status_code == 422
    rename = renamed.text[renamed.text.index('action="/players/rename"'):]
    rename = rename[:rename.index("</form>")]
    assert 'class="field-problem" role="alert"' in rename and 'value="ANN"' in rename
    hostile = players_form(client, "/players/merge", name="<b>x</b>", into="Ann")
    assert hostile.status_code == 422 and "<b>x</b>" not in hostile.text
