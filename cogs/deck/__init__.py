"""/deck: the deck optimizer's commands (the cog), its jobs, its Cancel button and its rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.deck.cog import DeckOptimizer

if TYPE_CHECKING:
    from arena.bot import ArenaBot


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(DeckOptimizer(bot))


__all__ = ["DeckOptimizer", "setup"]
