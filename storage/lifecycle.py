"""Servers and channels come and go (docs/architecture.md, "Servers and channels come and go"): the one place
that names every game whose games live in a channel.

A deleted channel ends its games, each through its own repository: an MMA match is abandoned (RULINGS 8) and a
pending challenge expires, an Andor fight ends as if its player fled, a boss raid and a Marked for Death
battle are closed, an Andor party fight ends as if its members fled. Every row is kept.

A server that removed the bot keeps its data for a retention period (GUILD_RETENTION_DAYS) from the moment it
did (`guild_departures`); a re-invite cancels the departure, and once the period is over every row of the
server is erased, in one transaction: every table with a `guild_id` and the rows that hang off them, as each
game declares its tables (storage/tables.py; tests/storage/test_tables.py checks them against the schema).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from storage.andor import AndorRepository, Fight
from storage.andor_party import Party, PartyRepository
from storage.bossfight import BossfightRepository, Raid
from storage.games import ERASURE_ORDER, TABLES
from storage.mfd import MfdRepository, StoredBattle
from storage.mma import Match, MmaRepository
from storage.protocol import Storage, StorageTransaction
from storage.retry import retried_on_conflict
from storage.tables import FORMER_SERVER
from storage.times import stored_time
from storage.tournament import Tournament, TournamentRepository

# The channels where a game is live, as each game declares its rows in play (storage/tables.py, InPlay), each
# with its parameters after the server's id.
_IN_PLAY = tuple((table, table.in_play) for table in TABLES if table.in_play is not None)
CHANNELS_IN_PLAY = " UNION ".join(
    f"SELECT channel_id FROM {table.name} WHERE {table.of_server} AND ({in_play.where})" for table, in_play in _IN_PLAY
)

# What erasing a server deletes, in this order (a row before the rows it references): each table and the
# condition, on the server's id, that picks its rows; what erasing a server keeps, with the server and its members
# anonymized (RULINGS 9, "a former server": a world boss's attacks, whose credit must still add up to the boss's
# HP; done first); and the tables of the whole installation, holding nothing of any server.
ERASED = tuple(
    (table.name, table.of_server)
    for table in ERASURE_ORDER
    if table.of_server is not None and not table.outlives_server
)
KEPT_AS_FORMER = tuple((table.name, table.of_server) for table in TABLES if table.outlives_server)
# Each such table's statement: its server and every member it names become FORMER_SERVER.
_AS_FORMER = tuple(
    f"UPDATE {table.name} SET "
    + ", ".join(f"{column} = {FORMER_SERVER}" for column in (table.server, *(c.column for c in table.members)))
    + f" WHERE {table.of_server}"
    for table in TABLES
    if table.outlives_server
)
OF_NO_SERVER = tuple(table.name for table in TABLES if table.of_server is None)


@dataclass(frozen=True)
class EndedGames:
    """The games a deleted channel ended, as they are stored now."""

    matches: list[Match] = field(default_factory=list[Match])  # abandoned, or expired challenges
    fights: list[Fight] = field(default_factory=list[Fight])  # ended as fled
    raids: list[Raid] = field(default_factory=list[Raid])  # closed
    battles: list[StoredBattle] = field(default_factory=list[StoredBattle])  # closed
    tournaments: list[Tournament] = field(default_factory=list[Tournament])  # cancelled
    parties: list[Party] = field(default_factory=list[Party])  # sign-ups closed, fights ended as fled

    def __len__(self) -> int:
        games = (self.matches, self.fights, self.raids, self.battles, self.tournaments, self.parties)
        return sum(len(ended) for ended in games)


class LifecycleRepository:
    def __init__(self, db: Storage):
        self.db = db
        self.mma = MmaRepository(db)
        self.andor = AndorRepository(db)
        self.bossfight = BossfightRepository(db)
        self.mfd = MfdRepository(db)
        self.tournaments = TournamentRepository(db)
        self.parties = PartyRepository(db)

    async def channels_in_play(self, guild_id: int) -> set[int]:
        """The server's channels where a game is live."""
        rows = await self.db.fetch_all(
            CHANNELS_IN_PLAY,
            tuple(value for _, in_play in _IN_PLAY for value in (guild_id, *in_play.params)),
        )
        return {row["channel_id"] for row in rows}

    async def end_channel(self, channel_id: int, now: float) -> EndedGames:
        """The channel was deleted: every game of it ends (each game's own write, each in its transaction)."""
        return EndedGames(
            matches=await self.mma.end_channel(channel_id, now),
            fights=await self.andor.end_channel(channel_id),
            raids=await self.bossfight.end_channel(channel_id),
            battles=await self.mfd.end_channel(channel_id),
            tournaments=await self.tournaments.end_channel(channel_id),
            parties=await self.parties.end_channel(channel_id),
        )

    # --- servers that removed the bot -----------------------------------------------------------------

    async def guild_left(self, guild_id: int, now: float) -> None:
        """The bot was removed from the server (not merely out of reach): its retention starts now."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, stored_time(now)),
            )

    async def guild_here(self, guild_id: int, name: str | None) -> bool:
        """The bot is in the server (again): nothing of it is to be erased, and its pages show its `name` (None:
        not known now, the last one stays). True if a departure was cancelled."""
        async with self.db.transaction() as conn:
            if name is not None:
                await _keep_name(conn, guild_id, name)
            return await conn.execute("DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,)) > 0

    async def guild_renamed(self, guild_id: int, name: str) -> None:
        async with self.db.transaction() as conn:
            await _keep_name(conn, guild_id, name)

    async def erase_departed(self, now: float, retention_seconds: float) -> list[int]:
        """Erase every server that removed the bot at least `retention_seconds` before `now`; their ids."""
        rows = await self.db.fetch_all(
            "SELECT guild_id FROM guild_departures WHERE left_at <= ? ORDER BY guild_id",
            (stored_time(now - retention_seconds),),
        )
        return [row["guild_id"] for row in rows if await self._erase(row["guild_id"], now - retention_seconds)]

    @retried_on_conflict
    async def _erase(self, guild_id: int, left_before: float) -> bool:
        async with self.db.transaction() as conn:
            # A re-invite that came first deleted the departure (on PostgreSQL this waits for its commit).
            if not await conn.execute(
                "DELETE FROM guild_departures WHERE guild_id = ? AND left_at <= ?", (guild_id, stored_time(left_before))
            ):
                return False
            for statement in _AS_FORMER:
                await conn.execute(statement, (guild_id,))
            for table, rows_of_guild in ERASED:
                await conn.execute(f"DELETE FROM {table} WHERE {rows_of_guild}", (guild_id,))
            return True


async def _keep_name(conn: StorageTransaction, guild_id: int, name: str) -> None:
    """The server's name as Discord tells it; written only when it changed (every start-up tells every name)."""
    await conn.execute(
        "INSERT INTO server_names (guild_id, name) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET name = excluded.name WHERE server_names.name <> excluded.name",
        (guild_id, name),
    )


__all__ = ["ERASED", "FORMER_SERVER", "KEPT_AS_FORMER", "OF_NO_SERVER", "EndedGames", "LifecycleRepository"]
