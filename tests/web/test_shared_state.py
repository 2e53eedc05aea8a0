"""What one request gets from the caches is shared with every other request (greenlet) at the
same version: it can't be changed, and a screen drawn from it is never another screen's."""

from __future__ import annotations

import copy
import json

import pytest
from flask import Flask
from tablekit import Table

from app.frozen import FrozenDict, FrozenList, freeze


def test_a_cached_state_cannot_be_changed_by_a_request(started: Table):
    state = started.live()
    setup = state.setup
    assert setup is not None
    with pytest.raises(TypeError):
        setup["players"].append("Mallory")  # type: ignore[index]
    with pytest.raises(TypeError):
        setup["hands"]["Ann"] = ["duke", "duke"]  # type: ignore[index]
    with pytest.raises(TypeError):
        state.table.setup["rules"] = {}  # type: ignore[index]
    started.step(by="Ann", do="income")
    _seq, step = started.live().steps[-1]
    with pytest.raises(TypeError):
        step["do"] = "tax"  # type: ignore[index]
    assert started.live().setup == setup and started.live().steps[-1][1]["do"] == "income"


def test_frozen_json_reads_compares_and_dumps_as_json_and_copies_into_plain_json():
    value = {"players": ["Ann", "Bob"], "rules": {"variant": "x"}, "n": 2}
    frozen = freeze(value)
    assert frozen == value and json.dumps(frozen) == json.dumps(value)
    assert isinstance(frozen["players"], FrozenList) and isinstance(frozen["rules"], FrozenDict)
    for change in (lambda: frozen.update(n=3), lambda: frozen.pop("n"),
                   lambda: frozen["players"].extend(["Cy"]), lambda: frozen.setdefault("m", 1),
                   lambda: frozen["players"].sort(), lambda: frozen.__delitem__("n")):
        with pytest.raises(TypeError):
            change()
    thawed = copy.deepcopy(frozen)
    thawed["players"].append("Cy")
    assert frozen["players"] == ["Ann", "Bob"] and type(thawed["rules"]) is dict
    assert {**frozen, "n": 3}["n"] == 3 and frozen["n"] == 2


def test_the_store_hands_out_frozen_json(app: Flask, started: Table):
    live = started.live()
    assert isinstance(live.table.setup, FrozenDict)
    assert all(isinstance(step, FrozenDict) for _seq, step in live.steps) or not live.steps
