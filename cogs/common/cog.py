"""The base of every game's cog: the bot it serves, the persistent components it registers while loaded, and the
clock and seeds it reads (which tests replace)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import discord
from discord.ext import commands

from rules.seeds import new_seed

if TYPE_CHECKING:
    from arena.bot import ArenaBot

ComponentT = TypeVar("ComponentT")


class GameCog(commands.GroupCog, Generic[ComponentT]):
    """A game's slash-command group. `components` lists its `DynamicItem` classes (see
    `cogs.common.components`): they are registered on load, so buttons of messages posted before a restart
    keep working, and their clicks reach the cog's `on_component`, typed by the game's component classes
    (`GameCog[FightButton | TargetSelect]`).

    `clock` (unix time) and `new_seed` (a seed for a run the user did not seed) are the cog's only sources of
    time and chance: a test replaces them to move time forward or to pick the deal."""

    components: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()

    async def on_component(self, interaction: discord.Interaction, component: ComponentT, /) -> None:
        """Act on a click of one of `components`; a game with components overrides it."""
        raise NotImplementedError(f"{type(self).__name__} has no components")

    def __init__(self, bot: ArenaBot):
        self.bot = bot
        self.clock: Callable[[], float] = time.time
        self.new_seed: Callable[[], int] = new_seed

    def seed_or_new(self, seed: int | None) -> int:
        """The seed a user gave, or a fresh one from `new_seed`."""
        return self.new_seed() if seed is None else seed

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.components)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.components)
