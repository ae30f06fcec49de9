"""Servers and channels come and go: a deleted channel ends its games (docs/architecture.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.lifecycle.cog import Lifecycle

__all__ = ["Lifecycle", "setup"]

if TYPE_CHECKING:
    from arena.bot import ArenaBot


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(Lifecycle(bot))
