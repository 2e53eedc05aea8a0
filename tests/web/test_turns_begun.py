"""The number of turns begun, kept by the fold (a phone's question key changes with it), is the
count of the game's actions at every step of random games and after undos; the old count
over the whole history at every version cost a tap more as the game grew."""

from __future__ import annotations

from pathlib import Path

import pytest
from playkit import played

from app.engine.cards import ACTIONS
from app.engine.state import Game


def counted(game: Game | None) -> int:
    return 0 if game is None else sum(1 for step in game.history if step.do in ACTIONS)


@pytest.mark.parametrize("seed", [3, 4])
def test_the_fold_counts_the_turns_begun(tmp_path: Path, seed: int):
    table = None
    for table in played(tmp_path, seed):
        state = table.live()
        assert state.turns_begun == counted(state.game)
    assert table is not None
    for _undo in range(4):  # undo (drop a step and replay) counts again
        assert table.post("/undo", {}).status_code == 200
        state = table.live()
        assert state.turns_begun == counted(state.game)
    assert state.turns_begun > 0
