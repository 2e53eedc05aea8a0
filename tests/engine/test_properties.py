"""Property tests over random legal games with random settings (OpenSpiel's random_sim_test).

- coins and cards are conserved at every step;
- a random (mostly illegal) step is refused with RuleError and changes nothing, never crashes;
- what one seat's screen is given never depends on another seat's hidden cards;
- export then replay gives the same state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import asdict

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import Game, RuleError, apply, characters_in_play, new_game, seat_view, table_view
from app.records import export, parse
from app.simulate import random_move, random_setup, random_step

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def walk(seed: int, probe=None, max_steps: int = 400):
    """Play a random legal game; call `probe(game, rng)` before each step."""
    rng = random.Random(seed)
    game = new_game(random_setup(rng))
    for _ in range(max_steps):
        if probe:
            probe(game, rng)
        after = None if game.over else random_move(game, rng)
        if after is None:
            break
        game = after
    return game


def check_conservation(game: Game) -> None:
    assert sum(p.coins for p in game.players) + game.treasury + game.reserve == (
        game.rules.coins_in_box
    )
    assert min([game.treasury, game.reserve] + [p.coins for p in game.players]) >= 0
    t = game.turn
    held_aside = t.exchange_drawn if t else 0
    cards = game.deck_size + held_aside + sum(p.face_down + len(p.revealed) for p in game.players)
    if game.rules.two_player_setup == "choose_hand":
        assert cards == 7
        return
    copies = game.rules.copies(len(game.players))
    assert cards == 5 * copies
    assert all(n >= 0 for n in game.unseen.values())
    counted = Counter(game.unseen)
    for p in game.players:
        counted.update(p.hand or [])
        counted.update(p.revealed)
    if t:
        counted.update(t.exchange_cards)
    assert counted == Counter({c: copies for c in characters_in_play(game.rules)})


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_random_games_conserve_coins_and_cards(seed: int) -> None:
    game = walk(seed, lambda g, rng: check_conservation(g))
    check_conservation(game)


def snapshot(game: Game) -> str:
    turn = None if game.turn is None else asdict(game.turn)
    return json.dumps(
        [export(game), [asdict(p) for p in game.players], turn, game.treasury, game.reserve,
         game.deck_size, sorted(game.unseen.items()), game.current, game.winner, len(game.log)],
        default=sorted,  # sets, in a stable order
    )


@settings(max_examples=100, deadline=None)
@given(seeds)
def test_illegal_steps_are_refused_and_change_nothing(seed: int) -> None:
    def probe(game: Game, rng: random.Random) -> None:
        for _ in range(3):
            step = random_step(game, rng)
            before = snapshot(game)
            try:
                apply(game, step)
            except RuleError as e:
                assert str(e)
            assert snapshot(game) == before  # apply never mutates its input

    walk(seed, probe, max_steps=150)


def scrambled(game: Game, seat: str, rng: random.Random) -> Game | None:
    """The same game with `seat`'s secret cards swapped for others (public facts kept)."""
    g = game.copy()
    p = g.player(seat)
    if p.hand is None:
        return None
    t = g.turn
    public = Counter()  # cards of this hand the table has seen: proofs awaiting replacement
    if t:
        for d in t.draws:
            if d.player == seat:
                public.update(d.returned)
        for proof in t.proofs:
            if proof.player == seat:
                public.update(proof.cards)
        if t.shown and t.target == seat:
            public[t.shown] += 1
    kept = list((Counter(p.hand) & public).elements())
    secret = len(p.hand) - len(kept)
    choices = list(characters_in_play(g.rules))
    p.hand = kept + [rng.choice(choices) for _ in range(secret)]
    if t and t.actor == seat and t.exchange_cards:
        t.exchange_cards = [rng.choice(choices) for _ in t.exchange_cards]
    return g


@settings(max_examples=120, deadline=None)
@given(seeds)
def test_no_seat_sees_another_seats_hidden_cards(seed: int) -> None:
    def probe(game: Game, rng: random.Random) -> None:
        seat = rng.choice(game.players).name
        other = scrambled(game, seat, rng)
        if other is None:
            return
        assert repr(table_view(other)) == repr(table_view(game))
        for p in game.players:
            if p.name != seat:
                assert repr(seat_view(other, p.name)) == repr(seat_view(game, p.name))

    walk(seed, probe, max_steps=200)


def test_table_view_holds_no_hand() -> None:
    def probe(game: Game, rng: random.Random) -> None:
        view = table_view(game)
        assert "hand" not in view
        assert all(not p.private for p in view["public_prompts"])

    walk(7, probe)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_export_then_replay_gives_the_same_state(seed: int) -> None:
    game = walk(seed)
    record = parse(json.loads(json.dumps(export(game))))
    again = new_game(record.setup)
    for step in record.steps:
        again = apply(again, step)
    assert snapshot(again) == snapshot(game)
