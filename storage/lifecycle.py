"""Servers and channels come and go (docs/architecture.md, "Servers and channels come and go"): the one place
that names every game whose games live in a channel.

A deleted channel ends its games, each through its own repository: an MMA match is abandoned (RULINGS 8) and a
pending challenge expires, an Andor fight ends as if its player fled, a boss raid and a Marked for Death
battle are closed. Every row is kept.

A server that removed the bot keeps its data for a retention period (GUILD_RETENTION_DAYS) from the moment it
did (`guild_departures`); a re-invite cancels the departure, and once the period is over every row of the
server is erased, in one transaction: every table with a `guild_id` and the rows that hang off them (`ERASED`;
tests/storage/test_lifecycle.py checks that it names every table).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from storage.andor import AndorRepository, Fight, FightStatus
from storage.bossfight import BossfightRepository, Raid, RaidStatus
from storage.mfd import MfdRepository, StoredBattle
from storage.mma import IN_PLAY, Match, MmaRepository
from storage.protocol import Storage
from storage.retry import retried_on_conflict
from storage.times import stored_time
from storage.tournament import OPEN, Tournament, TournamentRepository

# The channels where a game is live: a pending or live MMA match, a live fight or raid, a battle not closed, an
# open tournament.
CHANNELS_IN_PLAY = (
    "SELECT channel_id FROM mma_matches WHERE guild_id = ? AND status IN (?, ?) "
    "UNION SELECT channel_id FROM andor_fights WHERE guild_id = ? AND status = ? "
    "UNION SELECT channel_id FROM bossfight_raids WHERE guild_id = ? AND status = ? "
    "UNION SELECT channel_id FROM mfd_battles WHERE guild_id = ? AND closed_at IS NULL "
    "UNION SELECT channel_id FROM mma_tournaments WHERE guild_id = ? AND status IN (?, ?)"
)

# What erasing a server deletes, in this order (a row before the rows it references): each table and the
# condition, on the server's id, that picks its rows.
_OF_GUILD = "guild_id = ?"
_OF_GUILDS_TOURNAMENTS = "tournament_id IN (SELECT id FROM mma_tournaments WHERE guild_id = ?)"
ERASED = (
    ("mma_tournament_games", _OF_GUILDS_TOURNAMENTS),
    ("mma_tournament_entrants", _OF_GUILDS_TOURNAMENTS),
    ("mma_tournaments", _OF_GUILD),
    ("mma_moves", "match_id IN (SELECT id FROM mma_matches WHERE guild_id = ?)"),
    ("mma_rating_changes", _OF_GUILD),
    ("mma_results", _OF_GUILD),
    ("mma_fielded", _OF_GUILD),
    ("mma_ratings", _OF_GUILD),
    ("mma_matches", _OF_GUILD),
    ("andor_fights", _OF_GUILD),
    ("andor_characters", _OF_GUILD),
    ("bossfight_attacks", "raid_id IN (SELECT id FROM bossfight_raids WHERE guild_id = ?)"),
    ("bossfight_players", "raid_id IN (SELECT id FROM bossfight_raids WHERE guild_id = ?)"),
    ("bossfight_raids", _OF_GUILD),
    ("bossfight_decks", _OF_GUILD),
    ("mfd_battles", _OF_GUILD),
    ("guild_uploads", _OF_GUILD),
    ("deck_results", _OF_GUILD),
    ("world_boss_players", _OF_GUILD),
    ("world_boss_posts", _OF_GUILD),
    ("guild_settings", _OF_GUILD),
    ("guild_departures", _OF_GUILD),
)
# What erasing a server keeps, with the server and its members anonymized (RULINGS 9, "a former server"): a world
# boss's attacks, whose credit must still add up to the boss's HP. Done before ERASED, with the server's id.
KEPT_AS_FORMER = (("world_boss_attacks", "guild_id = ?"),)
FORMER_SERVER = 0  # no Discord id is 0: a server that was erased, where the world's records keep it
# Tables of the whole installation, holding nothing of any server: the rating model the stored ratings follow,
# the world bosses (fought by every server).
OF_NO_SERVER = ("mma_rating_models", "world_bosses")


@dataclass(frozen=True)
class EndedGames:
    """The games a deleted channel ended, as they are stored now."""

    matches: list[Match] = field(default_factory=list[Match])  # abandoned, or expired challenges
    fights: list[Fight] = field(default_factory=list[Fight])  # ended as fled
    raids: list[Raid] = field(default_factory=list[Raid])  # closed
    battles: list[StoredBattle] = field(default_factory=list[StoredBattle])  # closed
    tournaments: list[Tournament] = field(default_factory=list[Tournament])  # cancelled

    def __len__(self) -> int:
        return len(self.matches) + len(self.fights) + len(self.raids) + len(self.battles) + len(self.tournaments)


class LifecycleRepository:
    def __init__(self, db: Storage):
        self.db = db
        self.mma = MmaRepository(db)
        self.andor = AndorRepository(db)
        self.bossfight = BossfightRepository(db)
        self.mfd = MfdRepository(db)
        self.tournaments = TournamentRepository(db)

    async def channels_in_play(self, guild_id: int) -> set[int]:
        """The server's channels where a game is live."""
        rows = await self.db.fetch_all(
            CHANNELS_IN_PLAY,
            (guild_id, *IN_PLAY, guild_id, FightStatus.LIVE, guild_id, RaidStatus.LIVE, guild_id, guild_id, *OPEN),
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
        )

    # --- servers that removed the bot -----------------------------------------------------------------

    async def guild_left(self, guild_id: int, now: float) -> None:
        """The bot was removed from the server (not merely out of reach): its retention starts now."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, stored_time(now)),
            )

    async def guild_returned(self, guild_id: int) -> bool:
        """The bot is in the server (again): nothing of it is to be erased. True if a departure was cancelled."""
        async with self.db.transaction() as conn:
            return await conn.execute("DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,)) > 0

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
            for table, rows_of_guild in KEPT_AS_FORMER:
                await conn.execute(
                    f"UPDATE {table} SET guild_id = {FORMER_SERVER}, user_id = {FORMER_SERVER} WHERE {rows_of_guild}",
                    (guild_id,),
                )
            for table, rows_of_guild in ERASED:
                await conn.execute(f"DELETE FROM {table} WHERE {rows_of_guild}", (guild_id,))
            return True


__all__ = ["ERASED", "FORMER_SERVER", "KEPT_AS_FORMER", "OF_NO_SERVER", "EndedGames", "LifecycleRepository"]
