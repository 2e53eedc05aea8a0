"""How a turn moves on once a step is accepted: windows, losses, resolution, the end of a turn.

Every function takes a game and returns the next one. The turn waits while anyone owes
something (a loss, a draw, an answer to what is open); when nothing is owed, `advance` runs the
turn's next part (`Turn.next`), as far as it goes without anyone's input.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import ACTIONS
from .coins import return_coins
from .effects import EFFECTS
from .legality import may_block
from .rulings import N_, NP_, action, card
from .state import Game, evolve, with_player, with_ruling, with_turn
from .turn import BlockWindow, ChallengeWindow, Draw, Next, Turn


def turn_of(game: Game) -> Turn:
    assert game.turn is not None
    return game.turn


# --- losing influence --------------------------------------------------------------------


def turn_face_up(game: Game, name: str, which: str) -> Game:
    """Lose an influence (E-28): the card stays face up in front of its owner for good."""
    p = game.player(name)
    if p.hand is not None:
        hand = list(p.hand)
        hand.remove(which)
        game = with_player(game, name, hand=tuple(hand), face_down=p.face_down - 1,
                           revealed=(*p.revealed, which))
    else:
        game = with_player(evolve(game, unseen=game.unseen.minus((which,))), name,
                           face_down=p.face_down - 1, revealed=(*p.revealed, which))
    game = with_ruling(
        # TRANSLATORS: log. name: a player's name; card: a card name (nominative).
        game, N_("%(name)s turns the %(card)s face up."), name=name, card=card(which))
    t = game.turn
    if t is not None and p.hand is None and t.proofs:
        # FORMAT.md: an untracked prover who loses the proven card is not replaced for it.
        proofs = tuple(evolve(x, cancelled=True)
                       if x.player == name and which in x.cards else x for x in t.proofs)
        game = with_turn(game, proofs=proofs)
    if p.face_down - 1 == 0:
        game = eliminate(game, name)
    return game


def eliminate(game: Game, name: str) -> Game:
    game = with_player(game, name, out=True)
    game = evolve(game, out_this_turn=(*game.out_this_turn, name))
    game = with_ruling(
        # TRANSLATORS: log. name: a player's name.
        game, N_("%(name)s has no influence left and is out of the game."), name=name)
    if game.rules.elimination_coin_return == "immediate":
        game = return_coins(game, game.player(name))
    if sum(1 for p in game.players if not p.out) == 1:
        game = game_over(game)
    return game


def game_over(game: Game) -> Game:
    """The moment one player is left the game ends; nothing pending resolves (E-7, §1.3)."""
    winner = next(p.name for p in game.players if not p.out)
    for p in game.players:
        if p.out:
            game = return_coins(game, p)
    game = evolve(game, turn=None, winner=winner, current=winner)
    # TRANSLATORS: log. name: a player's name.
    return with_ruling(game, N_("%(name)s is the last player with influence and wins the game."),
                       name=winner)


def settle_losses(game: Game) -> Game:
    """A tracked player with one face-down card loses it without a step (FORMAT.md); a loss
    owed by a player already out is dropped."""
    while game.turn is not None and game.turn.losses:
        head, *rest = game.turn.losses
        p = game.player(head.player)
        if p.out:
            game = with_turn(game, losses=tuple(rest))
        elif p.hand is not None and p.face_down == 1:
            game = turn_face_up(with_turn(game, losses=tuple(rest)), p.name, p.hand[0])
        else:
            break
    return game


# --- windows -----------------------------------------------------------------------------
# A window opens only when someone may answer it: a claim always has another living player
# to challenge it (else the game is over), and a block window opens only for `may_block`.


def close_window(game: Game) -> Game:
    """Everyone eligible let it stand: the turn goes on (§1.3)."""
    t = turn_of(game)
    w = t.open
    then: Next = "resolve"
    if isinstance(w, ChallengeWindow):
        then = "blocked" if w.on_block else "after_claim"
    return advance(with_turn(game, open=None), then)


# --- the turn's parts --------------------------------------------------------------------

Part = Callable[[Game, Turn], tuple[Game, Next | None]]


def advance(game: Game, then: Next | None = None) -> Game:
    """Run the turn forward as far as it goes without anyone's input, from the part `then`
    (by default the turn's own `next`). Each part returns the game and the part after it."""
    if then is None and game.turn is not None:
        then = game.turn.next
    while True:
        if game.turn is not None and game.turn.losses:
            game = settle_losses(game)
        t = game.turn
        if t is None:
            return game
        if t.waiting or then is None:
            return game if t.next is then else with_turn(game, next=then)
        game, then = PARTS[then](game, t)


def after_claim(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """The action's claim stands: blocks come next, if anyone may block (E-1, E-3)."""
    able = may_block(game) if ACTIONS[t.action].blockers else []
    if able:
        if t.target_lost_challenge and t.target in able:
            game = with_ruling(
                # TRANSLATORS: log. target: a player's name; action: an action name.
                game, N_("%(target)s lost the challenge but may still block the "
                         "%(action)s."), "E-1", target=t.target, action=action(t.action))
        return with_turn(game, open=BlockWindow()), None
    target = game.player(t.target) if t.target else None
    if t.target_lost_challenge and target is not None and not target.out:
        game = with_ruling(
            # TRANSLATORS: log. target: a player's name.
            game, N_("%(target)s lost the challenge and, by this table’s rules, may not "
                     "block."), "E-1", target=t.target)
    return game, "resolve"


def blocked(game: Game, t: Turn) -> tuple[Game, Next | None]:
    if t.paid:
        game = with_ruling(
            # TRANSLATORS: log. action: an action name; cost: a number of coins.
            game, NP_("The %(action)s is blocked; the %(cost)s coin paid stays spent.",
                      "The %(action)s is blocked; the %(cost)s coins paid stay spent."),
            count="cost", action=action(t.action), cost=t.paid)
    else:
        # TRANSLATORS: log. action: an action name.
        game = with_ruling(game, N_("The %(action)s is blocked."), action=action(t.action))
    return game, "end"


def block_failed(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """One block per action, unless reblock_foreign_aid lets another player try (E-11)."""
    game = with_turn(game, block=None)
    if t.action == "foreign_aid" and game.rules.reblock_foreign_aid and may_block(game):
        game = with_ruling(
            game, N_("The block failed; by this table’s rules another player may still "
                     "block."), "E-11")
        return with_turn(game, open=BlockWindow(again=True)), None
    if t.action == "foreign_aid" and not game.rules.reblock_foreign_aid:
        # TRANSLATORS: log. action: an action name.
        game = with_ruling(game, N_("The block failed, so the %(action)s goes ahead: one block per "
                                    "action."), "E-11", action=action(t.action))
    return game, "resolve"


def resolve(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """The action takes effect (§1.3 RESOLVE); an eliminated actor's never does (E-6)."""
    if game.player(t.actor).out:
        return game, "end"
    return EFFECTS[t.action](game, t), "end"


def end(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """Replacements owed at the end of the turn (bottom_at_end_of_turn), in the order of the
    proofs. A proven card that left a tracked hand in the meantime is not replaced."""
    if not t.proofs:
        return game, "finish"
    draws = []
    for proof in t.proofs:
        p = game.player(proof.player)
        if p.out or proof.cancelled:
            continue
        if p.hand is not None:
            left = list(p.hand)
            cards = []
            for c in proof.cards:
                if c in left:
                    left.remove(c)
                    cards.append(c)
            count = len(cards)
        else:
            cards, count = [], proof.count
        if count:
            draws.append(Draw(p.name, count, "proof", tuple(cards), to_bottom=True))
    return with_turn(game, proofs=(), draws=(*t.draws, *draws)), "finish"


def finish(game: Game, t: Turn) -> tuple[Game, Next | None]:
    """Coins of players eliminated this turn go back (E-20); play passes clockwise (E-6)."""
    for name in game.out_this_turn:
        game = return_coins(game, game.player(name))
    after = evolve(game, out_this_turn=(), turn=None, current=game.next_living_after(t.actor))
    return after, None


PARTS: dict[str, Part] = {
    "after_claim": after_claim,
    "resolve": resolve,
    "blocked": blocked,
    "block_failed": block_failed,
    "end": end,
    "finish": finish,
}
