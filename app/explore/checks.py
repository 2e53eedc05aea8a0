"""The invariants the explorer checks after every step."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from app.engine import (
    CARD_ACCOUNTED_FOR,
    Game,
    RuleError,
    apply,
    characters_in_play,
    new_game,
    pending,
    seat_view,
    table_view,
)
from app.engine.cards import ACTIONS
from app.engine.state import evolve, with_player
from app.engine.turn import ChallengeWindow, Examine, Exchange
from app.records import export, parse

from .setups import Chooser, Step
from .steps import counted_out, legal_steps, near_misses


def check_conservation(game: Game) -> None:
    rules = game.rules
    coins = sum(p.coins for p in game.players) + game.treasury + game.reserve
    assert coins == rules.coins_in_box, "coins are conserved"
    assert min([game.treasury, game.reserve, *(p.coins for p in game.players)]) >= 0
    t = game.turn
    aside = t.open.count if t is not None and isinstance(t.open, Exchange) else 0
    cards = game.deck_size + aside + sum(p.face_down + len(p.revealed) for p in game.players)
    if rules.two_player_setup == "choose_hand":
        assert cards == 7, "the choose-hand set-up plays with seven cards"
        return
    copies = rules.copies(len(game.players))
    assert cards == 5 * copies, "cards are conserved"
    assert all(n >= 0 for n in game.unseen.counts)
    counted = Counter(game.unseen.items())
    for p in game.players:
        counted.update(p.hand or ())
        counted.update(p.revealed)
    if t is not None and isinstance(t.open, Exchange):
        counted.update(t.open.drawn)
    assert counted == Counter({c: copies for c in characters_in_play(rules)})


def scrambled(game: Game, seat: str, choose: Chooser[Any]) -> Game | None:
    """The same game with `seat`'s secret cards swapped for others (what the table saw kept:
    cards shown to prove a claim that wait to be replaced)."""
    p = game.player(seat)
    if p.hand is None:
        return None
    t = game.turn
    public: Counter[str] = Counter()
    if t is not None:
        for d in t.draws:
            if d.player == seat and d.reason == "proof":
                public.update(d.returned)
        for proof in t.proofs:
            if proof.player == seat:
                public.update(proof.cards)
    kept = list((Counter(p.hand) & public).elements())
    choices = list(characters_in_play(game.rules))
    hand = tuple(kept + [choose(choices, "secret") for _ in range(len(p.hand) - len(kept))])
    other = with_player(game, seat, hand=hand)
    if t is not None and t.actor == seat and isinstance(t.open, Exchange) and t.open.drawn:
        drawn = tuple(choose(choices, "secret") for _ in t.open.drawn)
        other = evolve(other, turn=evolve(t, open=evolve(t.open, drawn=drawn)))
    if t is not None and t.target == seat and isinstance(t.open, Examine) and t.open.shown:
        shown = choose(hand, "shown")
        other = evolve(other, turn=evolve(t, open=evolve(t.open, shown=shown)))
    if t is not None and any(d.player == seat and d.reason == "examine" for d in t.draws):
        return None  # the shown card waits on the target's own draw prompt: not scrambled
    return other


def sees_shown(game: Game, seat: str) -> str | None:
    """The examiner, who alone may see the card `seat` shows (E-30)."""
    t = game.turn
    if t is not None and t.target == seat and isinstance(t.open, Examine) and t.open.shown:
        return t.actor
    return None


def check_privacy(game: Game, choose: Chooser[Any]) -> None:
    seat = choose([p.name for p in game.players], "seat")
    other = scrambled(game, seat, choose)
    if other is None:
        return
    assert same(table_view(other), table_view(game)), "the table sees a hidden card"
    examiner = sees_shown(game, seat)
    for p in game.players:
        if p.name not in (seat, examiner):
            assert same(seat_view(other, p.name), seat_view(game, p.name)), (
                f"{p.name}'s screen depends on {seat}'s hidden cards")


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two views hold the same things (the logs compared as rulings, the rest as text)."""
    return a["log"] == b["log"] and repr({**a, "log": None}) == repr({**b, "log": None})


def normal(step: Step) -> str:
    """A step as comparable text: the order of the cards named does not matter."""
    if isinstance(step.get("cards"), list):
        step = {**step, "cards": sorted(map(str, step["cards"]))}
    return json.dumps(step, sort_keys=True)


def check_offers(game: Game, legal: list[Step], choose: Chooser[Any], misses: int) -> None:
    """`pending` offers a step if and only if `apply` accepts it."""
    offered = {normal(s) for s in legal}
    for step in counted_out(game):
        try:
            apply(game, step)
        except RuleError as e:
            assert e.code == CARD_ACCOUNTED_FOR, (step, e.code)
        else:
            raise AssertionError(f"accepted a card every copy of which is seen: {step}")
    for step in near_misses(game, legal, choose, misses):
        try:
            apply(game, step)
        except RuleError:
            continue
        assert normal(step) in offered, f"accepted but not offered: {step}"


def check_rules(game: Game) -> None:
    """Rulings every state must respect, whatever led to it (RULES.md §1.2-1.3, §2)."""
    prompts = pending(game)
    for p in prompts:
        assert not game.player(p.player).out, "E-7: a player who is out is never asked"
    t = game.turn
    if t is None:
        if not game.over and game.player(game.current).coins >= 10:
            [declare] = prompts
            free = [a["action"] for a in declare.options["actions"] if a["error"] is None]
            assert free == ["coup"], "E-14: ten coins at the start of a turn force a Coup"
        return
    spec = ACTIONS[t.action]
    blocking = [p.player for p in prompts if p.kind == "block"]
    if blocking:
        assert spec.blockers, "E-24: only Foreign Aid, Steal and Assassinate are blocked"
        assert t.actor not in blocking, "nobody blocks their own action"
        if spec.blockers == "target":
            assert not game.player(str(t.target)).out, "E-3: no block window for a dead target"
            if not game.rules.anyone_may_block_targeted:
                assert blocking == [t.target], "E-9: only the target blocks"
        assert not any(game.same_side(b, t.actor) for b in blocking), "E-34: not your own side"
    if isinstance(t.open, ChallengeWindow):
        asked = {p.player for p in prompts if p.kind == "respond"}
        assert t.open.claimant not in asked, "nobody challenges their own claim"
        assert asked == {p.name for p in game.players if not p.out and p.name != t.open.claimant
                         and p.name not in t.open.passed}, "E-2: every other living player"


def check_pass_is_local(game: Game, legal: list[Step], choose: Chooser[Any]) -> None:
    """E-4: a pass binds only its own window. Whatever happens next in the window, a player's
    earlier pass leaves no trace once the window is settled."""
    passes = [s for s in legal if s["do"] == "pass" and "by" in s]
    others = [s for s in legal if s["do"] in ("challenge", "block")]
    if not passes or not others:
        return
    passed = choose(passes, "passer")
    step = choose([s for s in others if s["by"] != passed["by"]] or [None], "then")
    if step is None:
        return
    before = apply(game, passed)
    if before.turn is None or before.turn.open is None or not any(
            s == step for s in legal_steps(before)):
        return
    a, b = apply(game, step), apply(before, step)
    assert evolve(a, history=()) == evolve(b, history=()), (
        f"E-4: {passed} changed what followed {step}")


def check_replay(game: Game) -> None:
    record = parse(json.loads(json.dumps(export(game))))
    again = new_game(record.setup)
    for step in record.steps:
        again = apply(again, step)
    assert again == game, "the exported record replays to the same state"
