"""A greyed-out declaration sent anyway (a stale or hostile client posts the disabled button's
form, with no target): the refusal names the first rule broken in the order a player asks
them, too few coins before no target (app/engine/legality.py), on the tablet and on a phone,
for every action with both a cost and a target."""

from __future__ import annotations

import pytest
from tablekit import Table

from app.engine import RuleError, apply, new_game
from app.engine.cards import ACTIONS
from app.engine.legality import least_cost

COSTLY_AND_TARGETED = [name for name, spec in ACTIONS.items()
                       if spec.targeted and least_cost(name) > 0]


def test_the_actions_with_a_cost_and_a_target_are_coup_assassinate_and_convert():
    assert sorted(COSTLY_AND_TARGETED) == ["assassinate", "convert", "coup"]


@pytest.mark.parametrize("action", COSTLY_AND_TARGETED)
@pytest.mark.parametrize("target", [None, "", "Zed"])
def test_e15_too_few_coins_is_the_reason_whatever_the_target(action: str, target: str | None):
    hands = {"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "captain"]}
    g = new_game({"players": list(hands), "hands": hands, "rules": {"reformation": True},
                  "coins": {"A": least_cost(action) - 1}})
    step = {"by": "A", "do": action} | ({} if target is None else {"target": target})
    with pytest.raises(RuleError) as refused:
        apply(g, step)
    assert refused.value.code == "cannot_pay", refused.value.code


@pytest.mark.parametrize("form", [{}, {"target": ""}])
def test_a_forced_coup_with_two_coins_says_it_needs_7_coins(started: Table, form: dict):
    response = started.step(do="coup", by="Ann", **form)
    assert response.status_code == 422
    assert "Ann can’t declare the Coup: it costs 7 coins and Ann has 2 (E-15)." in response.text
    assert "needs a target" not in response.text
    assert started.steps() == []


def test_a_forced_assassination_from_the_phone_says_it_needs_3_coins(started: Table):
    response = started.phone_step("Ann", do="assassinate")
    assert response.status_code == 422
    assert "it costs 3 coins" in response.text and "needs a target" not in response.text
    assert started.steps() == []


def test_with_the_coins_the_missing_target_is_the_reason(started: Table):
    for name in ("Ann", "Bob", "Cy"):
        assert started.step(do="income", by=name).status_code == 200
    response = started.step(do="assassinate", by="Ann")  # Ann has 3 coins now
    assert response.status_code == 422
    assert "The Assassinate needs a target." in response.text
