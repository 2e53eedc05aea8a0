"""A phone's alert (phone/_alert.html) drawn in Python: the same bytes as the partial, at a
fraction of a template run. A tap opens or closes a question for most seats, so the alert is
the region drawn most often (four times a tap in bench/tap.py).

It is drawn from the region's scope alone (what the partial reads, cut as
:mod:`app.web.screenregions` cuts it), so it is keyed and remembered as the partial was. The
partial stays the reference: tests/web/test_phone_alert.py compares both at every step of
random games in every language, and tests/web/test_regions_never_stale.py each alert placed
with the partial drawn from the whole screen's view. A change to one needs the same change
to the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from markupsafe import escape

from app.engine import Prompt
from app.i18n import Voice
from app.web.i18n import nsay, say
from app.web.pieces import rule_tag

DOING: Final = {
    "prove": "You were challenged: answer below.",
    "lose": "Choose below the card you lose.",
    "show": "Pick a card below.",
    "decide": "Decide below about the card you saw.",
}
"""A step only this player can take, as the alert's headline (draw and keep count cards)."""
COUNTED: Final = {
    "draw": ("Enter below the card you drew.", "Enter below the cards you drew."),
    "keep": ("Choose below the card you keep.", "Choose below the cards you keep."),
}


CALM: Final = ('\n\n\n\n\n<section id="alert" class="alert calm" role="status"\n  \n  hidden>'
               + "\n  " * 12 + "\n</section>")
"""The alert of a seat the table asks nothing of and nothing is aimed at: hidden, and the same
on every phone in every language (:func:`is_calm`)."""


def is_calm(scope: Mapping[str, Any]) -> bool:
    """Whether the seat of ``scope`` (the region's, or the whole screen's view) has nothing to
    be alerted to: no step or question of its own, no undo to tell, no action aimed at it."""
    t, name = scope["view"]["turn"], scope["name"]
    targeted = t and t["target"] == name and t["actor"] != name
    return not (scope["just_undone"] or scope["must_act"] or scope["asked_kinds"] or targeted)


def alert_html(scope: Mapping[str, Any]) -> str:
    """phone/_alert.html drawn from ``scope``."""
    if is_calm(scope):
        return CALM
    voice: Voice = scope["voice"]
    t, name, kinds = scope["view"]["turn"], scope["name"], scope["asked_kinds"]
    targeted = t and t["target"] == name and t["actor"] != name
    must, undone = scope["must_act"], scope["just_undone"]
    state = "must" if must else ("may" if kinds else "calm")
    buzz = f'data-buzz="{escape(scope["buzz"])}"' if must else ""
    return "".join((
        f'\n\n\n\n\n<section id="alert" class="alert {state}" role="status"\n  {buzz}\n'
        "  >\n  \n  ",
        f'<p class="undone">↶ {say(voice, "The referee undid: %(step)s", step=undone)}</p>'
        if undone else "",
        "\n  ",
        f'<p class="its-you">{say(voice, "It’s you")}</p>' if must else "",
        "\n  \n  \n  ", _doing(scope, voice), "\n  ", _aimed(scope, voice, t, targeted),
        "\n  ", _questions(scope, voice), "\n</section>"))


def _doing(scope: Mapping[str, Any], voice: Voice) -> str:
    """The headlines of the steps only this player can take."""
    doing = scope["own_kinds"]
    if not doing:
        return ""
    many = {p.kind: p.options["count"] for p in scope["asked"] if p.kind in COUNTED}
    lines = []
    for kind in doing:
        if kind in COUNTED:
            one, more = COUNTED[kind]
            count = many.get(kind, 2)
            lines.append(nsay(voice, one, more, count))
        else:
            lines.append(say(voice, DOING[kind]))
    return "\n  \n  \n  \n  " + "".join(f"<h2>{line}</h2>" for line in lines) + "\n  "


def _aimed(scope: Mapping[str, Any], voice: Voice, t: Mapping[str, Any] | None,
           targeted: object) -> str:
    """What the action aimed at this player, or its block of their action, says."""
    act, card, name = scope["act"], scope["card"], scope["name"]
    aimed = ""
    if t and targeted and (scope["asked_kinds"] or t["window"]) and not scope["own_kinds"]:
        line = say(voice, "%(name)s targets you with the %(action)s.", name=t["actor"],
                   action=act(t["action"]))
        aimed = f"\n  \n  <h2>{line}</h2>\n  "
    blocked = "".join(
        "\n  \n  <h2>{}</h2>\n  ".format(say(
            voice, "%(name)s blocks your %(action)s, claiming the %(card)s.",
            name=p.options["claimant"], action=act(t["action"]),
            card=card(p.options["claim"])))
        for p in _asked(scope, "respond") if p.options.get("on_block") and t
        and t["actor"] == name)
    declare = f"<h2>{say(voice, 'Your turn.')}</h2>" \
        if "declare" in scope["asked_kinds"] else ""
    return f"{aimed}\n  {blocked}\n  {declare}"


def _questions(scope: Mapping[str, Any], voice: Voice) -> str:
    """The windows open to this player: a claim to challenge, an action to block."""
    card = scope["card"]
    challenges = []
    for p in _asked(scope, "respond"):
        o = p.options
        text = "You may challenge %(name)s’s claim to hold no %(card)s." if o.get("inverted") \
            else "You may challenge %(name)s’s %(card)s."
        claim = say(voice, text, name=o["claimant"], card=card(o["claim"]))
        risk = o["risk"]
        tag = f" {rule_tag(risk.rule, scope['rules_url'])}" if risk.rule else ""
        challenges.append(f"\n  \n  \n  \n  <p>{claim}</p>\n  \n  <p class=\"risk\"><small>"
                          f"{escape(scope['yours'](risk))}{tag}</small></p>\n  ")
    blocks = "".join("\n  \n  <p>{}</p>\n  ".format(say(
        voice, "You may block it by claiming the %(cards)s.",
        cards=scope["card_list"](p.options["as"]))) for p in _asked(scope, "block"))
    how = ""
    if scope["answers"] == "tablet" and len(scope["asked_kinds"]) > len(scope["own_kinds"]):
        how = "\n  <p class=\"how\">{}</p>\n  ".format(
            say(voice, "Say it at the table: the referee taps it on the tablet."))
    return f"{''.join(challenges)}\n  {blocks}\n  {how}"


def _asked(scope: Mapping[str, Any], kind: str) -> list[Prompt]:
    return [p for p in scope["asked"] if p.kind == kind]
