"""What an outside attacker found after round two (issue 11), each fixed and kept fixed:
an undo that let an examiner see a second card, a closed game reopened through an import, a
500 on a half character in an upload, names that hide characters or look like another's,
records that take the command line's terminal over, and a seat claimed by a HEAD request."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from flask import Flask
from tablekit import csrf_of, finished_game, new_table, started_table

from app.cli import main
from app.engine import RuleError, check_names

BLIND = {"exchanger": "inquisitor", "examine_shown_by": "examiner"}


def test_undo_cannot_take_back_a_card_shown_to_the_inquisitor(app: Flask):
    """E-30: the examiner saw the card; undoing the show would let them pick a second."""
    t = started_table(app, {"Ann": ["inquisitor", "captain"], "Bob": ["assassin", "contessa"],
                            "Cy": ["duke", "contessa"]}, **BLIND)
    assert t.step(do="examine", by="Ann", target="Cy").status_code == 200
    assert t.step(do="pass").status_code == 200
    assert t.phone_step("Ann", do="show", position="0").status_code == 200
    steps = t.steps()
    refused = t.post("/undo", {})
    assert refused.status_code == 422 and "taken back" in refused.text
    assert t.steps() == steps  # the show stands


def upload(app: Flask, record: bytes):
    client = app.test_client()
    home = client.get("/")
    return client.post("/tables/import", data={
        "csrf": csrf_of(home.text), "record": (io.BytesIO(record), "night.json")},
        content_type="multipart/form-data")


def test_an_imported_finished_game_cannot_be_undone(app: Flask):
    """Download, import, undo would reopen a game whose hands the importer knows."""
    finished = finished_game(app)
    record = finished.download().data
    created = upload(app, record)
    assert created.status_code == 303
    table_id = created.headers["Location"].split("/t/")[1]
    client = app.test_client()
    client.set_cookie(f"coup_ref_{table_id}", app.extensions["tables"].load(table_id)
                      .table.referee_token)
    page = client.get(f"/t/{table_id}").text
    undo = client.post(f"/t/{table_id}/undo", data={"csrf": csrf_of(page),
                                                   "version": page.split('data-version="')[1]
                                                   .split('"')[0]})
    assert undo.status_code == 422
    assert app.extensions["tables"].load(table_id).game.over


@pytest.mark.parametrize("where", ["key", "player", "step"])
def test_a_lone_surrogate_in_an_uploaded_record_gets_one_clear_message(app: Flask, where: str):
    record = {"format": "coup-record/1", "players": ["Ann", "Bob"],
              "hands": {"Ann": None, "Bob": None}, "steps": []}
    if where == "key":
        record["\udfff"] = 1
    elif where == "player":
        record["first"] = "\ud800"
    else:
        record["steps"] = [{"by": "Ann", "do": "\ud800"}]
    text = json.dumps(record)  # ensure_ascii: the escape itself, as an attacker sends it
    response = upload(app, text.encode())
    assert response.status_code == 422 and "half of a character" in response.text


def test_a_record_of_too_many_steps_is_refused(app: Flask):
    steps = [{"by": name, "do": "income"} for _ in range(501) for name in ("Ann", "Bob")]
    record = {"format": "coup-record/1", "players": ["Ann", "Bob"],
              "hands": {"Ann": None, "Bob": None}, "rules": {"coins_in_box": 5000},
              "steps": steps}
    response = upload(app, json.dumps(record).encode())
    assert response.status_code == 422 and "at most 1000 steps" in response.text


@pytest.mark.parametrize("names", [
    ["Ann", "\u0410nn"],  # a Cyrillic А
    ["Jos\u00e9", "Jose\u0301"],  # é composed, and e with a combining accent
    ["Ann", "Ann\u200b"],  # a zero-width space
    ["B\u202eob", "Cy"],  # a right-to-left override
    ["Ann\x1b[2J", "Bob"],  # a terminal's escape code
])
def test_names_that_hide_characters_or_look_alike_are_refused(app: Flask, names: list[str]):
    with pytest.raises(RuleError):
        check_names(names)
    client = app.test_client()
    home = client.get("/")
    response = client.post("/tables", data={"csrf": csrf_of(home.text),
                                            "players": "\n".join(names)})
    assert response.status_code == 422


def test_the_command_line_shows_escape_codes_instead_of_obeying_them(tmp_path: Path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "coup-record/1", "players": ["A", "B"],
                                "hands": {"A": None, "B": None},
                                "steps": [{"do": "x\x1b]0;pwned\x07"}]}))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\\u001b]0;pwned\\u0007" in out


def test_check_goes_on_past_a_folder(tmp_path: Path, capsys):
    good = Path(__file__).resolve().parents[1] / "records" / "01-worked-example.json"
    folder = tmp_path / "folder.json"
    folder.mkdir()
    assert main(["check", str(good), str(folder), str(good)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["PASS", "INVALID", "PASS"]
    assert "folder" in lines[1]


def test_head_on_a_seat_link_claims_nothing(app: Flask):
    """A link previewer's HEAD must not take the seat from its player."""
    table = new_table(app, ["Eve", "Fay"])
    previewer, owner = app.test_client(), app.test_client()
    assert previewer.head(table.link("Eve")).status_code == 405
    assert owner.get(table.link("Eve")).status_code == 200  # the player still claims it
    assert previewer.get(table.link("Eve")).status_code == 403


def test_a_public_host_name_is_refused(app: Flask):
    """A page on a public domain that resolves to the laptop (DNS rebinding) gets nothing."""
    client = app.test_client()
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 421
    home = client.get("/")
    posted = client.post("/tables", data={"csrf": csrf_of(home.text), "players": "Ann\nBob"},
                         headers={"Host": "evil.example"})
    assert posted.status_code == 421
    for host in ("192.168.1.20:5000", "localhost", "coup-laptop", "coup.local"):
        assert client.get("/healthz", headers={"Host": host}).status_code == 200


# -- round three of the outside attacker (issue 11): what was still found on a fresh clone ---


@pytest.mark.parametrize("host", ["a" * 64, "a" * 64 + ".local", "x" * 300, "\u00e9" * 70])
def test_a_host_header_that_cannot_be_a_host_name_gets_a_400_not_a_500(app: Flask, host: str):
    """A label over 63 characters made werkzeug's router fail before any check of ours: a 500
    and 191 lines of traceback on the laptop's terminal per request."""
    client = app.test_client()
    for path in ("/healthz", "/", "/s/anything"):
        answer = client.get(path, headers={"Host": host})
        assert answer.status_code == 400 and "Host" in answer.text, (path, answer.status_code)
    assert client.get("/healthz", headers={"Host": "a" * 63}).status_code == 200


def test_a_busy_database_answers_503_and_changes_nothing(tmp_path: Path, monkeypatch):
    """Another program holding the database's write lock: the tap is refused in words, with
    nothing written, instead of a 500 after the wait."""
    import sqlite3

    from tablekit import make_app, snapshot

    import app.schema

    monkeypatch.setattr(app.schema, "BUSY_TIMEOUT_S", 0.2)
    flask_app = make_app(tmp_path / "instance")
    client = flask_app.test_client()
    csrf = csrf_of(client.get("/").text)
    before = snapshot(flask_app)
    holder = sqlite3.connect(flask_app.config["DATABASE"], isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        answer = client.post("/tables", data={"csrf": csrf, "players": "Ann\nBob"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert answer.status_code == 503 and "busy" in answer.text
    assert snapshot(flask_app) == before
    assert client.post("/tables", data={"csrf": csrf, "players": "Ann\nBob"}).status_code == 303


def test_a_read_only_database_is_said_in_words(app: Flask, monkeypatch):
    import sqlite3

    def read_only(*args, **kwargs):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(app.extensions["tables"], "create", read_only)
    client = app.test_client()
    answer = client.post("/tables", data={"csrf": csrf_of(client.get("/").text),
                                          "players": "Ann\nBob"})
    assert answer.status_code == 503 and "read-only" in answer.text


def test_a_new_database_is_readable_by_its_user_only(tmp_path: Path):
    """It holds every hand and every referee key (the secret key was already 0600)."""
    import os
    import stat

    from app import database_file, instance

    folder = tmp_path / "instance"
    instance.prepare(folder)
    database = database_file.check_database(folder)
    if os.name == "posix":
        assert stat.S_IMODE(database.stat().st_mode) == 0o600
    assert main(["import", str(Path(__file__).parents[1] / "records" / "01-worked-example.json"),
                 "--instance", str(folder), "--public-url", "http://10.0.0.7:5000/"]) == 0
    if os.name == "posix":
        assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_a_damaged_database_is_said_in_one_line(tmp_path: Path):
    import random
    import sqlite3

    from app import database_file, instance

    folder = tmp_path / "instance"
    instance.prepare(folder)
    database = folder / instance.DATABASE
    conn = sqlite3.connect(database)
    conn.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, body TEXT)")
    conn.execute("CREATE TABLE seats (id TEXT)")
    conn.execute("CREATE TABLE steps (id TEXT)")
    conn.execute("CREATE INDEX body ON tables (body)")
    conn.executemany("INSERT INTO tables VALUES (?, ?)",
                     [(str(i), "x" * 200) for i in range(3000)])
    conn.commit()
    conn.close()
    data = bytearray(database.read_bytes())
    noise = random.Random(7)
    for offset in range(4096 * 3, min(len(data), 4096 * 40)):
        data[offset] = noise.randrange(256)
    database.write_bytes(bytes(data))
    with pytest.raises(instance.InstanceProblem) as problem:
        database_file.check_database(folder)
    said = str(problem.value)
    assert "\n" not in said and len(said) < 400, said


@pytest.mark.parametrize("how", ["command line", "upload"])
def test_a_record_saved_with_a_byte_order_mark_loads(app: Flask, tmp_path: Path, how: str,
                                                     capsys):
    """Windows' Notepad starts a UTF-8 file with a byte order mark."""
    worked = (Path(__file__).parents[1] / "records" / "01-worked-example.json").read_bytes()
    marked = b"\xef\xbb\xbf" + worked
    if how == "upload":
        assert upload(app, marked).status_code == 303
    else:
        path = tmp_path / "notepad.json"
        path.write_bytes(marked)
        assert main(["check", str(path)]) == 0
        assert capsys.readouterr().out.startswith("PASS")


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e99999"])
def test_nan_and_infinity_are_not_numbers_a_record_holds(app: Flask, tmp_path: Path,
                                                          value: str, capsys):
    worked = json.loads((Path(__file__).parents[1] / "records" / "01-worked-example.json")
                        .read_text())
    worked["expect"] = {"coins": {"Ann": "PLACEHOLDER"}}
    text = json.dumps(worked).replace('"PLACEHOLDER"', value)
    path = tmp_path / "odd.json"
    path.write_text(text)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("INVALID") and "no number a record may hold" in out
    answer = upload(app, text.encode())
    assert answer.status_code == 422 and "no number a record may hold" in answer.text


@pytest.mark.parametrize("agent", [
    "facebookexternalhit/1.1 Facebot Twitterbot/1.0",  # iMessage's preview
    "WhatsApp/2.23.20.0 A", "TelegramBot (like TwitterBot)", "Slackbot-LinkExpanding 1.0",
    "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"])
def test_a_link_preview_claims_no_seat(app: Flask, agent: str):
    """A seat link pasted into a chat is fetched by the chat to draw its preview: that fetch
    must neither see the hand nor take the seat from its player."""
    table = new_table(app, ["Eve", "Fay"])
    previewer, owner = app.test_client(), app.test_client()
    seen = previewer.get(table.link("Eve"), headers={"User-Agent": agent})
    assert seen.status_code == 403 and "phone" in seen.text
    assert "coup_device" not in seen.headers.get("Set-Cookie", "")
    for path in ("/view", "/rules", "/events"):
        assert previewer.get(table.link("Eve") + path,
                             headers={"User-Agent": agent}).status_code == 403
    phone = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 Chrome/126 Mobile"
    assert owner.get(table.link("Eve"), headers={"User-Agent": phone}).status_code == 200
