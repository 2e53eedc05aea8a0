"""Every game record passes: the copy kept here, and ../shared/records in place when present."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.engine import apply, new_game
from app.records import export, load, parse, replay

HERE = Path(__file__).resolve().parents[1] / "records"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "records"
OURS = sorted(HERE.glob("*.json"))
THEIRS = sorted(SHARED.glob("*.json")) if SHARED.is_dir() else []


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_record_copy_passes(path: Path) -> None:
    outcome = replay(load(path))
    assert outcome.failure is None, outcome.failure


@pytest.mark.parametrize("path", THEIRS, ids=lambda p: p.name)
def test_shared_record_passes(path: Path) -> None:
    outcome = replay(load(path))
    assert outcome.failure is None, outcome.failure


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/records is not beside this clone")
def test_copy_matches_shared_records() -> None:
    assert [p.name for p in OURS] == [p.name for p in THEIRS], "tests/records is out of date"
    for ours, theirs in zip(OURS, THEIRS, strict=True):
        assert json.loads(ours.read_text()) == json.loads(theirs.read_text()), ours.name


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_export_replays_to_the_same_state(path: Path) -> None:
    record = load(path)
    game = replay(record).game
    assert game is not None
    again = parse(json.loads(json.dumps(export(game))))
    replayed = new_game(again.setup)
    for step in again.steps:
        replayed = apply(replayed, step)
    assert export(replayed) == export(game)
    assert replayed.players == game.players
    assert (replayed.treasury, replayed.reserve, replayed.deck_size, replayed.winner) == (
        game.treasury,
        game.reserve,
        game.deck_size,
        game.winner,
    )
