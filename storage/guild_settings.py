"""A server's own settings (migration 0015): read where they are needed, never cached, so a change made through
one process holds at once in every process serving the server."""

from __future__ import annotations

from dataclasses import dataclass

from storage.protocol import Storage
from storage.rows import utc_now_text


@dataclass(frozen=True)
class GuildSettings:
    gm_role_id: int | None = None  # None: the bot's GM_ROLE (by name) is the server's game-master role
    world_boss_channel_id: int | None = None  # None: the server does not take part in world bosses


class GuildSettingsRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings; the defaults for a server that set none."""
        row = await self.db.fetch_one(
            "SELECT gm_role_id, world_boss_channel_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return GuildSettings() if row is None else GuildSettings(row["gm_role_id"], row["world_boss_channel_id"])

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> GuildSettings:
        """Set the server's game-master role (None: back to the bot's GM_ROLE); one upsert."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, gm_role_id, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id, "
                "updated_at = excluded.updated_at",
                (guild_id, role_id, utc_now_text()),
            )
        return await self.get(guild_id)

    async def set_world_boss_channel(self, guild_id: int, channel_id: int | None) -> GuildSettings:
        """Set the server's world-boss channel (None: it no longer takes part); one upsert."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, world_boss_channel_id, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET world_boss_channel_id = excluded.world_boss_channel_id, "
                "updated_at = excluded.updated_at",
                (guild_id, channel_id, utc_now_text()),
            )
        return await self.get(guild_id)


__all__ = ["GuildSettings", "GuildSettingsRepository"]
