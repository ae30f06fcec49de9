"""/mfd: Marked for Death's commands (the cog), its persistent button and its rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.mfd.cog import MarkedForDeath

if TYPE_CHECKING:
    from arena.bot import ArenaBot


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(MarkedForDeath(bot))


__all__ = ["MarkedForDeath", "setup"]
