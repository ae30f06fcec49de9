"""A server's own settings (migrations 0015, 0024, 0025 and 0026): read where they are needed, never cached, so a change
made through one process holds at once in every process serving the server."""

from __future__ import annotations

from dataclasses import dataclass

from storage.protocol import Row, Storage
from storage.rows import utc_now_text
from storage.tables import Table, Tables

PARTY_TURN_SECONDS = 60  # an Andor party member's time for a turn, unless the server sets another (RULINGS 9)
PARTY_TURN_LIMITS = (15, 300)


@dataclass(frozen=True)
class GuildSettings:
    gm_role_id: int | None = None  # None: the bot's GM_ROLE (by name) is the server's game-master role
    party_turn_seconds: int = PARTY_TURN_SECONDS
    web_pages: bool = False  # the server's pages are served on the web (web/); off until a game master says so
    world_boss_channel_id: int | None = None  # None: the server does not take part in world bosses


_SELECTED = (
    "SELECT gm_role_id, party_turn_seconds, web_pages, world_boss_channel_id FROM guild_settings WHERE guild_id = ?"
)


def _settings(row: Row | None) -> GuildSettings:
    """The settings a stored row holds; the defaults for a server that set none."""
    if row is None:
        return GuildSettings()
    return GuildSettings(
        gm_role_id=row["gm_role_id"],
        party_turn_seconds=row["party_turn_seconds"] or PARTY_TURN_SECONDS,
        web_pages=bool(row["web_pages"]),
        world_boss_channel_id=row["world_boss_channel_id"],
    )


class GuildSettingsRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings; the defaults for a server that set none."""
        row = await self.db.fetch_one(_SELECTED, (guild_id,))
        return _settings(row)

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> GuildSettings:
        """Set the server's game-master role (None: back to the bot's GM_ROLE); one upsert."""
        return await self._set(guild_id, "gm_role_id", role_id)

    async def set_party_turn_seconds(self, guild_id: int, seconds: int) -> GuildSettings:
        """Set the server's Andor party turn time (PARTY_TURN_LIMITS); one upsert."""
        low, high = PARTY_TURN_LIMITS
        if not low <= seconds <= high:
            raise ValueError(f"a party turn lasts {low} to {high} seconds, not {seconds}")
        return await self._set(guild_id, "party_turn_seconds", seconds)

    async def set_web_pages(self, guild_id: int, on: bool) -> GuildSettings:
        """Serve the server's pages on the web, or stop; one upsert."""
        return await self._set(guild_id, "web_pages", int(on))

    async def _set(self, guild_id: int, column: str, value: int | None) -> GuildSettings:
        """One setting's upsert; `column` is the code's, never a user's."""
        async with self.db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO guild_settings (guild_id, {column}, updated_at) VALUES (?, ?, ?) "
                f"ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}, updated_at = excluded.updated_at",
                (guild_id, value, utc_now_text()),
            )
            row = await conn.fetch_required(_SELECTED, (guild_id,))
        return _settings(row)

    async def set_world_boss_channel(self, guild_id: int, channel_id: int | None) -> GuildSettings:
        """Set the server's world-boss channel (None: it no longer takes part); one upsert."""
        return await self._set(guild_id, "world_boss_channel_id", channel_id)


TABLES = Tables("server settings", (Table("guild_settings"),))  # the server's, naming no member


__all__ = ["PARTY_TURN_LIMITS", "PARTY_TURN_SECONDS", "TABLES", "GuildSettings", "GuildSettingsRepository"]
