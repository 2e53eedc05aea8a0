"""What happens now: who may or must do what. The screens are drawn from this alone.

`pending(game)` lists one Prompt per person the table is waiting for (or who may speak up in
an open window). Every instruction a screen shows comes from here, worded from the same state
and settings as the rulings: the question a window asks, what proving or conceding costs, how
to draw a replacement in this edition. A prompt's `options` may hold that person's hidden
cards: the web layer shows a private prompt's options only to its owner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from app.frozen import FrozenDict, FrozenList

from .cards import ACTIONS
from .legality import block_characters, blockers, challengers, declarations
from .memo import PerGame
from .rulings import N_, NP_, Ruling, action, card
from .setup import all_face_up, characters_in_play
from .state import Game
from .steps import STEPS, PromptKind
from .turn import BlockWindow, Challenged, ChallengeWindow, Draw, Examine, Exchange, Turn

# Prompts a phone answers for its own seat: they involve or reveal that seat's hidden cards.
PRIVATE_KINDS = frozenset(k for s in STEPS.values() if s.private for k in s.prompts)


@dataclass(frozen=True)
class Prompt:
    """Whom the table waits for, and for what. Prompts are remembered per state and shared by
    every screen, so their options are read-only (and may hold that player's cards)."""

    player: str
    kind: PromptKind
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        read_only = {key: _read_only(value) for key, value in self.options.items()}
        object.__setattr__(self, "options", MappingProxyType(read_only))

    @property
    def private(self) -> bool:
        return self.kind in PRIVATE_KINDS

    def allows(self, do: str) -> bool:
        """Whether a step of kind `do` is taken for this prompt (the table of step kinds)."""
        return self.kind in STEPS[do].prompts


def _read_only(value: Any) -> Any:
    """``value`` with every list and dict in it (a player's cards, the actions and their
    targets) made read-only, all the way down; anything else is already immutable."""
    if type(value) is list:
        return FrozenList(_read_only(item) for item in value)
    if type(value) is dict:
        return FrozenDict((key, _read_only(item)) for key, item in value.items())
    return value


def pending(game: Game) -> list[Prompt]:
    """Who the table waits for now (worked out once per state: :mod:`.memo`)."""
    return list(_pending(game))


def _prompts(game: Game) -> tuple[Prompt, ...]:
    return tuple(_work_out(game))


def _work_out(game: Game) -> list[Prompt]:
    if game.over:
        return []
    t = game.turn
    if t is None:
        return [Prompt(game.current, "declare", {"actions": declarations(game, game.current)})]
    prompts: list[Prompt] = []
    w = t.open
    if isinstance(w, ChallengeWindow):
        question = challenge_question(game, t, w)
        for name in challengers(game):
            prompts.append(Prompt(name, "respond", {
                "claimant": w.claimant, "claim": w.claim, "on_block": w.on_block,
                "inverted": inverted(t, w.on_block), "question": question,
                "risk": challenge_risk(game, t, w, name)}))
    elif isinstance(w, BlockWindow):
        chars = list(block_characters(game.rules, t.action))
        # TRANSLATORS: question (a window open to everyone, on the tablet). action: an action name.
        question = Ruling(N_("Does anyone block the %(action)s?"), {"action": action(t.action)})
        for name in blockers(game):
            prompts.append(Prompt(name, "block", {"as": chars, "question": question}))
    if isinstance(w, Challenged):
        prompts.append(Prompt(w.claimant, "prove", prove_options(game, t, w)))
    if t.losses:
        head = t.losses[0]
        p = game.player(head.player)
        # For an untracked hand every character is offered: filtering by what is unseen
        # would tell the tablet something about the other players' hidden cards.
        cards = list(p.hand) if p.hand is not None else list(characters_in_play(game.rules))
        gone = all_face_up(game) if p.hand is None else []
        prompts.append(Prompt(p.name, "lose", {"cards": cards, "must": head.must, "gone": gone}))
    for i, d in enumerate(t.draws):
        if i == 0 or (d.reason == "proof" and not d.to_bottom):
            prompts.append(Prompt(d.player, "draw", draw_options(game, d)))
    if isinstance(w, Exchange) and not t.draws:
        prompts.append(Prompt(t.actor, "keep", keep_options(game, t, w)))
    elif isinstance(w, Examine):
        prompts.append(examine_prompt(game, t, w))
    return prompts


def inverted(t: Turn, on_block: bool) -> bool:
    return ACTIONS[t.action].inverted and not on_block


def challenge_question(game: Game, t: Turn, w: ChallengeWindow) -> Ruling:
    """The window's question, worded for the claim it is about (an Embezzle claims NOT to
    hold the Duke)."""
    if inverted(t, w.on_block):
        # TRANSLATORS: question (a window open to everyone, on the tablet). name: a player's name;
        # card: a card name (nominative).
        text = N_("Does anyone challenge %(name)s’s claim to hold no %(card)s?")
    else:
        # TRANSLATORS: question (a window open to everyone, on the tablet). name: a player's name;
        # card: a card name (nominative).
        text = N_("Does anyone challenge %(name)s’s %(card)s?")
    return Ruling(text, {"name": w.claimant, "card": card(w.claim)})


def challenge_risk(game: Game, t: Turn, w: ChallengeWindow, name: str) -> Ruling:
    """What a challenge costs the challenger if the claim is proven (E-1: the target of an
    Assassinate who challenges and loses may lose a second card to the Assassinate)."""
    params: dict[str, object] = {"name": name, "claimant": w.claimant, "card": card(w.claim),
                                 "action": action(t.action)}
    if inverted(t, w.on_block):
        # TRANSLATORS: what a challenge risks, shown to the challenger. claimant, name: players'
        # names; card: a card name (nominative).
        return Ruling(N_("If %(claimant)s shows a hand with no %(card)s, %(name)s loses an "
                         "influence."), params)
    if not w.on_block and t.action == "assassinate" and name == t.target:
        if game.rules.target_who_challenged_may_block:
            # TRANSLATORS: what a challenge risks, shown to the challenger. claimant, name:
            # players' names; card: a card name (nominative); action: an action name.
            text = N_("If %(claimant)s shows the %(card)s, %(name)s loses an influence, and the "
                      "%(action)s still goes ahead unless %(name)s blocks it.")
        else:
            # TRANSLATORS: what a challenge risks, shown to the challenger. claimant, name:
            # players' names; card: a card name (nominative); action: an action name.
            text = N_("If %(claimant)s shows the %(card)s, %(name)s loses an influence, and the "
                      "%(action)s then takes another: by this table’s rules %(name)s may not "
                      "block it.")
        return Ruling(text, params, "E-1")
    # TRANSLATORS: what a challenge risks, shown to the challenger. claimant, name: players'
    # names; card: a card name (nominative).
    return Ruling(N_("If %(claimant)s shows the %(card)s, %(name)s loses an influence."), params)


def prove_options(game: Game, t: Turn, w: Challenged) -> dict[str, Any]:
    p = game.player(w.claimant)
    claim = w.claim
    flipped = inverted(t, w.on_block)
    if p.hand is None:  # the referee's word; the engine still refuses an impossible proof
        holds = None
        can_prove = True
    else:
        holds = claim in p.hand
        can_prove = not holds if flipped else holds
    params: dict[str, object] = {"name": p.name, "card": card(claim),
                                 "challenger": w.challenger, "action": action(t.action)}
    if flipped:
        # TRANSLATORS: what proving does (a button's note, for the challenged player). card: a
        # card name (nominative); challenger, name: players' names.
        prove = Ruling(N_("Show every face-down card, none of them a %(card)s: %(challenger)s "
                          "loses an influence and %(name)s draws new cards."), params)
    else:
        # TRANSLATORS: what proving does (a button's note, for the challenged player). card: a
        # card name (nominative); challenger, name: players' names.
        prove = Ruling(N_("Show the %(card)s: %(challenger)s loses an influence and %(name)s "
                          "draws a new card."), params)
    return {"claim": claim, "inverted": flipped, "holds": holds, "can_prove": can_prove,
            "challenger": w.challenger, "prove": prove,
            "concede": concede_cost(game, t, w, params)}


def concede_cost(game: Game, t: Turn, w: Challenged, params: dict[str, object]) -> Ruling:
    """What conceding really costs: a target who bluffed a Contessa loses the bluff's card and
    then the other to the Assassinate (E-2)."""
    p = game.player(w.claimant)
    if not w.on_block:
        if p.face_down == 1:
            # TRANSLATORS: what conceding costs (a button's note, for the challenged player).
            # name: a player's name; action: an action name.
            text = N_("Concede: %(name)s loses the last influence and is out; the %(action)s "
                      "is cancelled.")
        else:
            # TRANSLATORS: what conceding costs (a button's note, for the challenged player).
            # name: a player's name; action: an action name.
            text = N_("Concede: %(name)s loses an influence and the %(action)s is cancelled.")
        return Ruling(text, params)
    if t.action == "assassinate" and p.name == t.target:
        if p.face_down == 1:
            # TRANSLATORS: what conceding costs (a button's note, for the challenged player).
            # name: a player's name.
            return Ruling(N_("Concede: %(name)s loses the last influence and is out."), params)
        # TRANSLATORS: what conceding costs (a button's note, for the challenged player). name: a
        # player's name; action: an action name.
        return Ruling(N_("Concede: %(name)s loses an influence, then the %(action)s takes the "
                         "other one: %(name)s is out."), params, "E-2")
    if p.face_down == 1:
        # TRANSLATORS: what conceding costs (a button's note, for the challenged player). name: a
        # player's name; action: an action name.
        return Ruling(N_("Concede: %(name)s loses the last influence and is out; the "
                         "%(action)s goes ahead."), params)
    # TRANSLATORS: what conceding costs (a button's note, for the challenged player). name: a
    # player's name; action: an action name.
    return Ruling(N_("Concede: %(name)s loses an influence and the %(action)s goes ahead."),
                  params)


def draw_options(game: Game, d: Draw) -> dict[str, Any]:
    p = game.player(d.player)
    return {"count": d.count, "reason": d.reason, "tracked": p.tracked,
            "choices": list(characters_in_play(game.rules)),
            "instruction": draw_instruction(d)}


def draw_instruction(d: Draw) -> Ruling:
    """How to take the cards from the real deck, in this edition's way (proof_replacement,
    E-30's order for a forced swap). The drawer's own shown card may be named: only the
    drawer sees this prompt."""
    n = d.count
    if d.reason == "exchange":
        if n == 0:
            return Ruling(N_("The court deck is empty: there is nothing to draw."))
        # TRANSLATORS: instruction to a player, on the phone (imperative). n: a number.
        return Ruling(NP_("Draw %(n)s card from the court deck.",
                          "Draw %(n)s cards from the court deck."), {"n": n}, count="n")
    if d.reason == "examine":
        if d.returned:
            # TRANSLATORS: instruction to a player, on the phone (imperative). card: a card name
            # (nominative).
            return Ruling(N_("Draw a new card from the court deck first, then put the shown "
                             "%(card)s into the deck."), {"card": card(d.returned[0])}, "E-30")
        return Ruling(N_("Draw a new card from the court deck first, then put the shown card "
                         "into the deck."), {}, "E-30")
    if d.to_bottom:
        # TRANSLATORS: instruction to a player, on the phone (imperative). n: a number.
        return Ruling(NP_("Put the shown card at the bottom of the court deck, then draw the "
                          "top card.",
                          "Put the %(n)s shown cards at the bottom of the court deck, then "
                          "draw as many from the top."), {"n": n}, count="n")
    if n == 1 and len(d.returned) == 1:
        # TRANSLATORS: instruction to a player, on the phone (imperative). card: a card name
        # (nominative).
        return Ruling(N_("Shuffle the %(card)s into the court deck, then draw a new card."),
                      {"card": card(d.returned[0])})
    # TRANSLATORS: instruction to a player, on the phone (imperative). n: a number.
    return Ruling(NP_("Shuffle the shown card into the court deck, then draw a new card.",
                      "Shuffle the %(n)s shown cards into the court deck, then draw as many "
                      "new cards."), {"n": n}, count="n")


def keep_options(game: Game, t: Turn, w: Exchange) -> dict[str, Any]:
    p = game.player(t.actor)
    offered = None if p.hand is None else list(p.hand) + list(w.drawn)
    limit = game.rules.ambassador_max_swap
    if limit < p.face_down:
        # TRANSLATORS: instruction to a player, on the phone (imperative). n, max: numbers.
        instruction = Ruling(NP_("Keep %(n)s card (at most %(max)s of them newly drawn), "
                                 "return the rest to the court deck and shuffle it.",
                                 "Keep %(n)s cards (at most %(max)s of them newly drawn), "
                                 "return the rest to the court deck and shuffle it."),
                             {"n": p.face_down, "max": limit}, "E-18", "n")
    else:
        # TRANSLATORS: instruction to a player, on the phone (imperative). n: a number.
        instruction = Ruling(NP_("Keep %(n)s card, return the rest to the court deck and "
                                 "shuffle it.",
                                 "Keep %(n)s cards, return the rest to the court deck and "
                                 "shuffle it."), {"n": p.face_down}, count="n")
    # offered: the hand first, then the cards drawn (from_hand: where the drawn ones begin).
    return {"count": p.face_down, "offered": offered, "max_swap": limit,
            "from_hand": 0 if p.hand is None else len(p.hand), "instruction": instruction}


def examine_prompt(game: Game, t: Turn, w: Examine) -> Prompt:
    target = game.player(str(t.target))
    if w.stage == "show":
        blind = w.shown_by != target.name
        return Prompt(w.shown_by, "show", {
            "target": target.name, "blind": blind,
            "cards": None if blind or target.hand is None else list(target.hand),
            "face_down": target.face_down, "tracked": target.tracked})
    mandatory = game.rules.examine_swap == "mandatory" and game.deck_size > 0
    return Prompt(t.actor, "decide", {"target": t.target, "shown": w.shown,
                                      "can_swap": game.deck_size > 0, "can_return": not mandatory})


_pending = PerGame(_prompts)
