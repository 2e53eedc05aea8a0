"""The table of step kinds reads a step object: every malformed step is refused with its code,
before the game is asked anything."""

from __future__ import annotations

import pytest

from app.engine import RuleError, Step, parse_step


@pytest.mark.parametrize(("data", "code"), [
    ("pass", "step_not_object"),
    (["pass"], "step_not_object"),
    ({}, "unknown_step"),
    ({"do": "dance"}, "unknown_step"),
    ({"do": 3}, "unknown_step"),
    ({"do": "income", "by": "A", "card": "duke"}, "step_key"),
    ({"do": "pass", "rejected": True}, "step_key"),
    ({"do": "pass", 3: "A"}, "step_key"),
    ({"do": "income", "by": 3}, "step_value"),
    ({"do": "income", "by": None}, "step_value"),
    ({"do": "steal", "by": "A", "target": ["B"]}, "step_value"),
    ({"do": "block", "by": "A", "as": None}, "step_value"),
    ({"do": "lose", "by": "A", "card": 1}, "step_value"),
    ({"do": "income"}, "step_needs"),
    ({"do": "block", "by": "A"}, "step_needs"),
    ({"do": "draw", "by": "A", "cards": "duke"}, "step_cards"),
    ({"do": "keep", "by": "A", "cards": ["duke", 2]}, "step_cards"),
])
def test_a_malformed_step_is_refused_with_its_reason(data: object, code: str) -> None:
    with pytest.raises(RuleError) as refused:
        parse_step(data)
    assert refused.value.code == code


def test_the_first_wrong_key_is_named() -> None:
    with pytest.raises(RuleError) as refused:
        parse_step({"do": "income", "by": "A", "card": "duke", "as": "duke"})
    assert refused.value.params["key"] == "card"


def test_a_well_formed_step_keeps_every_value() -> None:
    assert parse_step({"by": "A", "do": "steal", "target": "B"}) == Step("steal", "A", "B")
    assert parse_step({"do": "pass"}) == Step("pass")
    assert parse_step({"do": "keep", "by": "A", "cards": ["duke", "duke"]}) == Step(
        "keep", "A", cards=("duke", "duke"))
    assert parse_step({"do": "draw", "by": "A", "cards": None}) == Step("draw", "A")
    assert parse_step({"do": "block", "by": "A", "as": "contessa"}).as_ == "contessa"
