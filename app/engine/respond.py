"""Responding to a claim or an action: letting it stand, challenging, blocking (§1.3)."""

from __future__ import annotations

from .cards import ACTIONS
from .errors import RuleError
from .flow import close_window
from .legality import (
    block_characters,
    blockers,
    challengers,
)
from .now import by, not_now, turn_of
from .rulings import N_, action, card
from .setup import check_card
from .state import Game, Step, evolve, with_ruling, with_turn
from .steps import handles
from .turn import Block, BlockWindow, Challenged, ChallengeWindow, Turn
from .waiting import waiting as waiting_text


@handles("pass")
def pass_(game: Game, step: Step) -> Game:
    """A pass binds only the window it was made in (E-4): the next window asks again."""
    t = turn_of(game)
    window = t.open
    if not isinstance(window, (ChallengeWindow, BlockWindow)):  # noqa: UP038 (faster)
        raise not_now(game)
    blocking = isinstance(window, BlockWindow)
    if step.by is None:
        game = with_ruling(game, N_("Nobody blocks.") if blocking else N_("Nobody challenges."))
        return close_window(game)
    eligible = blockers(game) if blocking else challengers(game)
    if step.by not in eligible:
        # TRANSLATORS: error. name: a player's name; waiting: a whole sentence saying whom the
        # table waits for.
        raise RuleError("nothing_to_pass", N_("%(name)s has nothing to pass on now. "
                                              "%(waiting)s"),
                        name=step.by, waiting=waiting_text(game))
    if len(eligible) == 1:
        return close_window(game)  # the last one asked lets it stand
    return with_turn(game, open=evolve(window, passed=(*window.passed, step.by)))


def only_passes_since(earlier: Game, now: Game, by: str) -> bool:
    """Whether all that happened between ``earlier`` and ``now`` is players other than ``by``
    letting it stand in the window open at ``earlier``, which is still open (E-4: a pass binds
    the window it was made in, and nobody's pass changes what another is asked). A pass by
    ``by`` drawn at ``earlier`` then answers the same question now: two players letting it
    stand at once both count (a player's own second tap is not one of them)."""
    done = len(earlier.history)
    if now.history[:done] != earlier.history:
        return False
    if any(s.do != "pass" or s.by in (None, by) for s in now.history[done:]):
        return False
    was, is_ = earlier.turn, now.turn
    if was is None or is_ is None:
        return False
    window = is_.open
    if not isinstance(window, (ChallengeWindow, BlockWindow)) or type(was.open) is not type(window):  # noqa: UP038
        return False
    return evolve(is_, open=evolve(window, passed=was.open.passed)) == was


@handles("challenge")
def challenge(game: Game, step: Step) -> Game:
    """One challenge per claim: the first counts, a second is refused (E-10)."""
    t = turn_of(game)
    challenger = by(step)
    if isinstance(t.open, Challenged):
        # TRANSLATORS: error. name: a player's name.
        raise RuleError("already_challenged", N_("%(name)s has already challenged; a claim is "
                                                 "challenged only once (E-10)."),
                        name=t.open.challenger)
    window = t.open
    if not isinstance(window, ChallengeWindow):
        # TRANSLATORS: error. waiting: a whole sentence saying whom the table waits for.
        raise RuleError("no_claim", N_("There is no claim to challenge now. %(waiting)s"),
                        waiting=waiting_text(game))
    if challenger == window.claimant:
        # TRANSLATORS: error. name: a player's name.
        raise RuleError("own_claim", N_("%(name)s can’t challenge their own claim."),
                        name=challenger)
    if challenger in window.passed:
        # TRANSLATORS: error. name: a player's name.
        raise RuleError("already_passed", N_("%(name)s already let this claim stand."),
                        name=challenger)
    game = with_turn(game, open=Challenged(window.claimant, window.claim, window.on_block,
                                           challenger))
    inverted = not window.on_block and ACTIONS[t.action].inverted
    # TRANSLATORS: log. challenger, claimant: players' names; card: a card name (nominative).
    # The claim challenged is that of holding no such card (the Embezzle).
    text = (N_("%(claimant)s claims to hold no %(card)s; %(challenger)s challenges.")
            # TRANSLATORS: log. challenger, claimant: players' names; card: a card name
            # (nominative). One challenges the claim, not the player.
            if inverted else N_("%(challenger)s challenges %(claimant)s’s %(card)s."))
    return with_ruling(game, text, challenger=challenger, claimant=window.claimant,
                       card=card(window.claim))



@handles("block")
def block(game: Game, step: Step) -> Game:
    """Blocks come after the action's challenge is settled, one per action (E-9, E-11, E-23)."""
    t = turn_of(game)
    blocker, as_ = by(step), str(step.as_)
    spec = ACTIONS[t.action]
    if not spec.blockers:
        # TRANSLATORS: error. action: an action name.
        raise RuleError("unblockable", N_("The %(action)s can’t be blocked (E-24)."),
                        action=action(t.action))
    if not isinstance(t.open, BlockWindow):
        if isinstance(t.open, ChallengeWindow) and not t.open.on_block:
            raise RuleError("too_early", N_("Too early to block: the challenge window is still "
                                            "open (E-23)."))
        # TRANSLATORS: error. waiting: a whole sentence saying whom the table waits for.
        raise RuleError("no_block_now", N_("No block can be made now. %(waiting)s"),
                        waiting=waiting_text(game))
    if blocker not in blockers(game):
        raise cannot_block(game, t, blocker)
    check_card(game.rules, as_)
    allowed = block_characters(game.rules, t.action)
    if as_ not in allowed:
        # TRANSLATORS: error. action: an action name; cards: card names (nominative) joined with
        # " / "; card: a card name (nominative).
        raise RuleError("wrong_blocker_card", N_("The %(action)s is blocked by claiming the "
                                                 "%(cards)s, not the %(card)s."),
                        action=action(t.action), card=card(as_),
                        cards=[card(c) for c in allowed])
    game = with_turn(game, block=Block(blocker, as_),
                     open=ChallengeWindow(blocker, as_, on_block=True),
                     tried_blockers=t.tried_blockers | {blocker})
    # TRANSLATORS: log. name: a player's name; card: a card name (nominative); action: an action
    # name.
    return with_ruling(game, N_("%(name)s claims the %(card)s to block the %(action)s."),
                       name=blocker, card=card(as_), action=action(t.action))


def cannot_block(game: Game, t: Turn, blocker: str) -> RuleError:
    spec = ACTIONS[t.action]
    target = game.player(t.target) if t.target else None
    if (spec.blockers == "target" and not game.rules.anyone_may_block_targeted
            and blocker != t.target):
        # TRANSLATORS: error. target: a player's name; action: an action name.
        return RuleError("only_target_blocks", N_("Only %(target)s, the target, can block this "
                                                  "%(action)s (E-9)."),
                         target=str(t.target), action=action(t.action))
    if spec.blockers == "target" and target is not None and target.out:
        # TRANSLATORS: error. target: a player's name; action: an action name.
        return RuleError("target_out_no_block", N_("%(target)s is out, so nobody blocks this "
                                                   "%(action)s (E-3)."),
                         target=target.name, action=action(t.action))
    if blocker != t.actor and game.same_side(blocker, t.actor):
        # TRANSLATORS: error. name, actor: players' names.
        return RuleError("same_side_block", N_("%(name)s is on %(actor)s’s side and can’t "
                                               "block them (E-34)."),
                         name=blocker, actor=t.actor)
    # TRANSLATORS: error. name: a player's name.
    return RuleError("cannot_block", N_("%(name)s can’t block now (E-1, E-11)."), name=blocker)
