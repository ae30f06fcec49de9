"""A server's own settings (migrations 0015, 0022): read where they are needed, never cached, so a change made
through one process holds at once in every process serving the server."""

from __future__ import annotations

from dataclasses import dataclass

from storage.protocol import Storage
from storage.rows import utc_now_text


@dataclass(frozen=True)
class GuildSettings:
    gm_role_id: int | None = None  # None: the bot's GM_ROLE (by name) is the server's game-master role
    web_pages: bool = False  # the server's pages are served on the web (web/); off until a game master says so


class GuildSettingsRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings; the defaults for a server that set none."""
        row = await self.db.fetch_one(
            "SELECT gm_role_id, web_pages FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildSettings()
        return GuildSettings(gm_role_id=row["gm_role_id"], web_pages=bool(row["web_pages"]))

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> GuildSettings:
        """Set the server's game-master role (None: back to the bot's GM_ROLE); one upsert."""
        return await self._set(guild_id, "gm_role_id", role_id)

    async def set_web_pages(self, guild_id: int, on: bool) -> GuildSettings:
        """Serve the server's pages on the web, or stop; one upsert."""
        return await self._set(guild_id, "web_pages", int(on))

    async def _set(self, guild_id: int, column: str, value: int | None) -> GuildSettings:
        async with self.db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO guild_settings (guild_id, {column}, updated_at) VALUES (?, ?, ?) "
                f"ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}, updated_at = excluded.updated_at",
                (guild_id, value, utc_now_text()),
            )
            row = await conn.fetch_required(
                "SELECT gm_role_id, web_pages FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        return GuildSettings(gm_role_id=row["gm_role_id"], web_pages=bool(row["web_pages"]))


__all__ = ["GuildSettings", "GuildSettingsRepository"]
