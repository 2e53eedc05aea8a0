"""The tablet's prompt (tablet/_prompt.html) drawn in Python in the usual case: a turn's
declaration, and the challenge and block windows anyone may open. It is new on every tap (what
the table waits for changed), and the template's run cost ~550 Python calls a tap even with
its buttons remembered (tabletframe.remembered). A game's end and the steps of a seat with no
phone (proofs, losses, exchanges, a shown card) stay the template's: :func:`prompt_html`
hands them to it.

The partial stays the reference and the catalogue's source of the sentences:
tests/web/test_tablet_regions.py compares both at every step of random games in every
language. A change to one needs the same change to the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from markupsafe import Markup

from app.i18n import Voice
from app.web.fragments import CSRF_SLOT, VERSION_SLOT
from app.web.i18n import escaped, say
from app.web.pieces import step_button
from app.web.tabletframe import remembered
from app.web.templating import draw

USUAL: Final = frozenset({"declare", "respond", "block"})
"""The prompts drawn here; a screen with any other (a private step, shown on the tablet for a
seat with no phone) is drawn by the template."""

TEMPLATE: Final = "tablet/_prompt.html"


def prompt_html(scope: Mapping[str, Any]) -> str:
    """tablet/_prompt.html drawn from ``scope`` (the template's own run where it is unusual)."""
    v = scope["view"]
    if v["winner"] or any(p.kind not in USUAL for p in scope["prompts"]):
        return draw(TEMPLATE, **scope, csrf=CSRF_SLOT, version=VERSION_SLOT)
    voice: Voice = scope["voice"]
    return "".join((
        '\n\n\n<section id="prompt" class="now" aria-live="polite">\n  \n'
        f'  <p class="waiting">{escaped(voice.ruling(v["waiting_ruling"]))}</p>\n  ',
        _claim(voice, v["turn"]), "\n\n  ",
        "".join([_declaration(scope, voice, p) if p.kind == "declare" else "\n  \n  \n  "
                 for p in scope["prompts"]]),
        "\n\n  \n  ", _challenges(scope, voice), "\n\n  \n  ", _blocks(scope, voice),
        "\n\n  \n</section>\n"))


def _claim(voice: Voice, t: Mapping[str, Any] | None) -> str:
    """What the turn claims: the action declared (its target, its card), or the block; none
    once the action's claim was conceded (the action is cancelled)."""
    if t is None or t["cancelled"]:
        return ""
    if t["blocker"]:
        said = say(voice, "%(name)s claims the %(card)s to block the %(action)s.",
                   name=t["blocker"], card=voice.card(t["block_as"]),
                   action=voice.action(t["action"]))
    else:
        target = f' → {escaped(t["target"])}' if t["target"] else ""
        claim = (say(voice, " (%(claim)s)", claim=voice.ruling(t["claim_words"]))
                 if t["claim_words"] else "")
        declared = say(voice, "%(name)s: %(action)s", name=t["actor"],
                       action=voice.action(t["action"]))
        said = Markup(f"{declared}{target}{claim}")
    return f'\n  \n  \n  \n  <p class="claim">{said}</p>\n  \n  '


def _declaration(scope: Mapping[str, Any], voice: Voice, p: Any) -> str:
    """A turn's declaration: an action's button each (remembered as the template's are)."""
    actions = "".join([f"\n      \n      \n      {_action(scope, voice, p.player, a)}\n    "
                       for a in p.options["actions"]])
    return (f'\n  \n  \n  <div class="prompt declare">\n    \n'
            f'    <h3>{say(voice, "%(name)s declares:", name=p.player)}</h3>\n'
            f'    <div class="actions">\n    {actions}\n    </div>\n  </div>\n  \n  ')


def _action(scope: Mapping[str, Any], voice: Voice, player: str, a: Mapping[str, Any]
            ) -> Markup:
    """One action's button (or its targets' buttons), drawn once for all it shows."""
    action, error = a["action"], a["error"]
    note = (scope["brief"](error) if error else
            voice.ruling(scope["claim_words"](action)) if scope["claim_of"](action) else None)
    post = scope["post"]

    def drawn() -> str:
        targets = a["targets"]
        if targets is None:
            button = step_button(voice.action(action), action, post, CSRF_SLOT, VERSION_SLOT,
                                 by=player, cls="action", disabled=a["reason"] is not None,
                                 note=note)
            return f"\n        {button}\n      "
        if not targets:
            button = step_button(voice.action(action), action, post, CSRF_SLOT, VERSION_SLOT,
                                 by=player, cls="action", disabled=True, note=note)
            return f"\n        {button}\n      "
        small = f"<small>{escaped(note)}</small>" if note else ""
        choices = "".join([str(step_button(
            t if t != player else say(voice, "Own side"), action, post, CSRF_SLOT, VERSION_SLOT,
            by=player, fields={"target": t}, cls="target")) for t in targets])
        return (f'\n        <details class="targets">\n          <summary class="button action">'
                f"{escaped(voice.action(action))}&nbsp;▸{small}</summary>\n"
                f'          <div class="choices">\n          {choices}\n          </div>\n'
                "        </details>\n      ")

    return remembered(voice, player, action, a["targets"], a["reason"] is None, note, post,
                      CSRF_SLOT, VERSION_SLOT, caller=drawn)


def _challenges(scope: Mapping[str, Any], voice: Voice) -> str:
    """The challenge window: "Nobody challenges", then a button for each who may."""
    responders = scope["responders"]
    if not responders:
        return ""
    post = scope["post"]

    def drawn() -> str:
        nobody = step_button(say(voice, "Nobody challenges"), "pass", post, CSRF_SLOT,
                             VERSION_SLOT, cls="primary big pass-challenge")
        names = "".join([str(step_button(
            say(voice, "%(name)s challenges", name=p.player), "challenge", post, CSRF_SLOT,
            VERSION_SLOT, by=p.player, cls="challenge")) for p in responders])
        return f'{nobody}\n    <div class="choices">\n      \n      {names}'

    buttons = remembered("challenges", voice, scope["challengers"], post, CSRF_SLOT,
                         VERSION_SLOT, caller=drawn)
    question = escaped(voice.ruling(responders[0].options["question"]))
    return (f'\n  \n  <div class="prompt respond">\n    <h3>{question}</h3>\n    {buttons}\n'
            "    </div>\n  </div>\n  ")


def _blocks(scope: Mapping[str, Any], voice: Voice) -> str:
    """The block window: a button for each who may block, with each card; "Nobody blocks"."""
    blockers = scope["blockers"]
    if not blockers:
        return ""
    post = scope["post"]

    def drawn() -> str:
        return "".join([str(step_button(
            say(voice, "%(name)s blocks with the %(card)s", name=p.player, card=voice.card(c)),
            "block", post, CSRF_SLOT, VERSION_SLOT, by=p.player, fields={"as": c},
            cls="block")) for p in blockers for c in p.options["as"]])

    buttons = remembered("blocks", voice, scope["block_offers"], post, CSRF_SLOT, VERSION_SLOT,
                         caller=drawn)
    question = say(voice, "Does anyone block the %(action)s?",
                   action=voice.action(scope["view"]["turn"]["action"]))
    nobody = step_button(say(voice, "Nobody blocks"), "pass", post, CSRF_SLOT, VERSION_SLOT,
                         cls="big pass-block")
    return (f'\n  <div class="prompt block">\n    \n    <h3>{question}</h3>\n'
            f'    <div class="choices">\n      \n      {buttons}\n    </div>\n    {nobody}\n'
            "  </div>\n  ")
