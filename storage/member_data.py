"""What Arena keeps about one member in one server: handed to them (`export`, /arena my-data) and erased on
their word (`forget`, /arena forget-me), in one transaction.

RULINGS 8: a member who erases their data leaves the leaderboard and loses their profile there; the matches they
played stay in their opponents' histories as played against "a former member", and the rating changes those
matches gave the opponents stand. So the member's own rows are deleted, and in rows that are also someone
else's (an MMA match, an opponent's result and rating change, a raid's attacks, a battle a GM ran) their id
becomes FORMER_MEMBER and their name FORMER_MEMBER_NAME: a raid's credited damage still adds up to the boss's
HP, and a match still replays. Live games are not ended for them: `forget` refuses while one is going
(`LiveGames`), since ending one would decide a result the opponent did not play for.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from rules.tournament import renamed
from storage.andor import FightStatus
from storage.mma import IN_PLAY
from storage.protocol import Storage, StorageTransaction
from storage.retry import retried_on_conflict
from storage.rows import required
from storage.tournament import OPEN, TOURNAMENT_STATE

FORMER_MEMBER = 0  # no Discord id is 0: it stands for a member who erased their data, where others' rows keep them
FORMER_MEMBER_NAME = "a former member"

_IN_RAIDS_HERE = "raid_id IN (SELECT id FROM bossfight_raids WHERE guild_id = ?)"


@dataclass(frozen=True)
class Kind:
    """One kind of row about a member: its table, what a person calls it, and the SELECT of the member's rows in
    a server, with the parameters (guild_id, user_id)."""

    table: str
    label: str
    select: str


KINDS = (
    Kind("mma_ratings", "MMA rating", "SELECT * FROM mma_ratings WHERE guild_id = ? AND user_id = ?"),
    Kind(
        "mma_rating_changes",
        "MMA rating changes",
        "SELECT * FROM mma_rating_changes WHERE guild_id = ? AND user_id = ? ORDER BY rated_at, match_id",
    ),
    Kind(
        "mma_results", "MMA results", "SELECT * FROM mma_results WHERE guild_id = ? AND user_id = ? ORDER BY match_id"
    ),
    Kind(
        "mma_fielded",
        "MMA fighters fielded",
        "SELECT * FROM mma_fielded WHERE guild_id = ? AND user_id = ? ORDER BY match_id, fighter",
    ),
    Kind(
        "mma_matches",
        "MMA matches and challenges",
        "SELECT * FROM mma_matches WHERE guild_id = ? AND ? IN (player0_id, player1_id) ORDER BY id",
    ),
    Kind("bossfight_decks", "saved raid deck", "SELECT * FROM bossfight_decks WHERE guild_id = ? AND user_id = ?"),
    Kind(
        "bossfight_attacks",
        "raid attacks",
        f"SELECT * FROM bossfight_attacks WHERE {_IN_RAIDS_HERE} AND user_id = ? ORDER BY id",
    ),
    Kind(
        "bossfight_players",
        "raid standings",
        f"SELECT * FROM bossfight_players WHERE {_IN_RAIDS_HERE} AND user_id = ? ORDER BY raid_id",
    ),
    Kind(
        "bossfight_raids",
        "raids spawned",
        "SELECT * FROM bossfight_raids WHERE guild_id = ? AND spawned_by = ? ORDER BY id",
    ),
    Kind(
        "world_boss_attacks",
        "world boss attacks",
        "SELECT * FROM world_boss_attacks WHERE guild_id = ? AND user_id = ? ORDER BY id",
    ),
    Kind(
        "world_boss_players",
        "world boss standings",
        "SELECT * FROM world_boss_players WHERE guild_id = ? AND user_id = ? ORDER BY boss_id",
    ),
    Kind("andor_characters", "Andor character", "SELECT * FROM andor_characters WHERE guild_id = ? AND user_id = ?"),
    Kind("andor_fights", "Andor fights", "SELECT * FROM andor_fights WHERE guild_id = ? AND user_id = ? ORDER BY id"),
    Kind(
        "deck_results",
        "deck optimizer results",
        "SELECT * FROM deck_results WHERE guild_id = ? AND user_id = ? ORDER BY id",
    ),
    Kind(
        "guild_uploads",
        "uploaded bosses and monsters",
        "SELECT * FROM guild_uploads WHERE guild_id = ? AND uploaded_by = ? ORDER BY kind, name_key",
    ),
    Kind(
        "mma_tournament_entrants",
        "MMA tournaments entered",
        "SELECT e.* FROM mma_tournament_entrants e JOIN mma_tournaments t ON t.id = e.tournament_id "
        "WHERE t.guild_id = ? AND e.user_id = ? ORDER BY e.tournament_id",
    ),
    Kind(
        "mma_tournaments",
        "MMA tournaments opened",
        "SELECT id, guild_id, channel_id, created_by, status, rounds, starts_at, created_at, ended_at "
        "FROM mma_tournaments WHERE guild_id = ? AND created_by = ? ORDER BY id",
    ),
    Kind(  # the battle's state (compressed) is the heroes' and villains', not the member's
        "mfd_battles",
        "Marked for Death battles run",
        "SELECT id, guild_id, channel_id, seed, rounds_fought, outcome, heroes_left, villains_left, version, "
        "started_by, updated_by, started_at, updated_at FROM mfd_battles "
        "WHERE guild_id = ? AND ? IN (started_by, updated_by) ORDER BY id",
    ),
)

# The erasure, in order, each with the parameters (guild_id, user_id): the member's own rows go; where a row is
# also someone else's, the member's id becomes FORMER_MEMBER. The AI's matches are the member's alone.
ERASURE = (
    "DELETE FROM mma_ratings WHERE guild_id = ? AND user_id = ?",
    "DELETE FROM mma_rating_changes WHERE guild_id = ? AND user_id = ?",
    f"UPDATE mma_rating_changes SET opponent_id = {FORMER_MEMBER} WHERE guild_id = ? AND opponent_id = ?",
    "DELETE FROM mma_results WHERE guild_id = ? AND user_id = ?",
    f"UPDATE mma_results SET opponent_id = {FORMER_MEMBER} WHERE guild_id = ? AND opponent_id = ?",
    "DELETE FROM mma_fielded WHERE guild_id = ? AND user_id = ?",
    "DELETE FROM mma_matches WHERE guild_id = ? AND player0_id = ? AND player1_id IS NULL",
    "DELETE FROM bossfight_decks WHERE guild_id = ? AND user_id = ?",
    f"DELETE FROM bossfight_players WHERE {_IN_RAIDS_HERE} AND user_id = ?",
    f"UPDATE bossfight_attacks SET user_id = {FORMER_MEMBER} WHERE {_IN_RAIDS_HERE} AND user_id = ?",
    f"UPDATE bossfight_raids SET spawned_by = {FORMER_MEMBER} WHERE guild_id = ? AND spawned_by = ?",
    "DELETE FROM world_boss_players WHERE guild_id = ? AND user_id = ?",
    f"UPDATE world_boss_attacks SET user_id = {FORMER_MEMBER} WHERE guild_id = ? AND user_id = ?",
    "DELETE FROM andor_characters WHERE guild_id = ? AND user_id = ?",
    "DELETE FROM andor_fights WHERE guild_id = ? AND user_id = ?",
    "DELETE FROM deck_results WHERE guild_id = ? AND user_id = ?",
    "DELETE FROM guild_uploads WHERE guild_id = ? AND uploaded_by = ?",
    f"UPDATE mfd_battles SET started_by = {FORMER_MEMBER} WHERE guild_id = ? AND started_by = ?",
    f"UPDATE mfd_battles SET updated_by = {FORMER_MEMBER} WHERE guild_id = ? AND updated_by = ?",
    f"UPDATE mma_tournaments SET created_by = {FORMER_MEMBER} WHERE guild_id = ? AND created_by = ?",
    "DELETE FROM mma_tournament_entrants WHERE tournament_id IN (SELECT id FROM mma_tournaments WHERE guild_id = ?) "
    "AND user_id = ?",
)

# Matches between members keep their moves and results for the opponent; the member's corner is renamed, and the
# mentions the action feed stored for them become the same words. Parameters: (mention, guild_id, user_id).
FORMER_CORNERS = tuple(
    f"UPDATE mma_matches SET player{slot}_id = {FORMER_MEMBER}, player{slot}_name = '{FORMER_MEMBER_NAME}', "
    f"feed_json = replace(feed_json, ?, '{FORMER_MEMBER_NAME}') WHERE guild_id = ? AND player{slot}_id = ?"
    for slot in (0, 1)
)

LIVE_MATCHES = (
    "SELECT count(*) AS n FROM mma_matches WHERE guild_id = ? AND ? IN (player0_id, player1_id) AND status IN (?, ?)"
)
LIVE_FIGHTS = "SELECT count(*) AS n FROM andor_fights WHERE guild_id = ? AND user_id = ? AND status = ?"
# A tournament the member entered that is signing up or running (its table names them until it ends).
LIVE_TOURNAMENTS = (
    "SELECT count(*) AS n FROM mma_tournaments t JOIN mma_tournament_entrants e ON e.tournament_id = t.id "
    "WHERE t.guild_id = ? AND e.user_id = ? AND t.status IN (?, ?)"
)
# The tournaments whose stored state names the member (read before their sign-ups are erased).
PLAYED_TOURNAMENTS = (
    "SELECT t.id, t.state_json FROM mma_tournaments t JOIN mma_tournament_entrants e ON e.tournament_id = t.id "
    "WHERE t.guild_id = ? AND e.user_id = ? AND t.state_json IS NOT NULL ORDER BY t.id"
)

Rows = dict[str, list[dict[str, Any]]]


@dataclass(frozen=True)
class MemberData:
    """Every row about the member in the server, by table (tables without one are left out)."""

    guild_id: int
    user_id: int
    rows: Rows

    @property
    def empty(self) -> bool:
        return not self.rows

    def counts(self) -> list[tuple[str, int]]:
        """(label, rows) of each kind stored, in KINDS' order."""
        return [(kind.label, len(self.rows[kind.table])) for kind in KINDS if kind.table in self.rows]

    def to_json(self) -> str:
        return json.dumps(
            {"guild_id": self.guild_id, "user_id": self.user_id, "tables": self.rows}, indent=1, default=str
        )

    @property
    def fingerprint(self) -> int:
        """A 9-digit digest of every row: a confirmation drawn for this data erases only this data."""
        digest = hashlib.blake2b(self.to_json().encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") % 1_000_000_000


class LiveGames(Exception):
    """The member has a game going in the server: MMA matches or challenges, Andor fights, MMA tournaments
    signing up or running."""

    def __init__(self, matches: int, fights: int, tournaments: int = 0):
        super().__init__(
            f"{matches} live MMA matches or challenges, {fights} live Andor fights, {tournaments} open tournaments"
        )
        self.matches = matches
        self.fights = fights
        self.tournaments = tournaments

    def __bool__(self) -> bool:
        return bool(self.matches or self.fights or self.tournaments)


class ChangedSinceAsked(Exception):
    """The member's data is not what the confirmation was drawn for (already erased, or changed since)."""

    def __init__(self, now: MemberData):
        super().__init__("the member's data changed since the confirmation")
        self.now = now


def _plain(value: Any) -> Any:
    return value.hex() if isinstance(value, bytes | bytearray | memoryview) else value


async def _collect(reader: Storage | StorageTransaction, guild_id: int, user_id: int) -> MemberData:
    rows: Rows = {}
    for kind in KINDS:
        found = await reader.fetch_all(kind.select, (guild_id, user_id))
        if found:
            rows[kind.table] = [{key: _plain(value) for key, value in dict(row).items()} for row in found]
    return MemberData(guild_id, user_id, rows)


async def _live(reader: Storage | StorageTransaction, guild_id: int, user_id: int) -> LiveGames:
    # Counts: each statement returns one row.
    matches = required(await reader.fetch_one(LIVE_MATCHES, (guild_id, user_id, *IN_PLAY)))["n"]
    fights = required(await reader.fetch_one(LIVE_FIGHTS, (guild_id, user_id, FightStatus.LIVE)))["n"]
    tournaments = required(await reader.fetch_one(LIVE_TOURNAMENTS, (guild_id, user_id, *OPEN)))["n"]
    return LiveGames(int(matches), int(fights), int(tournaments))


async def _forget_in_tournaments(conn: StorageTransaction, guild_id: int, user_id: int) -> None:
    """In every tournament the member played, they become a former member: their games and place stay for the
    others. Each gets an id of its own below FORMER_MEMBER, so two forgotten players of one table stay apart."""
    for row in await conn.fetch_all(PLAYED_TOURNAMENTS, (guild_id, user_id)):
        state = TOURNAMENT_STATE.from_text(row["state_json"], row["id"])
        former = min([FORMER_MEMBER, *(player.id for player in state.players)]) - 1
        state = renamed(state, user_id, former, FORMER_MEMBER_NAME)
        await conn.execute(
            "UPDATE mma_tournaments SET state_json = ? WHERE id = ?", (TOURNAMENT_STATE.to_text(state), row["id"])
        )


class MemberDataRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def export(self, guild_id: int, user_id: int) -> MemberData:
        return await _collect(self.db, guild_id, user_id)

    async def live_games(self, guild_id: int, user_id: int) -> LiveGames:
        """What the member has going in the server (false when nothing)."""
        return await _live(self.db, guild_id, user_id)

    @retried_on_conflict
    async def forget(self, guild_id: int, user_id: int, fingerprint: int) -> MemberData:
        """Erase the member's data in the server, in one transaction, if it is still what `fingerprint` was taken
        of (ChangedSinceAsked otherwise, LiveGames while a game goes on: nothing changed); returns what was
        erased."""
        async with self.db.transaction() as conn:
            live = await _live(conn, guild_id, user_id)
            if live:
                raise live
            data = await _collect(conn, guild_id, user_id)
            if data.empty or data.fingerprint != fingerprint:
                raise ChangedSinceAsked(data)
            await _forget_in_tournaments(conn, guild_id, user_id)
            for sql in ERASURE:
                await conn.execute(sql, (guild_id, user_id))
            for sql in FORMER_CORNERS:
                await conn.execute(sql, (f"<@{user_id}>", guild_id, user_id))
            return data


__all__ = [
    "FORMER_MEMBER",
    "FORMER_MEMBER_NAME",
    "KINDS",
    "ChangedSinceAsked",
    "LiveGames",
    "MemberData",
    "MemberDataRepository",
]
