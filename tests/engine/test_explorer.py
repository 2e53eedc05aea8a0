"""The explorer over games nobody wrote down: every legal step, every setting (app/explore.py).

Hypothesis draws every choice (the set-up, then each step among all the legal ones), so a
failing game shrinks to a short one; the explorer checks the invariants after each step. A
second run, seeded, must reach every (window, step, setting) key it lists and every ruling
the engine can give. The last tests show the checks catch the bugs they are there for.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import explore
from app.engine import apply, new_game
from app.engine import steps as steps_module
from app.engine.state import with_turn


def drawn(data: st.DataObject) -> explore.Chooser:
    return lambda options, label: data.draw(st.sampled_from(list(options)), label=label)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_every_legal_step_keeps_every_invariant(data: st.DataObject) -> None:
    explore.explore(drawn(data), max_steps=120, misses=4)


def test_a_seeded_run_reaches_every_window_step_and_setting() -> None:
    coverage = explore.run_until_covered(120, seed=1)
    assert coverage.missing_pairs() == []
    assert coverage.missing_rulings() == []


def test_coverage_lists_the_pairs_of_the_step_table() -> None:
    windows = {w for w, _s, _setting in explore.reachable()}
    assert {"challenge window", "block window", "block window again", "challenged block",
            "draw (examine)", "decide", "keep"} <= windows
    assert ("block window again", "block", "reblock_foreign_aid=true") in explore.reachable()


A_STEALS_FROM_B = {"players": ["A", "B", "C"],
                   "hands": {"A": ["captain", "duke"], "B": ["captain", "contessa"],
                             "C": ["assassin", "contessa"]}}


def test_E4_the_pass_check_catches_a_pass_carried_into_the_block_window(monkeypatch) -> None:
    """Record 35's bug, put back on purpose: a target's pass on the challenge kept it from
    blocking later. The explorer's check must notice."""
    game = apply(new_game(A_STEALS_FROM_B), {"by": "A", "do": "steal", "target": "B"})
    legal = explore.legal_steps(game)
    explore.check_pass_is_local(game, legal, fixed("B", "C"))  # the engine as it is: fine

    real = steps_module.HANDLERS["challenge"]

    def remembers_passes(g, step):
        after = real(g, step)
        window = g.turn.open
        return with_turn(after, tried_blockers=frozenset(window.passed))

    monkeypatch.setitem(steps_module.HANDLERS, "challenge", remembers_passes)
    with pytest.raises(AssertionError, match="E-4"):
        explore.check_pass_is_local(game, legal, fixed("B", "C"))


def test_E3_the_rule_check_catches_a_block_window_for_a_dead_target(monkeypatch) -> None:
    setup = {"players": ["A", "B", "C"], "rules": {"anyone_may_block_targeted": True},
             "hands": {"A": ["assassin", "captain"], "B": ["duke"], "C": ["contessa", "duke"]},
             "revealed": {"B": ["contessa"]}, "coins": {"A": 3}}
    game = apply(new_game(setup), {"by": "A", "do": "assassinate", "target": "B"})
    game = apply(game, {"by": "B", "do": "challenge"})
    game = apply(game, {"by": "A", "do": "prove"})
    from app.engine import flow, legality

    def everyone(g):
        return [p.name for p in g.players if not p.out and p.name != g.turn.actor]

    monkeypatch.setattr(flow, "may_block", everyone)
    monkeypatch.setattr(legality, "may_block", everyone)
    broken = apply(game, {"by": "A", "do": "draw", "cards": ["assassin"]})
    with pytest.raises(AssertionError, match="E-3"):
        explore.check_rules(broken)


def fixed(passer: str, challenger: str) -> explore.Chooser:
    """A chooser for check_pass_is_local: this player passes, that one challenges."""
    def choose(options, label):
        options = list(options)
        if label == "passer":
            return next(s for s in options if s["by"] == passer)
        if label == "then":
            return next(s for s in options if s and s["by"] == challenger
                        and s["do"] == "challenge")
        return random.Random(0).choice(options)
    return choose
