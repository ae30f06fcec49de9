"""Servers and channels come and go (docs/architecture.md, "Servers and channels come and go"): the one place
that names every game whose games live in a channel.

A deleted channel ends its games, each through its own repository: an MMA match is abandoned (RULINGS 8) and a
pending challenge expires, an Andor fight ends as if its player fled, a boss raid and a Marked for Death
battle are closed. Every row is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from storage.andor import AndorRepository, Fight
from storage.bossfight import BossfightRepository, Raid
from storage.database import Storage
from storage.mfd import MfdRepository, StoredBattle
from storage.mma import MatchRecord, MmaRepository

# The channels where a game is live: a pending or live MMA match, a live fight or raid, a battle not closed.
CHANNELS_IN_PLAY = (
    "SELECT channel_id FROM mma_matches WHERE guild_id = ? AND status IN ('pending', 'live') "
    "UNION SELECT channel_id FROM andor_fights WHERE guild_id = ? AND status = 'live' "
    "UNION SELECT channel_id FROM bossfight_raids WHERE guild_id = ? AND status = 'live' "
    "UNION SELECT channel_id FROM mfd_battles WHERE guild_id = ? AND closed_at IS NULL"
)


@dataclass(frozen=True)
class EndedGames:
    """The games a deleted channel ended, as they are stored now."""

    matches: list[MatchRecord] = field(default_factory=list[MatchRecord])  # abandoned, or expired challenges
    fights: list[Fight] = field(default_factory=list[Fight])  # ended as fled
    raids: list[Raid] = field(default_factory=list[Raid])  # closed
    battles: list[StoredBattle] = field(default_factory=list[StoredBattle])  # closed

    def __len__(self) -> int:
        return len(self.matches) + len(self.fights) + len(self.raids) + len(self.battles)


class LifecycleRepository:
    def __init__(self, db: Storage):
        self.db = db
        self.mma = MmaRepository(db)
        self.andor = AndorRepository(db)
        self.bossfight = BossfightRepository(db)
        self.mfd = MfdRepository(db)

    async def channels_in_play(self, guild_id: int) -> set[int]:
        """The server's channels where a game is live."""
        rows = await self.db.fetch_all(CHANNELS_IN_PLAY, (guild_id,) * 4)
        return {row["channel_id"] for row in rows}

    async def end_channel(self, channel_id: int, now: float) -> EndedGames:
        """The channel was deleted: every game of it ends (each game's own write, each in its transaction)."""
        return EndedGames(
            matches=await self.mma.end_channel(channel_id, now),
            fights=await self.andor.end_channel(channel_id),
            raids=await self.bossfight.end_channel(channel_id),
            battles=await self.mfd.end_channel(channel_id),
        )


__all__ = ["EndedGames", "LifecycleRepository"]
