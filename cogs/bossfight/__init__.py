"""/bossfight: GMs spawn a raid boss in a channel; players attack it with their token decks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.bossfight.cog import Bossfight

__all__ = ["Bossfight", "setup"]

if TYPE_CHECKING:
    from arena.bot import ArenaBot


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(Bossfight(bot))
