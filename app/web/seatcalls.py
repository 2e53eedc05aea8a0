"""What the table waits for from each seat, as the screens mark it: the tablet's seat badges
(gold "must", blue "may", in the third person: the tablet is public) and the key a phone
that must act buzzes once for. Made from the pending prompts' players and kinds alone, and the
public turn: never a hidden card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from app.engine import Prompt

MUST: Final = "must"
MAY: Final = "may"


def seat_calls(prompts: Sequence[Prompt], turn: dict[str, Any] | None
               ) -> dict[str, tuple[str, str]]:
    """What the table waits for from each seat, as its badge on the public tablet says it:
    (``must`` or ``may``, what): a step only they can take (:data:`OWN_STEPS`: their turn,
    a card to lose…) or an answer to an action aimed at them is a must (gold, as the phone
    that must act); a window open to everyone is a may (blue). The first prompt that is a
    must decides."""
    calls: dict[str, tuple[str, str]] = {}
    for p in prompts:
        call = seat_call(p, turn)
        if p.player not in calls or (call[0] == MUST and calls[p.player][0] != MUST):
            calls[p.player] = call
    return calls


def seat_call(p: Prompt, turn: dict[str, Any] | None) -> tuple[str, str]:
    targeted = turn is not None and turn["target"] == p.player and turn["actor"] != p.player
    if p.kind in ("respond", "block"):
        if targeted:
            return MUST, "answer"
        return MAY, "challenge" if p.kind == "respond" else "block"
    return MUST, OWN_STEPS[p.kind]


OWN_STEPS: Final = {"declare": "act", "prove": "answer", "lose": "lose", "draw": "draw",
                    "keep": "keep", "show": "show", "decide": "decide"}
"""A step only this seat can take, as its badge names it: its turn, a challenge to answer,
a card to turn face up, a card to draw, the cards to keep, a card to show (the Inquisitor's
examination), the shown card to swap or return."""


def question_key(asked: Sequence[Prompt], turn: dict[str, Any] | None, face_down: int,
                 turn_no: int) -> str:
    """What a phone that must act is asked, as a key that changes only with a new question:
    the turn, its open window or stage, the kinds of step asked and the cards this player
    still holds (a second loss in one turn is a new question). Another seat's answer in the
    same window leaves it as it was, so the phone buzzes once per question."""
    window, stage = (turn["window"], turn["stage"]) if turn else (None, None)
    kinds = "-".join([p.kind for p in asked])
    return f"{turn_no}-{window}-{stage}-{kinds}-{face_down}"
