"""What the screens ask the engine besides the rules of play: a form's fields as a step, who
takes a step (a seat's phone or the tablet), the examiner's blind pick, and when the record,
which holds every hidden card, may be downloaded. The web layer words the refusals; it never
decides these itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from .cards import INQUISITOR
from .errors import RuleError
from .prompts import Prompt, pending
from .rulings import N_, card
from .state import Game
from .steps import STEPS


def step_from_fields(game: Game, by: str | None, fields: Mapping[str, str],
                     cards: Sequence[str]) -> dict[str, Any]:
    """A form's fields as a game-record step: only the fields its kind takes (the table of
    step kinds); `by` is the seat it is for (None: the table's). The engine judges the rest
    when the step is applied. A blind examiner picks by place in the hand (`position`)."""
    kind = STEPS.get(fields.get("do", ""))
    if kind is None:
        raise RuleError("unknown_step", N_("Unknown step."))
    step: dict[str, Any] = {"do": kind.name}
    if by and "by" in kind.takes:
        step["by"] = by
    for key in ("target", "as", "card"):
        value = fields.get(key)
        if value and key in kind.takes:
            step[key] = value
    if "cards" in kind.takes and by and game.has(by) and game.player(by).tracked:
        step["cards"] = [c for c in cards if c]
    target = blind_target(game)
    if kind.name == "show" and target is not None:
        step.pop("card", None)
        picked = card_at(game, target, fields.get("position", ""))
        if picked is not None:
            step["card"] = picked
    return step


def blind_target(game: Game) -> str | None:
    """The target whose card the examiner picks blind now (examine_shown_by), or None."""
    return next((p.options["target"] for p in pending(game)
                 if p.kind == "show" and p.options["blind"]), None)


def card_at(game: Game, target: str, position: str) -> str | None:
    """The card at `position` in the target's hand (None: the hand is untracked). The
    examiner picks by place, never by name: naming cards one by one and reading the refusals
    would tell them the hand."""
    hand = game.player(target).hand
    if hand is None:
        return None
    if not position.isdigit() or int(position) >= len(hand):
        raise RuleError("pick_a_card", N_("Pick one of the cards."))
    return hand[int(position)]


class Answers(Enum):
    """Who may answer the table's open questions (declare, challenge, block, let it stand)."""

    TABLET = "tablet"  # the tablet only: one person operates it for the table
    BOTH = "both"  # each player on their own phone too; the tablet can still tap everything


def answers_of(setup: Mapping[str, Any]) -> Answers:
    """A table's choice (its set-up's ``answers``); phones too unless it says otherwise."""
    try:
        return Answers(setup.get("answers", Answers.BOTH.value))
    except ValueError:
        return Answers.BOTH


def phone_prompts(game: Game, seat: str, answers: Answers) -> list[Prompt]:
    """What a seat's phone may answer now: its own private steps, and, when phones answer, its
    own part of the public ones (declaring on its turn; challenging, blocking or letting a
    claim stand for itself only)."""
    return [p for p in pending(game) if p.player == seat
            and (p.private or answers is Answers.BOTH)]


def phone_may_take(game: Game, seat: str, do: str, answers: Answers = Answers.TABLET) -> None:
    """A phone takes only its own seat's steps, and only the ones asked of it. Two answers to
    one question are settled by the version each form carries: exactly one applies."""
    if not any(p.allows(do) for p in phone_prompts(game, seat, answers)):
        raise RuleError("nothing_for_you", N_("There is nothing for you to do right now."))


def tablet_may_take(game: Game, by: str | None, do: str) -> None:
    """The tablet takes the public steps, and the private steps of a seat with no phone."""
    if by is None:
        return
    if not game.has(by):
        raise RuleError("no_such_seat", N_("There is no such player at this table."))
    private = any(p.player == by and p.private and p.allows(do) for p in pending(game))
    if private and game.player(by).tracked:
        # TRANSLATORS: error. name: a player's name.
        raise RuleError("phone_only", N_("Only %(name)s’s phone can do that."), name=by)


def undo_problem(step: Mapping[str, Any]) -> RuleError | None:
    """Why the referee may not undo this step, or None. A card shown to the Inquisitor can't be
    taken back: the examiner has seen it, and showing again would show a second card (E-30)."""
    if step.get("do") == "show":
        # TRANSLATORS: error (undo refused). card: a card name (the Inquisitor's, in the box's
        # words).
        return RuleError("shown_for_good", N_("A card shown to the %(card)s can’t be taken "
                                              "back: the examiner has seen it (E-30)."),
                         card=card(INQUISITOR))
    return None


class Download(Enum):
    """What downloading the record (every hand, every card drawn) does now."""

    REFUSED = "refused"  # it would show the table a hidden card that still matters
    OPEN = "open"  # it shows nothing hidden that matters: no phone, or closed already
    CLOSES = "closes"  # the game is over: downloading closes it for good (no more undo)


def download(game: Game | None, closed: bool) -> Download:
    """A record shows every hidden card: with phones in play it is nobody's to see until the
    game is over, and then seeing it ends the game for good (an undo would reopen a game whose
    hands the downloader knows)."""
    if game is None:
        return Download.REFUSED
    if closed or not any(p.tracked for p in game.players):
        return Download.OPEN
    return Download.CLOSES if game.over else Download.REFUSED
