"""The waiting line: one public sentence saying whom the table waits for, and for what."""

from __future__ import annotations

from .prompts import Prompt, pending
from .rulings import N_, Names, Ruling, card
from .state import Game

WAITING_TEXTS = {
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas.
    "declare": N_("%(names)s to declare an action"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas.
    "respond": N_("%(names)s to challenge or let it stand"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas.
    "block": N_("%(names)s to block or let it stand"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas; card: a card name (nominative).
    "prove": N_("%(names)s to prove the %(card)s or concede"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas; card: a card name (nominative).
    "prove_inverted": N_("%(names)s to show a hand with no %(card)s or concede"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas.
    "lose": N_("%(names)s to turn a card face up"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas.
    "draw": N_("%(names)s to draw from the court deck"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas.
    "keep": N_("%(names)s to choose the cards to keep"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas.
    "show": N_("%(names)s to choose the card to be shown"),
    # TRANSLATORS: one part of "Waiting for %(who)s." (the names, then what they may do). names:
    # players' names joined with commas.
    "decide": N_("%(names)s to swap or return the shown card"),
}


def waiting(game: Game, prompts: list[Prompt] | None = None) -> Ruling:
    """One public sentence: whom the table is waiting for, grouped by what they may do."""
    if game.over:
        # TRANSLATORS: status line (tablet and phones). name: a player's name.
        return Ruling(N_("The game is over: %(name)s won."), {"name": str(game.winner)})
    groups: dict[str, list[Prompt]] = {}
    for p in pending(game) if prompts is None else prompts:
        inverted = p.kind == "prove" and p.options["inverted"]
        groups.setdefault("prove_inverted" if inverted else p.kind, []).append(p)
    parts = []
    for kind, group in groups.items():
        params: dict[str, object] = {"names": Names(p.player for p in group)}
        if kind in ("prove", "prove_inverted"):
            params["card"] = card(str(group[0].options["claim"]))
        parts.append(Ruling(WAITING_TEXTS[kind], params))
    # TRANSLATORS: status line (tablet and phones). who: the parts below ("Ann, Bob to
    # challenge or let it stand"), joined with "; ".
    return Ruling(N_("Waiting for %(who)s."), {"who": parts})
