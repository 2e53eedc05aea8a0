"""Why the service refuses a request: a code and its values. The web layer words it
(:func:`app.web.words.refusal`); the service itself knows no language."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from app.engine import RuleError


class Why(Enum):
    """Each reason a request is refused."""

    ACTED_FIRST = "acted_first"  # another tap was taken between reading the table and writing
    MOVED_ON = "moved_on"  # the form was drawn from an older version of the table
    NOT_TIMED_OUT = "not_timed_out"  # a time-out tap with no run-out countdown that lets it stand
    RULE = "rule"  # the engine refused: see `error`
    NOT_STARTED = "not_started"
    NOTHING_TO_UNDO = "nothing_to_undo"
    CLOSED = "closed"  # the record was downloaded: this game can't be undone
    TIMELINE_CLOSED = "timeline_closed"  # the timeline was opened: this game can't be undone
    HAND_LOCKED = "hand_locked"  # the game has started: hands can't change
    SEATS_LOCKED = "seats_locked"  # seats change only between games
    UNDER_WAY = "under_way"  # the game has started already
    WAITING_FOR_HANDS = "waiting_for_hands"
    NO_WINNER_YET = "no_winner_yet"
    NO_GAME_YET = "no_game_yet"
    RECORD_AFTER_GAME = "record_after_game"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_GONE = "seat_gone"  # the seat's link was re-issued
    NOT_YOUR_SEAT = "not_your_seat"  # another device holds the seat
    NOT_OPENED = "not_opened"  # post from a device that never opened the seat's link
    ON_TABLET = "on_tablet"  # the seat was set to "No phone": the tablet plays it
    NO_SUCH_LANGUAGE = "no_such_language"
    UNKNOWN_STEP = "unknown_step"
    TOO_MANY_TABLES = "too_many_tables"  # this device made many tables a moment ago
    TOO_MANY_LOBBIES = "too_many_lobbies"  # the laptop holds as many unstarted tables as it keeps
    # game night's forms (app.web.evening, app.web.stats): see NightProblem
    BAD_TARGET = "bad_target"  # the wins that take the night: not a number in range
    BAD_TIMER = "bad_timer"  # the decision timer's seconds: not a number in range
    NO_SUCH_PLAYER = "no_such_player"
    NAME_TAKEN = "name_taken"  # a rename to another player's name: a merge, not a rename
    SAME_PLAYER = "same_player"  # a merge of a player into themselves
    PLAYED_TOGETHER = "played_together"  # two names at one game are two people


STATUS: dict[Why, int] = {
    Why.ACTED_FIRST: 409,
    Why.MOVED_ON: 409,
    Why.NOT_TIMED_OUT: 409,
    Why.RULE: 422,
    Why.NOT_STARTED: 422,
    Why.NOTHING_TO_UNDO: 422,
    Why.CLOSED: 422,
    Why.TIMELINE_CLOSED: 422,
    Why.HAND_LOCKED: 422,
    Why.SEATS_LOCKED: 422,
    Why.UNDER_WAY: 422,
    Why.WAITING_FOR_HANDS: 422,
    Why.NO_WINNER_YET: 422,
    Why.NO_GAME_YET: 404,
    Why.NO_SUCH_SEAT: 404,
    Why.SEAT_GONE: 404,
    Why.RECORD_AFTER_GAME: 403,
    Why.NOT_YOUR_SEAT: 403,
    Why.NOT_OPENED: 403,
    Why.ON_TABLET: 403,
    Why.NO_SUCH_LANGUAGE: 400,
    Why.UNKNOWN_STEP: 400,
    Why.TOO_MANY_TABLES: 429,
    Why.TOO_MANY_LOBBIES: 429,
    Why.BAD_TARGET: 422,
    Why.BAD_TIMER: 422,
    Why.NO_SUCH_PLAYER: 422,
    Why.NAME_TAKEN: 422,
    Why.SAME_PLAYER: 422,
    Why.PLAYED_TOGETHER: 422,
}
"""The HTTP status each refusal is answered with."""


class Refusal(Exception):
    """A request the table can't take now; nothing was changed."""

    def __init__(self, why: Why, error: RuleError | None = None, **params: object) -> None:
        super().__init__(why.name)
        self.why = why
        self.error = error
        self.params: Mapping[str, object] = params

    @property
    def status(self) -> int:
        return STATUS[self.why]

    @classmethod
    def of(cls, error: RuleError) -> Refusal:
        return cls(Why.RULE, error)


class NightProblem(Refusal):
    """A night setting or a player's name the form sent that can't be used; ``field`` names
    the form's field it is about, if one (its message is shown beside it)."""

    def __init__(self, why: Why, error: RuleError | None = None, field: str = "",
                 **params: object) -> None:
        super().__init__(why, error, **params)
        self.field = field
        self.also: tuple[NightProblem, ...] = ()
        """The other fields' problems of the same form, each shown beside its own field."""
