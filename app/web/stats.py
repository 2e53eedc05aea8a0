"""The players' numbers across nights, without accounts: each finished game's numbers (games,
wins, bluffs, challenges, claims) kept per name for the players' page, written in the same
transaction as the row that ends the game (and taken out by the undo that reopens it);
renaming and merging players. Names that look the same are one player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from app.engine import Game
from app.engine.errors import RuleError
from app.engine.story import Story, story
from app.engine.table import check_name, look_alike, printable
from app.store import GameResult, Writing
from app.web.pool import StorePool
from app.web.refusals import NightProblem, Why
from app.web.state import TableState


def note(writing: Writing, before: TableState, after: TableState) -> None:
    """Inside the transaction of the row that leads from ``before`` to ``after``: a game that
    ends is counted at once, one that settles is marked so, and the undo that reopens a game
    takes it out again. The players' page always agrees with the log."""
    if after.over and (not before.over or after.settled != before.settled):
        assert after.game is not None
        writing.keep_result(result(after.game, after.games, after.settled))
    elif before.over and not after.over and before.games == after.games:
        writing.drop_result(before.games)


def result(game: Game, number: int, settled: bool) -> GameResult:
    """The numbers of a finished game, the ``number``-th at its table."""
    told: Story = story(game)
    tallies = {name: {**t.__dict__, "tracked": game.player(name).tracked}
               for name, t in told.tallies.items()}
    return GameResult(number, game.winner, tallies, settled)


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    claims: int
    bluffs: int
    known_claims: int
    caught: int
    challenges_won: int
    challenges_lost: int
    favourite: tuple[str, ...]  # the card(s) claimed most often: all of them on a tie

    @property
    def bluff_rate(self) -> int | None:
        return None if not self.known_claims else round(100 * self.bluffs / self.known_claims)

    @property
    def accuracy(self) -> int | None:
        made = self.challenges_won + self.challenges_lost
        return None if not made else round(100 * self.challenges_won / made)


class People:
    """Who a name at a table is: the player it was renamed or merged into, else one player per
    name as the eye reads it ("ann" and "Ann"), shown as first spelt."""

    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names
        self.first: dict[str, str] = {}

    def who(self, name: str) -> str:
        key = look_alike(name.strip())
        return self.names.get(key) or self.first.setdefault(key, name.strip())


PUBLIC: Final = ("claims", "caught", "challenges_won", "challenges_lost")
"""What a game's tallies tell that everyone at the table saw: counted as soon as it is over."""
HIDDEN: Final = ("bluffs", "known_claims")
"""What they tell of hidden cards (uncaught bluffs): counted once the game is settled."""


def player_stats(results: Sequence[GameResult], names: Mapping[str, str]) -> list[PlayerStats]:
    """Every player known on this laptop, most wins first."""
    people = People(names)
    totals: dict[str, Counter[str]] = {}
    claimed: dict[str, Counter[str]] = {}
    for game in results:
        for name, t in game.tallies.items():
            who = people.who(name)
            c = totals.setdefault(who, Counter())
            c["games"] += 1
            c["wins"] += game.winner == name
            for key in (*PUBLIC, *HIDDEN) if game.settled else PUBLIC:
                c[key] += int(t.get(key, 0))
            claimed.setdefault(who, Counter()).update(t.get("claimed", {}))
    out = [PlayerStats(who, **{k: c[k] for k in ("games", "wins", *PUBLIC, *HIDDEN)},
                       favourite=_favourite(claimed.get(who)))
           for who, c in totals.items()]
    return sorted(out, key=lambda s: (-s.wins, -s.games, s.name.casefold()))


def _favourite(claimed: Counter[str] | None) -> tuple[str, ...]:
    """The cards claimed most often, in the order of the cards' names: a tie shows every card
    of it, rather than one picked by which was claimed first."""
    if not claimed:
        return ()
    most = max(claimed.values())
    return tuple(sorted(card for card, n in claimed.items() if n == most))


def clean_name(text: str) -> str:
    """A player's new name, checked as the set-up form checks one (the engine's rule)."""
    try:
        return check_name(text or "")
    except RuleError as error:
        raise NightProblem(Why.RULE, error) from None


def _known(known: set[str], *names: str) -> None:
    for name in names:
        if name not in known:
            raise NightProblem(Why.NO_SUCH_PLAYER, name=printable(name[:40]))


class PlayerBook:
    """The players' page's part of the service: its one read, and renames and merges, each
    one write of the names (the games' numbers are written with their table's log rows)."""

    def __init__(self, pool: StorePool) -> None:
        self.pool = pool

    def players(self) -> list[PlayerStats]:
        with self.pool.players() as store:
            return player_stats(store.results(), store.aliases())

    def language_of_device(self, device: str) -> str | None:
        """The language a phone's pages speak (its seat's choice, else its table's)."""
        with self.pool.players() as store:
            return store.language_of_device(device)

    def rename(self, old: str, new: str) -> str:
        """Every game ``old`` played is now ``new``'s (the name as it was cleaned, returned).
        To join two players, use :meth:`merge`."""
        new = clean_name(new)

        def decide(results: list[GameResult], names: dict[str, str]) -> tuple[list[str], str]:
            known = {s.name for s in player_stats(results, names)}
            _known(known, old)
            clash = next((k for k in known if look_alike(k) == look_alike(new) and k != old),
                         None)
            if clash is not None:
                raise NightProblem(Why.NAME_TAKEN, name=clash)
            return _keys_of(results, names, old), new

        with self.pool.players() as store:
            store.name_people(decide)
        return new

    def merge(self, old: str, into: str) -> None:
        """Join two players: ``old``'s games become ``into``'s. Two people who sat at one
        table are two players: merging them would count that game twice, so it is refused."""
        def decide(results: list[GameResult], names: dict[str, str]) -> tuple[list[str], str]:
            _known({s.name for s in player_stats(results, names)}, old, into)
            if old == into:
                raise NightProblem(Why.SAME_PLAYER)
            if _played_together(results, names, old, into):
                raise NightProblem(Why.PLAYED_TOGETHER, name=old, other=into)
            return _keys_of(results, names, old), into

        with self.pool.players() as store:
            store.name_people(decide)


def _keys_of(results: Sequence[GameResult], names: Mapping[str, str], old: str) -> list[str]:
    """The keys of every name that is now ``old``'s."""
    people = People(names)
    played = [name for game in results for name in game.tallies]
    keys = {look_alike(n) for n in played if people.who(n) == old}
    keys.update(key for key, who in names.items() if who == old)
    keys.add(look_alike(old))
    return sorted(keys)


def _played_together(results: Sequence[GameResult], names: Mapping[str, str], one: str,
                     other: str) -> bool:
    people = People(names)
    return any({one, other} <= {people.who(n) for n in game.tallies} for game in results)
