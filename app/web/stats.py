"""The players' numbers across nights, without accounts: each finished game's numbers (games,
wins, bluffs, challenges, claims) kept per name for the players' page, once no undo can reopen
the game; renaming and merging players. Names that look the same are one player.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.engine import Game
from app.engine.errors import RuleError
from app.engine.rulings import N_
from app.engine.story import Story, story
from app.engine.table import check_name, look_alike, printable
from app.store import Store
from app.web.evening import NightProblem
from app.web.pool import StorePool
from app.web.state import TableState

if TYPE_CHECKING:  # the service calls this module; only its type is needed here
    from app.web.service import Tables


def settled(state: TableState) -> bool:
    """A finished game no undo can reopen: closed (its record or timeline was opened) or back
    in the lobby. Only such a game's hands may be shown, and its numbers counted."""
    game = state.game
    return game is not None and game.over and (state.closed or state.lobby)


def note_result(pool: StorePool, state: TableState) -> None:
    """Keep the numbers of the table's current game once it is settled (they tell whose claims
    were bluffs, so never sooner). A settled game never changes, so the first note stands."""
    game = state.game
    if game is None or not settled(state):
        return
    with pool.store() as store:
        store.db.execute(
            "INSERT OR IGNORE INTO night_games (table_id, game, finished, winner, tallies) "
            "VALUES (?, ?, ?, ?, ?)",
            [state.table.id, state.games, _finished(store, state.table.id), game.winner,
             json.dumps(_tallies(game), ensure_ascii=False)])


def _finished(store: Store, table_id: str) -> str:
    row = store.db.execute("SELECT max(created) FROM steps WHERE table_id = ?",
                           [table_id]).fetchone()
    return str(row[0] or "")


def _tallies(game: Game) -> dict[str, Any]:
    told: Story = story(game)
    return {name: {**t.__dict__, "tracked": game.player(name).tracked}
            for name, t in told.tallies.items()}


def note_all(tables: Tables) -> None:
    """Finished games on tables not yet noted (an imported record's, say)."""
    with tables.pool.store() as store:
        ids = [r[0] for r in store.db.execute(
            "SELECT id FROM tables t WHERE NOT EXISTS (SELECT 1 FROM night_games n "
            "WHERE n.table_id = t.id)").fetchall()]
    for table_id in ids:
        state = tables.load(table_id)
        if state is not None and settled(state):
            note_result(tables.pool, state)


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
    favourite: str | None

    @property
    def bluff_rate(self) -> int | None:
        return None if not self.known_claims else round(100 * self.bluffs / self.known_claims)

    @property
    def accuracy(self) -> int | None:
        made = self.challenges_won + self.challenges_lost
        return None if not made else round(100 * self.challenges_won / made)


def aliases(store: Store) -> dict[str, str]:
    """Each name's key (as the eye reads it) -> the player it now belongs to."""
    return {r[0]: r[1] for r in store.db.execute("SELECT name, person FROM night_names")}


class People:
    """Who a name at a table is: the player it was renamed or merged into, else one player per
    name as the eye reads it ("ann" and "Ann"), shown as first spelt."""

    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names
        self.first: dict[str, str] = {}

    def who(self, name: str) -> str:
        key = look_alike(name.strip())
        return self.names.get(key) or self.first.setdefault(key, name.strip())


def _games(store: Store) -> list[tuple[str | None, dict[str, Any]]]:
    rows = store.db.execute("SELECT winner, tallies FROM night_games ORDER BY rowid").fetchall()
    return [(winner, json.loads(tallies)) for winner, tallies in rows]


def player_stats(pool: StorePool) -> list[PlayerStats]:
    """Every player known on this laptop, most wins first."""
    with pool.store() as store:
        people = People(aliases(store))
        games = _games(store)
    totals: dict[str, Counter[str]] = {}
    claimed: dict[str, Counter[str]] = {}
    for winner, tallies in games:
        for name, t in tallies.items():
            who = people.who(name)
            c = totals.setdefault(who, Counter())
            c["games"] += 1
            c["wins"] += winner == name
            for key in ("claims", "bluffs", "known_claims", "caught", "challenges_won",
                        "challenges_lost"):
                c[key] += int(t.get(key, 0))
            claimed.setdefault(who, Counter()).update(t.get("claimed", {}))
    out = [PlayerStats(who, **{k: c[k] for k in (
        "games", "wins", "claims", "bluffs", "known_claims", "caught", "challenges_won",
        "challenges_lost")}, favourite=_favourite(claimed.get(who)))
        for who, c in totals.items()]
    return sorted(out, key=lambda s: (-s.wins, -s.games, s.name.casefold()))


def _favourite(claimed: Counter[str] | None) -> str | None:
    if not claimed:
        return None
    return claimed.most_common(1)[0][0]


def clean_name(text: str) -> str:
    """A player's new name, checked as the set-up form checks one (the engine's rule)."""
    try:
        return check_name(text or "")
    except RuleError as error:
        text = error.text if isinstance(error.text, str) else error.text[0]  # never plural here
        raise NightProblem(text, **error.params) from None


def rename(pool: StorePool, old: str, new: str) -> None:
    """Every game ``old`` played is now ``new``'s. To join two players, use :func:`merge`."""
    new = clean_name(new)
    known = {s.name for s in player_stats(pool)}
    if old not in known:
        # TRANSLATORS: error (the players' page). name: a player's name.
        raise NightProblem(N_("There is no player %(name)s."), name=printable(old[:40]))
    clash = next((k for k in known if look_alike(k) == look_alike(new) and k != old), None)
    if clash is not None:
        # TRANSLATORS: error (the players' page). name: a player's name.
        raise NightProblem(N_("%(name)s is already a player: merge the two instead."), name=clash)
    _move(pool, old, new)


def merge(pool: StorePool, old: str, into: str) -> None:
    """Join two players: ``old``'s games become ``into``'s."""
    known = {s.name for s in player_stats(pool)}
    for name in (old, into):
        if name not in known:
            # TRANSLATORS: error (the players' page). name: a player's name.
            raise NightProblem(N_("There is no player %(name)s."), name=printable(name[:40]))
    if old == into:
        raise NightProblem(N_("Choose two different players to merge."))
    _move(pool, old, into)


def _move(pool: StorePool, old: str, new: str) -> None:
    with pool.store() as store:
        names = aliases(store)
        people = People(names)
        played = [name for _winner, tallies in _games(store) for name in tallies]
        keys = {look_alike(n) for n in played if people.who(n) == old}
        keys.update(key for key, who in names.items() if who == old)
        keys.add(look_alike(old))
        store.db.execute("BEGIN IMMEDIATE")
        try:
            for key in keys:
                store.db.execute("INSERT OR REPLACE INTO night_names (name, person) "
                                 "VALUES (?, ?)", [key, new])
        except BaseException:
            store.db.execute("ROLLBACK")
            raise
        store.db.execute("COMMIT")
