"""The one table of step kinds: every thing that can happen at the table, as data.

A step kind says which keys it takes besides `do`, which prompts (`pending`) it is taken for, and
whether it is private: taken on its owner's phone because it involves that seat's hidden cards
(an untracked seat's private steps are taken on the tablet). The record validator, the web's
form parsing and permission check, the explorer and the words for a step are all read from
this table, so a new kind of step is added here, and its handler registers against it
(`@handles`, in the module of the rulebook's section it belongs to).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, TypeVar

from .cards import ACTIONS
from .errors import RuleError
from .rulings import N_, ActionName, CardName, Ruling
from .state import Game, Step

Handler = Callable[[Game, Step], Game]
H = TypeVar("H", bound=Handler)

PromptKind = Literal["declare", "respond", "block", "prove", "lose", "draw", "keep", "show",
                     "decide"]

FIELDS = ("by", "target", "as", "card", "cards")  # every key a step may take besides "do"


@dataclass(frozen=True)
class StepKind:
    name: str
    prompts: tuple[PromptKind, ...]  # the prompts (`pending`) this step is taken for
    takes: tuple[str, ...]  # keys besides "do"
    needs: tuple[str, ...]  # keys that must be there
    private: bool  # involves the taker's hidden cards: their phone takes it
    words: str  # the step in a few words, for an undo or a log of steps


def _action(name: str) -> StepKind:
    """Declaring an action. Whether it takes a target is the action's own rule (cards.py), so
    "The Income takes no target" is said in the action's words."""
    # TRANSLATORS: a step in a few words (the steps the referee undid). by, target: players' names;
    # action: an action name.
    words = (N_("%(by)s: %(action)s → %(target)s") if ACTIONS[name].targeted
             # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's
             # name; action: an action name.
             else N_("%(by)s: %(action)s"))
    return StepKind(name, ("declare",), ("by", "target"), ("by",), False, words)


STEPS: dict[str, StepKind] = {
    k.name: k
    for k in (
        *(_action(name) for name in ACTIONS),
        StepKind("challenge", ("respond",), ("by",), ("by",), False,
                 # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's
                 # name.
                 N_("%(by)s challenges")),
        StepKind("block", ("block",), ("by", "as"), ("by", "as"), False,
                 # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's
                 # name; card: a card name (nominative).
                 N_("%(by)s blocks with the %(card)s")),
        # `by` absent: the table (nobody else challenges or blocks); present: one player.
        # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's name.
        StepKind("pass", ("respond", "block"), ("by",), (), False, N_("%(by)s lets it stand")),
        # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's name.
        StepKind("prove", ("prove",), ("by",), ("by",), True, N_("%(by)s proves the claim")),
        # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's name.
        StepKind("concede", ("prove",), ("by",), ("by",), True, N_("%(by)s concedes")),
        StepKind("lose", ("lose",), ("by", "card"), ("by", "card"), True,
                 # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's
                 # name; card: a card name (nominative).
                 N_("%(by)s turns the %(card)s face up")),
        StepKind("draw", ("draw",), ("by", "cards"), ("by",), True,
                 # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's
                 # name.
                 N_("%(by)s draws from the court deck")),
        StepKind("keep", ("keep",), ("by", "cards"), ("by",), True,
                 # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's
                 # name.
                 N_("%(by)s finishes the exchange")),
        # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's name.
        StepKind("show", ("show",), ("by", "card"), ("by",), True, N_("%(by)s: a card is shown")),
        # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's name.
        StepKind("swap", ("decide",), ("by",), ("by",), True, N_("%(by)s swaps the shown card")),
        StepKind("return", ("decide",), ("by",), ("by",), True,
                 # TRANSLATORS: a step in a few words (the steps the referee undid). by: a player's
                 # name.
                 N_("%(by)s gives the shown card back")),
    )
}
TABLE_PASS = N_("Nobody (else) challenges or blocks")
KEYS = {k.name: frozenset({"do", *k.takes}) for k in STEPS.values()}  # every key a step takes
NAMES = frozenset({"by", "target", "as", "card"})  # keys whose value names a player or card
NAMED = {k.name: tuple(key for key in k.takes if key in NAMES) for k in STEPS.values()}


HANDLERS: dict[str, Handler] = {}  # filled by @handles in the modules that handle steps


def handles(*names: str) -> Callable[[H], H]:
    """Register a step kind's handler (the modules by the rulebook's sections use it)."""

    def register(handler: H) -> H:
        for name in names:
            assert name in STEPS and name not in HANDLERS, name
            HANDLERS[name] = handler
        return handler

    return register


# A Step from all six of its fields in order, without the named tuple's own `__new__` (a
# Python function, which would double the cost of making the one Step every step needs).
new_step: Callable[[tuple[Any, ...]], Step] = partial(tuple.__new__, Step)


def parse_step(data: object) -> Step:
    """A Step from a record's (or a form's) step object, checked against the table's keys.

    Values are checked for their type only; whether they fit the game is the handlers' call."""
    if not isinstance(data, dict):
        raise RuleError("step_not_object", N_("A step must be an object."))
    do = data.get("do")
    kind = STEPS.get(do) if isinstance(do, str) else None
    if kind is None:
        # TRANSLATORS: error. do: a word of the record format.
        raise RuleError("unknown_step", N_("Unknown step ‘%(do)s’."), do=str(do))
    if not KEYS[kind.name].issuperset(data):
        key = next(k for k in data if k not in KEYS[kind.name])
        # TRANSLATORS: error. do: a word of the record format; key: a word of the record
        # format, as written there.
        raise RuleError("step_key", N_("A ‘%(do)s’ step takes no ‘%(key)s’."),
                        do=kind.name, key=str(key))
    for key in NAMED[kind.name]:
        if not isinstance(data.get(key, ""), str):  # absent is fine here; needed, below
            # TRANSLATORS: error. key: a word of the record format, as written there.
            raise RuleError("step_value", N_("‘%(key)s’ must be a name."), key=key)
    for key in kind.needs:
        if key not in data:
            # TRANSLATORS: error. do: a word of the record format; key: a word of the record
            # format, as written there.
            raise RuleError("step_needs", N_("A ‘%(do)s’ step needs ‘%(key)s’."), do=kind.name,
                            key=key)
    cards = data.get("cards")
    if cards is not None and not (isinstance(cards, list)
                                  and all(isinstance(c, str) for c in cards)):
        raise RuleError("step_cards", N_("‘cards’ must be a list of cards."))
    get = data.get
    return new_step((kind.name, get("by"), get("target"), get("as"), get("card"),
                     None if cards is None else tuple(cards)))


def describe(step: Step) -> Ruling:
    """The step in a few public words (never a hidden card: draws, keeps and shows name none)."""
    if step.do == "pass" and step.by is None:
        return Ruling(TABLE_PASS)
    params: dict[str, object] = {"by": step.by or "", "action": ActionName(step.do),
                                 "target": step.target or "",
                                 "card": CardName(step.as_ or step.card or "")}
    return Ruling(STEPS[step.do].words, params)
