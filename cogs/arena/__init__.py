"""/arena: what spans the games, such as a member's profile across them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.arena.cog import Arena

__all__ = ["Arena", "setup"]

if TYPE_CHECKING:
    from arena.bot import ArenaBot


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(Arena(bot))
