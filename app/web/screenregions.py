"""Which regions each screen has (:mod:`app.web.regions`), and what each reads of its view
when it reads less than every name its partial names: the engine's view cut to the keys it
reads, and, where a region shows less in the case at hand (a seat with no step of its own, a
challenge's buttons), only what it shows. Whatever is left out of a region's key is left
out of what it is drawn from, so a cut too far draws a different screen, which
tests/web/test_regions_never_stale.py would see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from app.engine import Prompt
from app.web.fragments import ALIKE_KEPT
from app.web.phonealert import alert_html
from app.web.phoneanswer import answer_html
from app.web.regions import Region
from app.web.tabletprompt import prompt_html
from app.web.tabletregions import log_region_html, seat_html, spoken_html, undo_html


def _alert_reads(scope: dict[str, Any]) -> dict[str, Any]:
    """The alert reads of the turn who acts on whom with what, and only on the phones of
    those two (elsewhere it says nothing of the turn); the buzz's key (new with each
    question) only when the table waits for this player (else the phone does not buzz)."""
    if not scope["must_act"]:
        scope = {name: value for name, value in scope.items() if name != "buzz"}
    view, name = scope["view"], scope["name"]
    turn = view["turn"]
    if turn is not None:
        involved = name in (turn["actor"], turn["target"])
        turn = {key: turn[key] for key in ("actor", "target", "action", "window")} \
            if involved else None
    return {**scope, "view": {"turn": turn}}


def _own_steps(scope: dict[str, Any]) -> dict[str, Any]:
    """The seat's private steps: with none, the region is its empty box."""
    own = [prompt for prompt in scope["prompts"] if prompt.private]
    return {**scope, "prompts": own} if own else {"prompts": own, "token": scope["token"]}


def _answers_here(scope: dict[str, Any]) -> dict[str, Any]:
    """The seat's answers to the open question, where the table lets phones answer: else
    the region is its empty box."""
    if scope["answers"] != "both":
        return {"answers": scope["answers"], "token": scope["token"]}
    shown = [_as_answered(prompt) for prompt in scope["prompts"] if not prompt.private]
    if all(prompt.kind != "declare" for prompt in shown):  # its keys name the turn
        scope = {name: value for name, value in scope.items() if name != "turn_no"}
    return {**scope, "prompts": shown}


def _as_answered(prompt: Prompt) -> Prompt:
    """What the answer's buttons show of a question: a challenge's are the same for every
    claim, a block's name the cards, a turn's every action."""
    if prompt.kind == "respond":
        return Prompt("", prompt.kind, {})
    if prompt.kind == "block":
        return Prompt("", prompt.kind, {"as": prompt.options["as"]})
    return prompt


TABLET: Final[Mapping[str, Region]] = {
    "tools": Region("tablet/_tools.html"),
    "undo": Region("tablet/_undo.html", python=undo_html),
    # one per seat: tablet/_seats.html (tabletframe._seats) places them
    "seat row": Region("tablet/_seat.html", python=seat_html, kept=2),
    "prompt": Region("tablet/_prompt.html", {"view": ("winner", "waiting_ruling", "turn")},
                     python=prompt_html),
    "log": Region("tablet/_log.html", python=log_region_html),
    "night tools": Region("night/_tools.html", {"view": ("winner",)}),
    "spoken": Region("night/_spoken.html", python=spoken_html),
}
"""The referee's screen's regions, placed by tablet/_tablet.html and the partials it includes.
Only regions that cost more to draw than to look up are regions: the timer's box, the night's
scoreboard on a phone and the like are drawn each time (docs/PERFORMANCE-HISTORY.md, round five)."""


PHONE: Final[Mapping[str, Region]] = {
    "alert": Region("phone/_alert.html", cut=_alert_reads, python=alert_html),
    "prompt": Region("phone/_prompt.html", {"view": ("turn",)}, _own_steps),
    "answer": Region("phone/_answer.html", cut=_answers_here, python=answer_html,
                     kept=ALIKE_KEPT),
}
"""A seat's screen's regions (phone/_phone.html places them), remembered per seat: by its
token, so no other seat's screen can get them."""
