"""`coup-referee check` and `explain`, and a clear message for every kind of bad record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tablekit import SMALL_RECORD as GOOD

from app.cli import main
from app.records import RecordError, load

RECORDS = Path(__file__).resolve().parents[1] / "records"


def write(tmp_path: Path, data: object, name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_check_prints_pass_for_every_record(capsys):
    paths = [str(p) for p in sorted(RECORDS.glob("*.json"))]
    assert main(["check", *paths]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(paths) and all(line.startswith("PASS ") for line in lines)


def test_check_reports_the_first_difference_and_the_step_it_followed(tmp_path, capsys):
    bad = dict(GOOD, expect={"treasury": 1})
    path = write(tmp_path, bad)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL ")
    assert 'after step 2 {"do": "pass"}: treasury is 41, expected 1' in out


def test_check_reports_a_refused_step(tmp_path, capsys):
    path = write(tmp_path, dict(GOOD, steps=[{"by": "Bob", "do": "income"}]))
    assert main(["check", str(path)]) == 1
    assert "step 1" in capsys.readouterr().out


def test_a_key_on_the_wrong_step_is_a_refused_step(tmp_path, capsys):
    path = write(tmp_path, dict(GOOD, steps=[{"by": "Ann", "do": "income", "target": "Bob"}]))
    assert main(["check", str(path)]) == 1
    assert "The Income takes no target." in capsys.readouterr().out


def test_check_exits_non_zero_when_any_file_fails(tmp_path, capsys):
    good = write(tmp_path, GOOD, "good.json")
    bad = write(tmp_path, "{", "bad.json")
    assert main(["check", str(good), str(bad)]) != 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("PASS") and lines[1].startswith("INVALID")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("not json", "not JSON"),
        ({"players": ["Ann"]}, "2 to 10 players"),
        ({"hands": {"Ann": ["duke", "joker"], "Bob": ["duke", "duke"], "Cy": None}},
         "‘joker’ is not a Coup character"),
        ({"hands": {"Ann": ["duke", "duke"], "Bob": ["duke", "duke"], "Cy": None}},
         "Too many Duke cards"),
        ({"steps": [{"by": "Dan", "do": "income"}]}, "unknown player ‘Dan’"),
        ({"steps": [{"by": "Ann", "do": "income", "colour": "red"}]}, "no step takes ‘colour’"),
        ({"steps": [{"by": "Ann", "do": "dance"}]}, "unknown step ‘dance’"),
        ({"hands": {"Ann": ["duke"], "Bob": ["duke", "captain"], "Cy": None}}, "two cards"),
        ({"coins": {"Ann": 60}}, "more coins than the box"),
        ({"reserve": 3}, "only for Reformation"),
        ({"expect": {"players": {"Cy": {"hand": []}}}}, "not tracked"),
        ({"rules": {"two_player_setup": "choose_hand"}}, "only for two players"),
        ({"rules": {"preset": "monopoly"}}, "Unknown preset"),
        ({"rules": {"refund_on_successful_challenge": "yes"}}, "must be one of"),
        ({"colour": "red"}, "unknown key ‘colour’"),
        ({"format": "coup-record/2"}, "‘format’ must be"),
    ],
)
def test_invalid_records_get_one_clear_line(tmp_path, capsys, change, message):
    data = "{ not json" if change == "not json" else {**GOOD, **change}
    path = write(tmp_path, data)
    with pytest.raises(RecordError, match=message):
        load(path)
    assert main(["check", str(path)]) != 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("INVALID") and message.split("'")[0] in out and "\n" not in out


def test_explain_tells_the_game_step_by_step(capsys):
    assert main(["explain", str(RECORDS / "01-worked-example.json")]) == 0
    out = capsys.readouterr().out
    assert "Sasha challenges Kolya’s Duke." in out
    assert "Kolya shows the Duke, so Sasha loses an influence." in out
    assert "Kolya shuffles the Duke back into the court deck and draws a new card." in out
    assert "winner" not in out


def test_explain_shows_refused_steps_with_their_reason(capsys):
    assert main(["explain", str(RECORDS / "33-unaffordable-declarations.json")]) == 0
    out = capsys.readouterr().out
    assert "refused: A can’t declare the Assassinate: it costs 3 coins and A has 2 (E-15)." in out


def test_explain_of_a_missing_file_says_so(tmp_path, capsys):
    assert main(["explain", str(tmp_path / "nope.json")]) != 0
    assert "can’t read the file" in capsys.readouterr().err
