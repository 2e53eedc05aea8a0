"""What the game-night screens may show: the timeline of a finished game, the night's
scoreboard, the countdown, the spectators' board and the players' page. Like :mod:`views`, the
templates receive these views only; the spectators' board is built from the public view alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from app.engine import pending
from app.engine import table_view as engine_table_view
from app.engine.cards import ACTIONS
from app.engine.story import Mark, Story, story
from app.store import Seat
from app.web import evening, views, words
from app.web.perstate import PerState
from app.web.state import TableState

TV_RULINGS: Final = 12
"""The newest rulings sent to the TV: more than its screen shows below four seats or fewer; the
rest of the screen is filled by as many as fit whole (night.js hides the others)."""
SPOKEN_RULINGS: Final = 5
SPARK_W: Final = 120
SPARK_H: Final = 28

View = dict[str, Any]


# -- the timeline -----------------------------------------------------------------------------


def timeline_open(state: TableState) -> bool:
    """The timeline shows every hand: it opens for a finished game that can't be undone any
    more (closed, or back in the lobby)."""
    return state.settled


def game_over(state: TableState) -> bool:
    return state.over


@dataclass(frozen=True)
class Chip:
    """One mark in a lane: its kind (the CSS class says how it went) and its words' parts."""

    kind: str
    how: str  # held, bluff, unknown, right, wrong, lost, plain
    card: str | None
    action: str | None
    other: str | None
    caught: bool


@dataclass(frozen=True)
class Lane:
    name: str
    won: bool
    cells: list[list[Chip]]
    coins: list[int]
    spark: str  # SVG polyline points of the coins over the game
    tally: Any
    out: int | None = None  # the turn (its index) in which the player lost their last card


def timeline(state: TableState) -> View:
    """A lane per player, a column per turn (the caller has checked :func:`timeline_open`)."""
    assert state.game is not None
    told: Story = story(state.game)
    most = max([told.start_coins[n] for n in told.players]
               + [c for t in told.turns for c in t.coins.values()] + [1])
    lanes = []
    for name in told.players:
        coins = [told.start_coins[name], *(t.coins[name] for t in told.turns)]
        cells = [[_chip(m) for m in t.of(name)] for t in told.turns]
        lanes.append(Lane(name, name == told.winner, cells, coins[1:], _spark(coins, most),
                          told.tallies[name], _went_out(cells) if state.game.player(name).out
                          else None))
    timed = clock_turns(state)
    return {"turns": told.turns, "lanes": lanes, "winner": told.winner, "clock_turns": timed,
            "clock_list": tuple(sorted(timed))}


def clock_turns(state: TableState) -> frozenset[int]:
    """The turns (numbered as the story numbers them: one per action declared) in which the
    decision timer closed a window ("on time-out, let it stand")."""
    timed = {seq for seq, _said in state.time_up}
    turn, found = 0, set()
    for seq, step in state.steps:
        turn += step.get("do") in ACTIONS
        if seq in timed:
            found.add(turn)
    return frozenset(found)


def _went_out(cells: list[list[Chip]]) -> int | None:
    """The index of the turn in which a player who is out lost their last card."""
    lost = [i for i, cell in enumerate(cells) if any(c.kind == "lose" for c in cell)]
    return lost[-1] if lost else None


def _chip(m: Mark) -> Chip:
    if m.kind in ("claim", "block"):
        how = "unknown" if m.held is None else "held" if m.held else "bluff"
    elif m.kind == "challenge":
        how = "unknown" if m.right is None else "right" if m.right else "wrong"
    elif m.kind == "lose":
        how = "lost"
    else:
        how = "plain"
    return Chip(m.kind, how, m.card, m.action, m.other, m.caught)


def _spark(coins: list[int], most: int) -> str:
    step = SPARK_W / max(len(coins) - 1, 1)
    return " ".join(f"{i * step:.1f},{SPARK_H - 2 - c * (SPARK_H - 4) / most:.1f}"
                    for i, c in enumerate(coins))


# -- the night's scoreboard -------------------------------------------------------------------


def night(state: TableState) -> View:
    chosen = evening.settings(state)
    shown = state.lobby or game_over(state)  # between games only: it tells who won
    winners = state.night_winners if shown else ()
    rows, champion = evening.scoreboard([s.name for s in state.seats], winners, chosen.target)
    return {"night_shown": shown and bool(winners), "night_scores": rows,
            "night_games": len(winners), "night_champion": champion,
            "night_settings": chosen, "timer_min": evening.TIMER_MIN,
            "timer_max": evening.TIMER_MAX, "target_max": evening.TARGET_MAX}


# -- the countdown ----------------------------------------------------------------------------


def countdown(state: TableState, now: float, seat: Seat | None = None) -> View:
    """The countdown at ``now`` (seconds since the epoch) for the tablet (``seat`` None) or
    for one phone (only when the table waits for it)."""
    running = evening.countdown(state)
    if running is None or (seat is not None and not running.for_seat(seat.name)):
        return dict(STILL)
    left = max(0, math.ceil(running.deadline - now))
    assert state.game is not None
    # Only windows open: the referee may let it stand. Else the table waits for a step only
    # its player can take (no rule lets the clock declare or choose for them).
    windows = all(p.kind in evening.WINDOW_PROMPTS for p in pending(state.game))
    return {"countdown": running, "countdown_left": left,
            "countdown_stands": running.stand and windows, "countdown_windows": windows,
            "countdown_names": tuple(running.waiting)}


# -- the spectators' board --------------------------------------------------------------------


def tv(state: TableState) -> View:
    """The public board only: the engine's table view (no hidden card at all)."""
    view: View = {"lobby": state.lobby or state.game is None, "seat_names":
                  [s.name for s in state.seats]}
    if state.game is None:
        return view
    public = engine_table_view(state.game, pending(state.game))
    view["view"] = public
    # As the tablet's log: newest first, each undo where it happened (spectators see it too).
    view["tv_log"] = views.log_lines(state, public["log"], words.table_voice(state), TV_RULINGS)
    return view


def spoken(state: TableState) -> list[views.LogLine]:
    """The newest public rulings with their number in the game, for the tablet to read aloud."""
    if state.game is None or state.lobby:
        return []
    return views.numbered(state, state.game.log, SPOKEN_RULINGS)


# -- what the tablet's and the phones' screens add --------------------------------------------


def tablet_extras(state: TableState, watch_link: str, now: float) -> View:
    """The night's parts of the referee's screen: the scoreboard and its settings, the
    countdown, the spectators' link, the rulings to read aloud, the timeline's button."""
    return {**night(state), **countdown(state, now), "watch_link": watch_link,
            "spoken": spoken(state), "speech_lang": state.table.language,
            "game_over": game_over(state)}


def phone_extras(state: TableState, seat: Seat, clock: Callable[[], float]) -> View:
    """The night's parts of a seat's screen, which are also its key beside the version (a
    seat's screen is remembered per version and by them, compared as a value: a countdown's
    seconds change between two versions; a ``repr`` of them cost ~40 us a state). The night's
    own part is the same on each phone of a version, and so is the whole of it for a seat the
    countdown does not wait for: worked out once per state. ``clock`` gives the seconds since
    the epoch, asked only when a countdown waits for the seat."""
    night = _phone_night(state)
    if night.running is None or not night.running.for_seat(seat.name):
        return night.idle
    return {**night.view, **countdown(state, clock(), seat)}


@dataclass(frozen=True)
class _PhoneNight:
    """The night's part of a state's phone screens: its view, the running countdown (or None),
    and the whole part of a seat the countdown does not wait for."""

    view: View
    running: evening.Countdown | None
    idle: View


STILL: Final[View] = {"countdown": None, "countdown_stands": False, "countdown_windows": False}
"""A phone's countdown part when the countdown does not wait for it (:func:`countdown`)."""


def _night_and_key(state: TableState) -> _PhoneNight:
    view = {**night(state), "game_over": game_over(state)}
    return _PhoneNight(view, evening.countdown(state), {**view, **STILL})


_phone_night: Final = PerState(_night_and_key, spoken=False)
