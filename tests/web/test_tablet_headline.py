"""The tablet's headline (the claim under "Waiting for …") names only a claim still standing:
never a block that lost its challenge while its blocker chooses a card to lose, nor an action
whose claim was conceded. Checked at every step of games over every legal step and setting
(app/explore), against what the log of the turn says, and on the tablet's own page."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tablekit import Table

from app.engine import Game, Ruling, apply, new_game, table_view
from app.explore import legal_steps, random_setup
from app.i18n import Voice
from app.web.tabletprompt import _claim

BLOCK = "%(name)s claims the %(card)s to block the %(action)s."
BLOCK_FAILS = ("%(name)s does not show the %(card)s: the block fails and %(name)s loses an "
               "influence.")
CANCELLED = ("%(name)s does not prove the claim: the %(action)s is cancelled and %(name)s "
             "loses an influence.")
ENGLISH = Voice()


def standing(turn_log: list[Ruling], actor: str, action: str) -> str | None:
    """The claim the log of this turn leaves on the table, as the tablet words it: the
    action's, a block's until it fails, none once the action's is conceded."""
    said: str | None = f"{actor}: {ENGLISH.action(action)}"
    for r in turn_log:
        if r.text == BLOCK:
            said = ENGLISH.ruling(r)
        elif r.text == BLOCK_FAILS:
            said = f"{actor}: {ENGLISH.action(action)}"
        elif r.text == CANCELLED:
            said = None
    return said


def headline(game: Game) -> str:
    """The tablet's claim line, as text."""
    turn = table_view(game)["turn"]
    return re.sub(r"<[^>]+>", "", _claim(ENGLISH, turn)).strip()


def drawn(data: st.DataObject) -> Any:
    return lambda options, label: data.draw(st.sampled_from(list(options)), label=label)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_the_headline_names_only_a_claim_still_standing(data: st.DataObject) -> None:
    choose = drawn(data)
    game = new_game(random_setup(choose))
    turn_began = 0
    for _step in range(80):
        if game.over:
            return
        step = choose(legal_steps(game), "step")
        after = apply(game, step)
        if game.turn is None:
            turn_began = len(game.log)
        game = after
        t = game.turn
        if t is None:
            continue
        expected = standing(list(game.log[turn_began:]), t.actor, t.action)
        shown = headline(game)
        if expected is None:
            assert shown == "", (shown, [r.english() for r in game.log[turn_began:]])
        else:
            assert shown.startswith(expected), (shown, expected,
                                                [r.english() for r in game.log[turn_began:]])


def prompt_of(page: str) -> str:
    """The text of the tablet's prompt (whom the table waits for, and the claim)."""
    found = re.search(r'<section id="prompt".*?</section>', page, re.S)
    assert found is not None
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).strip()


def test_while_the_blocker_who_lost_chooses_a_card_the_tablet_shows_the_steal(started: Table):
    started.step(do="steal", by="Ann", target="Bob")
    started.step(do="pass")
    started.step(do="block", by="Bob", **{"as": "ambassador"})
    started.step(do="challenge", by="Ann")
    assert started.phone_step("Bob", do="concede").status_code == 200
    prompt = prompt_of(started.page())
    assert "Waiting for Bob to turn a card face up." in prompt
    assert "to block" not in prompt
    assert "Ann: Steal → Bob" in prompt


def test_while_the_actor_who_conceded_chooses_a_card_the_tablet_shows_no_claim(started: Table):
    started.step(do="tax", by="Ann")
    started.step(do="challenge", by="Bob")
    assert started.phone_step("Ann", do="concede").status_code == 200
    prompt = prompt_of(started.page())
    assert prompt == "Waiting for Ann to turn a card face up."
