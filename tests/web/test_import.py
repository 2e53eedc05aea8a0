"""Loading a game record as a table: `coup-referee import` and the home page's upload."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from tablekit import csrf_of, snapshot

from app.cli import main
from app.web.factory import create_app

RECORDS = Path(__file__).resolve().parents[1] / "records"


def test_import_prints_the_table_and_every_seat_and_the_tablet_continues(tmp_path, capsys):
    instance = tmp_path / "instance"
    path = RECORDS / "01-worked-example.json"
    assert main(["import", str(path), "--instance", str(instance),
                 "--public-url", "http://192.168.1.9:5000/"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("table: http://192.168.1.9:5000/t/")
    assert [line.split(":")[0] for line in lines[1:]] == [
        "seat Natasha", "seat Sasha", "seat Kolya"]
    app = create_app(str(instance), {"TESTING": True})
    tablet = app.test_client()
    url = lines[0].split(": ", 1)[1].replace("http://192.168.1.9:5000", "")
    response = tablet.get(url)
    assert response.status_code == 303
    html = tablet.get(response.headers["Location"]).text
    assert "Natasha’s turn" in html and "Kolya has no influence left" in html
    phone = app.test_client()
    seat = lines[1].split(": ", 1)[1].replace("http://192.168.1.9:5000", "")
    assert phone.get(seat).status_code == 200


def test_import_of_a_bad_file_prints_one_line_and_fails(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "coup-record/1", "players": ["A"]}')
    assert main(["import", str(bad), "--instance", str(tmp_path / "i")]) != 0
    err = capsys.readouterr().err.strip()
    assert err.startswith("coup-referee: ") and "\n" not in err


def test_the_home_page_loads_a_record(app):
    client = app.test_client()
    csrf = csrf_of(client.get("/").text)
    data = {"csrf": csrf,
            "record": (io.BytesIO((RECORDS / "22-embezzle-unchallenged.json").read_bytes()),
                       "r.json")}
    response = client.post("/tables/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 303
    html = client.get(response.headers["Location"]).text
    assert "B’s turn" in html and "Reserve" in html


def test_the_home_page_refuses_a_file_that_is_not_a_record(app):
    client = app.test_client()
    csrf = csrf_of(client.get("/").text)
    data = {"csrf": csrf, "record": (io.BytesIO(b"\x00\xff garbage"), "r.json")}
    response = client.post("/tables/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "not a game record we can load" in response.text


def test_a_deeply_nested_record_gets_one_clear_message(app):
    """Issue 11.4: JSON nested deeper than the decoder follows is not a record: one clear
    message on the start page, nothing stored, never a 500."""
    client = app.test_client()
    csrf = csrf_of(client.get("/").text)
    before = snapshot(app)
    for body in (b"[" * 30000 + b"]" * 30000, b'{"a":' * 10000 + b"1" + b"}" * 10000,
                 b'{"format": "coup-record/1", "players": ' + b"[" * 3000 + b"]" * 3000 + b"}"):
        data = {"csrf": csrf, "record": (io.BytesIO(body), "deep.json")}
        response = client.post("/tables/import", data=data, content_type="multipart/form-data")
        assert response.status_code == 422, body[:40]
        assert "not a game record we can load" in response.text
        assert snapshot(app) == before


def test_an_upload_that_is_no_record_gets_one_clear_message(app):
    client = app.test_client()
    csrf = csrf_of(client.get("/").text)
    before = snapshot(app)
    for body, reason in ((b"", "not JSON"), (b"\xff\xfe", "not JSON"), (b"[1, 2]", "JSON object"),
                         (json.dumps({"format": "coup-record/1"}).encode(), "required")):
        data = {"csrf": csrf, "record": (io.BytesIO(body), "r.json")}
        response = client.post("/tables/import", data=data, content_type="multipart/form-data")
        assert response.status_code == 422 and reason in response.text, (body, response.text)
    assert snapshot(app) == before


def test_a_card_every_copy_of_which_is_face_up_is_greyed_out_for_a_hand_without_a_phone(app):
    """The tablet takes C's loss (C has no phone): every character is offered, and the Duke,
    all three copies face up, is greyed out with the reason; the others can be tapped."""
    record = {"format": "coup-record/1", "players": ["A", "B", "C"],
              "hands": {"A": ["captain"], "B": ["contessa"], "C": None},
              "revealed": {"A": ["duke"], "B": ["duke"], "C": ["duke"]},
              "coins": {"A": 7}, "steps": [{"by": "A", "do": "coup", "target": "C"}]}
    client = app.test_client()
    csrf = csrf_of(client.get("/").text)
    data = {"csrf": csrf, "record": (io.BytesIO(json.dumps(record).encode()), "r.json")}
    response = client.post("/tables/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 303, response.text
    html = client.get(response.headers["Location"]).text
    duke = re.search(r'<form[^>]*>(?:(?!</form>).)*value="duke"(?:(?!</form>).)*</form>', html,
                     re.S)
    captain = re.search(r'<form[^>]*>(?:(?!</form>).)*value="captain"(?:(?!</form>).)*</form>',
                        html, re.S)
    assert duke and "disabled" in duke.group(0)
    assert captain and "disabled" not in captain.group(0)
    assert "every copy of that card is already face up" in html
