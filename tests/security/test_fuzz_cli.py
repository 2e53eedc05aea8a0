"""Malformed record files given to `coup-referee check` and `import` get one clear line each:
bad files, malformed ones, and random records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli import main

# -- the command line ---------------------------------------------------------------------


def record(**changes: Any) -> bytes:
    data = {"format": "coup-record/1", "players": ["A", "B"], "hands": {"A": None, "B": None},
            "steps": []}
    data.update(changes)
    return json.dumps(data).encode()


BAD_FILES: dict[str, bytes | None] = {
    "not-json.json": b"{this is not json",
    "empty.json": b"",
    "binary.json": bytes(range(256)) * 4,
    "latin1.json": '{"name": "caf\xe9"}'.encode("latin-1"),
    "list.json": b"[1, 2, 3]",
    "string.json": b'"coup"',
    "null.json": b"null",
    "wrong-format.json": record(format="coup-record/2"),
    "no-steps.json": json.dumps({"format": "coup-record/1", "players": ["A", "B"],
                                 "hands": {"A": None, "B": None}}).encode(),
    "players-number.json": record(players=5),
    "players-objects.json": record(players=[{}, []]),
    "hands-list.json": record(hands=[["duke"]]),
    "hand-numbers.json": record(hands={"A": [1, 2], "B": None}),
    "steps-object.json": record(steps={}),
    "step-number.json": record(steps=[7]),
    "step-by-object.json": record(steps=[{"do": "income", "by": {"x": 1}}]),
    "step-cards-string.json": record(steps=[{"do": "income", "by": "A", "cards": "duke"}]),
    "rules-garbage.json": record(rules={"coins_in_box": "many"}),
    "rules-list.json": record(rules=["bga"]),
    "directory": None,  # made a folder below
}
# Each of these still ends in a traceback; see test_a_malformed_file_that_still_crashes.
CRASHING_FILES: dict[str, tuple[bytes, str]] = {
    "step-do-list.json": (
        record(steps=[{"do": ["income"], "by": "A"}]),
        "TypeError (unhashable type: 'list') in app/records.py check_step: `do not in "
        "ACTIONS` on a 'do' that is a list or object. Fix: refuse a 'do' that is not a string",
    ),
    "preset-list.json": (
        record(rules={"preset": ["bga"]}),
        "TypeError (unhashable type: 'list') in app/engine/rules.py parse_rules: `preset not "
        "in PRESETS` on a preset that is a list or object. Fix: refuse a preset that is not a "
        "string",
    ),
    "deeply-nested.json": (
        b"[" * 100_000 + b"]" * 100_000,
        "RecursionError from json.loads in app/records.py load(): only JSONDecodeError is "
        "caught. Fix: also catch RecursionError and say 'nested too deeply'",
    ),
}


def write_bad_files(folder: Path) -> list[Path]:
    paths = []
    for name, content in BAD_FILES.items():
        path = folder / name
        if content is None:
            path.mkdir()
        else:
            path.write_bytes(content)
        paths.append(path)
    return [*paths, folder / "missing.json"]


def one_clear_line(capsys: pytest.CaptureFixture[str]) -> str:
    out = capsys.readouterr()
    text = (out.out + out.err).strip()
    assert "Traceback" not in text, text
    assert len(text.splitlines()) == 1, text
    return text


def run_cli(command: str, path: Path, instance: Path) -> int:
    extra = ["--instance", str(instance)] if command == "import" else []
    return main([command, str(path), *extra])


COMMANDS = ["check", "import"]


@pytest.mark.parametrize("command", COMMANDS)
def test_each_bad_file_gets_one_clear_line(command: str, tmp_path: Path, capsys):
    bad = tmp_path / "bad"
    bad.mkdir()
    for path in write_bad_files(bad):
        status = run_cli(command, path, tmp_path / "instance")
        line = one_clear_line(capsys)
        assert status != 0, line
        assert path.name in line, line


@pytest.mark.parametrize("command", ["check", "import"])
@pytest.mark.parametrize("name", [
    name for name in CRASHING_FILES])
def test_a_malformed_file_gets_one_clear_line_too(command: str, name: str, tmp_path: Path, capsys):
    path = tmp_path / name
    path.write_bytes(CRASHING_FILES[name][0])
    status = run_cli(command, path, tmp_path / "instance")
    line = one_clear_line(capsys)
    assert status != 0 and name in line, line


leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=6),
                 st.sampled_from(["A", "B", "duke", "captain", "contessa", "income", "tax",
                                  "steal", "lose", "draw", "keep", "pass", "bga", "inquisitor"]))
value = st.recursive(leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["do", "by", "target", "card", "cards", "coins", "hand",
                                     "A", "B", "preset", "exchanger", "coins_in_box"]),
                    inner, max_size=3)), max_leaves=8)
scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=6),
                   st.sampled_from(["income", "tax", "steal", "lose", "draw", "pass", "bga"]))
steps = st.lists(st.one_of(value, st.fixed_dictionaries(
    {"do": scalar},  # a list or object 'do' is a known crash (CRASHING_FILES)
    optional={"by": value, "target": value, "as": value, "card": value, "cards": value,
              "rejected": value})), max_size=4)
records = st.fixed_dictionaries(
    {"format": st.just("coup-record/1"),
     "players": st.one_of(st.just(["A", "B"]), value),
     "hands": st.one_of(st.just({"A": None, "B": None}),
                        st.just({"A": ["duke", "captain"], "B": None}), value),
     "steps": st.one_of(steps, value)},
    optional={"rules": st.one_of(st.dictionaries(st.sampled_from(["exchanger", "coins_in_box",
                                                                  "reformation"]), value),
                                 st.fixed_dictionaries({"preset": scalar})),
              "first": value, "revealed": value, "court_deck": value, "coins": value,
              "expect": value, "name": value})


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=records)
def test_random_records_get_one_clear_line(data: dict[str, Any], tmp_path: Path, capsys):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in ("check", "import"):
        capsys.readouterr()
        status = run_cli(command, path, tmp_path / "instance")
        out = capsys.readouterr()
        text = out.out + out.err
        assert "Traceback" not in text
        if status != 0:
            assert len(text.strip().splitlines()) == 1, text
