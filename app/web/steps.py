"""A form post turned into a game-record step: the same vocabulary as the records."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from app.engine import STEPS, pending
from app.web.service import Live, Refused

FIELDS = ("target", "as", "card")


def step_from_form(form, live: Live, by: str | None) -> dict[str, Any]:
    """Only the fields the step takes are copied; the engine judges the rest."""
    do = form.get("do", "")
    if do not in STEPS:
        raise Refused(_("Unknown step."), 400)
    step: dict[str, Any] = {"do": do}
    if by:
        step["by"] = by
    allowed = STEPS[do].takes
    for key in FIELDS:
        value = form.get(key)
        if value and key in allowed:
            step[key] = value
    game = live.game
    player = game.player(by) if game is not None and by and game.has(by) else None
    if do in ("draw", "keep") and player is not None and player.tracked:
        step["cards"] = [c for c in form.getlist("cards") if c]
    if do == "show" and blind_show(live):
        # The examiner picks by place in the hand, never by name: naming cards one by one
        # and reading the refusals would tell them the target's hand.
        step.pop("card", None)
        step.update(card_at(live, form.get("position", "")))
    return step


def blind_show(live: Live) -> str | None:
    """The target of a blind show (the examiner picks the card), or None."""
    if live.game is None:
        return None
    return next((p.options["target"] for p in pending(live.game)
                 if p.kind == "show" and p.options["blind"]), None)


def card_at(live: Live, position: str) -> dict[str, Any]:
    """The examiner picks one of the target's cards blind, by its place in the hand."""
    game = live.game
    name = blind_show(live)
    assert game is not None and name is not None
    target = game.player(name)
    if target.hand is None:
        return {}
    try:
        index = int(position)
    except ValueError:
        raise Refused(_("Pick one of the cards."), 400) from None
    if not 0 <= index < len(target.hand):
        raise Refused(_("Pick one of the cards."), 400)
    return {"card": target.hand[index]}
