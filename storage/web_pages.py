"""What the web pages (web/) read beyond the games' own repositories: which servers serve pages, which members hid
theirs, the names members played under, and a server's recent raids and tournaments. Read-only but for a
member's own hidden flag, which `/arena web-pages` sets."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from storage.bossfight import RaidStatus
from storage.guild_settings import GuildSettingsRepository
from storage.protocol import Storage
from storage.rows import utc_now_text
from storage.tables import FORMER_MEMBER, Owned, Table, Tables
from storage.tournament import TournamentStatus

# A LIKE pattern's own characters, escaped with '!' (the same ESCAPE clause on both backends).
_LIKE_SPECIAL = str.maketrans({"!": "!!", "%": "!%", "_": "!_"})


@dataclass(frozen=True)
class RaidRef:
    raid_id: int
    channel_id: int


class WebPagesRepository:
    def __init__(self, db: Storage):
        self.db = db
        self.settings = GuildSettingsRepository(db)

    async def pages_on(self, guild_id: int) -> bool:
        """Whether the server's game master turned its pages on (an unknown server: no)."""
        return (await self.settings.get(guild_id)).web_pages

    async def shown_except(self, guild_id: int) -> frozenset[int] | None:
        """For a server whose pages are on, the members who hid theirs; None for a server whose pages are off (or
        unknown). One statement: every page asks it first."""
        rows = await self.db.fetch_all(
            "SELECT s.web_pages, h.user_id FROM guild_settings s LEFT JOIN web_hidden_members h "
            "ON h.guild_id = s.guild_id WHERE s.guild_id = ?",
            (guild_id,),
        )
        if not rows or not rows[0]["web_pages"]:
            return None
        return frozenset(row["user_id"] for row in rows if row["user_id"] is not None)

    async def server_name(self, guild_id: int) -> str | None:
        """The server's name as Discord last told the bot (None: never told, e.g. before the bot's first start)."""
        row = await self.db.fetch_one("SELECT name FROM server_names WHERE guild_id = ?", (guild_id,))
        return None if row is None else row["name"]

    # --- members who hid their pages ---------------------------------------------------------------------

    async def set_hidden(self, guild_id: int, user_id: int, hidden: bool) -> None:
        async with self.db.transaction() as conn:
            if hidden:
                await conn.execute(
                    "INSERT INTO web_hidden_members (guild_id, user_id, hidden_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, user_id) DO NOTHING",
                    (guild_id, user_id, utc_now_text()),
                )
            else:
                await conn.execute(
                    "DELETE FROM web_hidden_members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
                )

    # --- names -------------------------------------------------------------------------------------------

    async def names(self, guild_id: int, user_ids: Collection[int]) -> dict[int, str]:
        """The name each member played their latest finished MMA match under here, as the match stored it
        (markdown-escaped); members without one are left out."""
        wanted = sorted({user_id for user_id in user_ids if user_id != FORMER_MEMBER})
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = await self.db.fetch_all(
            "SELECT latest.user_id, CASE WHEN m.player0_id = latest.user_id THEN m.player0_name ELSE m.player1_name "
            "END AS name FROM (SELECT user_id, max(match_id) AS match_id FROM mma_results "
            f"WHERE guild_id = ? AND user_id IN ({marks}) GROUP BY user_id) latest "
            "JOIN mma_matches m ON m.id = latest.match_id",
            (guild_id, *wanted),
        )
        return {row["user_id"]: row["name"] for row in rows}

    async def named_like(self, guild_id: int, stored_text: str, limit: int) -> list[int]:
        """Members who played a finished match here under a name holding `stored_text` (in the stored form),
        any case of ASCII letters; at most `limit`."""
        pattern = "%" + stored_text.lower().translate(_LIKE_SPECIAL) + "%"
        rows = await self.db.fetch_all(
            "SELECT DISTINCT r.user_id FROM mma_results r JOIN mma_matches m ON m.id = r.match_id "
            "WHERE r.guild_id = ? AND lower(CASE WHEN m.player0_id = r.user_id THEN m.player0_name "
            "ELSE m.player1_name END) LIKE ? ESCAPE '!' ORDER BY r.user_id LIMIT ?",
            (guild_id, pattern, limit),
        )
        return [row["user_id"] for row in rows]

    # --- a server's recent things ------------------------------------------------------------------------

    async def recent_tournaments(self, guild_id: int, limit: int) -> list[int]:
        """The server's running and finished tournaments, newest first: their ids."""
        rows = await self.db.fetch_all(
            "SELECT id FROM mma_tournaments WHERE guild_id = ? AND status IN (?, ?) ORDER BY id DESC LIMIT ?",
            (guild_id, TournamentStatus.RUNNING, TournamentStatus.FINISHED, limit),
        )
        return [row["id"] for row in rows]

    async def finished_raids(self, guild_id: int, limit: int) -> list[RaidRef]:
        """The server's ended raids (the boss fell, or another replaced it), newest first."""
        rows = await self.db.fetch_all(
            "SELECT id, channel_id FROM bossfight_raids WHERE guild_id = ? AND status <> ? ORDER BY id DESC LIMIT ?",
            (guild_id, RaidStatus.LIVE, limit),
        )
        return [RaidRef(row["id"], row["channel_id"]) for row in rows]


# A member's wish to keep their pages hidden is theirs alone: handed to them, gone when they erase their data.
TABLES = Tables(
    "web pages", (Table("web_hidden_members", "web pages hidden", members=(Owned("user_id"),), order="hidden_at"),)
)


__all__ = ["TABLES", "RaidRef", "WebPagesRepository"]
