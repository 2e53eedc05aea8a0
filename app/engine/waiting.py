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


# What the table waits for, said to the one player it waits for, on their own phone.
YOUR_TEXTS = {
    # TRANSLATORS: the phone, to its owner when the table waits for them alone. The headline
    # above already says “Your turn.”: this line says what to do.
    "declare": N_("Declare an action."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone.
    "respond": N_("You may challenge or let it stand."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone.
    "block": N_("You may block or let it stand."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone. card: a card
    # name (nominative).
    "prove": N_("Prove the %(card)s or concede."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone. card: a card
    # name (nominative).
    "prove_inverted": N_("Show a hand with no %(card)s or concede."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone.
    "lose": N_("Turn a card face up."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone.
    "draw": N_("Draw from the court deck."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone.
    "keep": N_("Choose the cards to keep."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone.
    "show": N_("Choose the card to be shown."),
    # TRANSLATORS: the phone, to its owner when the table waits for them alone.
    "decide": N_("Swap or return the shown card."),
}
KIND_OF_TEXT = {text: kind for kind, text in WAITING_TEXTS.items()}


def waiting_to_you(line: Ruling, you: str) -> Ruling:
    """The waiting line as ``you`` read it on their own phone: "You may block or let it stand."
    when the table waits for them alone, "Waiting for you and Cy to …" when with others; the
    line itself when it doesn't name them."""
    parts = line.params.get("who")
    if not isinstance(parts, list):
        return line
    mine = [p for p in parts if you in _names(p)]
    if not mine:
        return line
    if len(parts) == 1 and _names(mine[0]) == (you,):
        kind = KIND_OF_TEXT[str(mine[0].text)]
        return Ruling(YOUR_TEXTS[kind], {k: v for k, v in mine[0].params.items() if k != "names"})
    return Ruling(line.text, {**line.params, "who": [_with_you(p, you) for p in parts]})


def _names(part: Ruling) -> tuple[str, ...]:
    names = part.params.get("names")
    return tuple(names) if isinstance(names, Names) else ()


def _with_you(part: Ruling, you: str) -> Ruling:
    names = _names(part)
    if you not in names:
        return part
    others = Names(n for n in names if n != you)
    if not others:
        who = Ruling(N_("you"))
    elif len(others) == 1:
        # TRANSLATORS: the phone: its owner and one other player the table waits for, in place
        # of the names in "Waiting for %(who)s." names: the other player's name.
        who = Ruling(N_("you and %(names)s"), {"names": others})
    else:
        # TRANSLATORS: the phone: its owner first among the players the table waits for, in
        # place of the names in "Waiting for %(who)s.", listed as the tablet lists them.
        # names: the other players' names joined with commas.
        who = Ruling(N_("you, %(names)s"), {"names": others})
    return Ruling(part.text, {**part.params, "names": who})
