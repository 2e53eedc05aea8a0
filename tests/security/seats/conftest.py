"""The table every test of seat links starts from: Ann and Bob on phones, Cy without one, the
game started."""

from __future__ import annotations

import pytest
from flask import Flask
from tablekit import HANDS_CY_WITHOUT_PHONE as HANDS
from tablekit import Table, started_table


@pytest.fixture
def mixed_table(app: Flask) -> Table:
    """Ann and Bob on phones, Cy without one; the game started."""
    return started_table(app, HANDS)

