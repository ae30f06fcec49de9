"""/arena: what spans the games, such as a member's profile across them; /arena-settings, a server's own settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.arena.cog import Arena
from cogs.arena.settings import ServerSettings

__all__ = ["Arena", "ServerSettings", "setup"]

if TYPE_CHECKING:
    from arena.bot import ArenaBot


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(Arena(bot))
    await bot.add_cog(ServerSettings(bot))
