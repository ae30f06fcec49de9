"""/andor: Andor's Trail's commands (the cog), its persistent components and its rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.andor.cog import Andor

if TYPE_CHECKING:
    from arena.bot import ArenaBot


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(Andor(bot))


__all__ = ["Andor", "setup"]
