"""/mma: MMA Warriors matches with buttons (the cog), their components and their rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.mma.cog import Mma

if TYPE_CHECKING:
    from arena.bot import ArenaBot


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(Mma(bot))


__all__ = ["Mma", "setup"]
