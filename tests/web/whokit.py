"""The tables the tests of issue 13 start from (tests/web): three players with phones, and Bob's
Tax challenged by Ann."""

from __future__ import annotations

from flask import Flask
from tablekit import Table, started_table

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"]}


def bobs_tax_challenged(app: Flask) -> Table:
    """Ann takes Income, Bob claims the Duke for Tax, Ann challenges: Bob (who holds it) is
    asked to prove or concede."""
    t = started_table(app, {"Ann": ["ambassador", "captain"], "Bob": ["duke", "contessa"],
                            "Cy": ["assassin", "assassin"]})
    t.step(do="income", by="Ann")
    t.step(do="tax", by="Bob")
    t.step(do="challenge", by="Ann")
    return t
