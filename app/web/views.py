"""What the templates receive: the engine's views plus names, words and links. No Game.

The tablet gets `table_view` only; a phone gets `seat_view` for its own seat. Prompts for a
seat without a phone are shown on the tablet with any hidden card stripped (an untracked
examiner's "shown" card is on nobody's screen: the target shows it at the table).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import qrcode
import qrcode.image.svg
from flask import current_app, request, url_for
from markupsafe import Markup

from app.engine import Prompt, characters_in_play, pending, seat_view, table_view
from app.engine.rules import Rules, parse_rules
from app.store import Seat
from app.web import words
from app.web.names import edition
from app.web.service import Live

RECENT_RULINGS = 30  # on the tablet's live view; the whole game is one tap away


def public_url(path: str) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + path


@lru_cache(maxsize=256)
def qr_svg(url: str) -> Markup:
    """The QR code of a link as inline SVG; remembered, since screens refresh often."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Markup(image.to_string(encoding="unicode"))


def rules_of(live: Live) -> Rules:
    return parse_rules(live.table.setup.get("rules"))


def common(live: Live) -> dict[str, Any]:
    ed = live.edition
    return {
        "live": live,
        "table": live.table,
        "version": live.version,
        "edition": edition(ed),
        "card": lambda c: words.card_name(c, ed),
        "act": lambda a: words.action_name(a, ed),
        "faction": lambda f: words.faction_name(f, ed),
        "say": lambda r: words.ruling(r, ed),
        "say_error": lambda e: words.say(e.text, e.params, ed, e.count),
        "brief": lambda e: words.say(e.brief or e.text, e.params, ed, e.count),
        "rules": rules_of(live),
        "languages": languages(),
        "claim_of": lambda a: claim_of(live, a),
    }


def claim_of(live: Live, action: str) -> str | None:
    """The character an action claims in this game (the exchanger depends on the variant)."""
    from app.engine.cards import ACTIONS, EXCHANGER

    claim = ACTIONS[action].claim
    return rules_of(live).exchanger if claim == EXCHANGER else claim


def languages() -> list[tuple[str, str]]:
    from app.web import LANGUAGES

    return [(code, words.LANGUAGE_TITLES.get(code, code)) for code in LANGUAGES]


def tablet(live: Live) -> dict[str, Any]:
    ctx = common(live)
    ctx["seats"] = live.seats
    code = current_app.extensions["tables"].join_code(live.table.id)
    ctx["join_code"] = code.code if code else None
    ctx["join_link"] = public_url(url_for("tablet.join", table_id=live.table.id))
    ctx["seat_links"] = {s.seat: public_url(url_for("phone.page", token=s.token))
                         for s in live.seats}
    if live.lobby:
        ctx["qr"] = {s.seat: qr_svg(ctx["seat_links"][s.seat]) for s in live.seats}
        return ctx
    assert live.game is not None
    prompts = pending(live.game)
    view = table_view(live.game, prompts)
    untracked = {s.name for s in live.seats if not s.tracked}
    ctx["view"] = view
    ctx["prompts"] = [p if not p.private else strip(p) for p in prompts
                      if not p.private or p.player in untracked]
    ctx["log"] = list(reversed(view["log"]))[:RECENT_RULINGS]
    ctx["log_total"] = len(view["log"])
    ctx["undone"] = [words.describe_step(s, live.edition) for s in reversed(live.undone)]
    return ctx


def strip(p: Prompt) -> Prompt:
    if p.kind == "decide":
        return Prompt(p.player, p.kind, {**p.options, "shown": None})
    return p


def phone(live: Live, seat: Seat) -> dict[str, Any]:
    ctx = common(live)
    ctx["seat"] = seat
    if live.lobby or live.game is None:
        ctx["choices"] = list(characters(live))
        return ctx
    view = seat_view(live.game, seat.name)
    ctx["view"] = view
    ctx["prompts"] = view["prompts"]
    ctx["log"] = list(reversed(view["log"]))[:8]
    ctx["me"] = next(p for p in view["players"] if p["name"] == seat.name)
    return ctx


def characters(live: Live) -> tuple[str, ...]:
    return characters_in_play(rules_of(live))


def rules_summary(live: Live) -> list[tuple[str, str, str]]:
    """(setting, explanation, this game's value) for every setting, official ones included."""
    rules = rules_of(live)
    rows = []
    for key, (explanation, labels) in words.SETTINGS.items():
        value = getattr(rules, key)
        if key == "copies_per_character":
            continue
        label = labels.get(value, value) if labels else value
        rows.append((key, str(explanation), str(label)))
    return rows
