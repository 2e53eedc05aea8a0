"""A seat's badge on the tablet names what the table waits for from that seat, as its pending
prompt says it (app/engine/prompts.py): its turn, an answer, a card to lose, a card to draw,
the cards to keep, a card to show, the shown card to swap or return; or a window it may
speak in. Checked at every step of games over every legal step and setting (app/explore),
and on the tablet's page in Russian, where a seat that must lose a card said «Ждём хода»."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tablekit import started_table

from app.engine import Prompt, apply, new_game, pending, table_view
from app.explore import legal_steps, random_setup
from app.web.seatcalls import MUST, seat_calls
from app.web.tabletregions import BADGES

OWN = {"declare": "Must act", "prove": "Must answer", "lose": "Must lose a card",
       "draw": "Must draw a card", "keep": "Must choose cards", "show": "Must show a card",
       "decide": "Must swap or return"}
"""What each step only one seat can take is called on its badge."""
WINDOWS = {"respond": "May challenge", "block": "May block"}


def expected(prompts: list[Prompt], turn: dict[str, Any] | None) -> str:
    """A seat's badge as its prompts call for it: a step of its own, or an answer to an
    action aimed at it, before a window open to all."""
    for p in prompts:
        if p.kind in OWN:
            return OWN[p.kind]
    targeted = turn is not None and turn["target"] == prompts[0].player != turn["actor"]
    return "Must answer" if targeted else WINDOWS[prompts[0].kind]


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_every_badge_names_what_its_seat_must_do(data: st.DataObject) -> None:
    def choose(options: Any, label: str) -> Any:
        return data.draw(st.sampled_from(list(options)), label=label)

    game = new_game(random_setup(choose))
    for _step in range(80):
        if game.over:
            return
        prompts, turn = pending(game), table_view(game)["turn"]
        calls = seat_calls(prompts, turn)
        for name, (level, what) in calls.items():
            own = [p for p in prompts if p.player == name]
            badge = BADGES[what]
            assert badge == expected(own, turn), (name, [p.kind for p in own], badge)
            assert (level == MUST) == badge.startswith("Must")
        game = apply(game, choose(legal_steps(game), "step"))


def badge_of(page: str, name: str) -> str:
    found = re.search(r'<span class="who[^"]*">' + name + r'\b.*?<p class="to-act [^"]*">'
                      r"([^<]*)</p>", page, re.S)
    assert found, name
    return found.group(1).strip()


def test_a_seat_that_must_lose_or_draw_a_card_says_so_in_russian(app: Flask):
    t = started_table(app, {"Аня": ["duke", "captain"], "Боря": ["contessa", "assassin"]},
                      language="ru")
    t.step(do="tax", by="Аня")
    t.step(do="challenge", by="Боря")
    assert badge_of(t.page(), "Аня") == "Ждём ответа"
    assert t.phone_step("Аня", do="prove").status_code == 200
    page = t.page()
    assert badge_of(page, "Боря") == "Открывает карту"
    assert badge_of(page, "Аня") == "Берёт карту"
