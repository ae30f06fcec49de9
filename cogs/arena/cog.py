"""/arena profile: one member across the games of this server, from what each game stores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Never

import discord
from discord import app_commands

from cogs.arena.render import profile_embed
from cogs.common.bot import guild_id
from cogs.common.cog import GameCog
from cogs.common.executor import run_engine
from storage.profile import ProfileRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot


@app_commands.guild_only()
class Arena(
    GameCog[Never],
    name="Arena",
    group_name="arena",
    group_description="Arena across its games: a member's profile in this server.",
):
    def __init__(self, bot: ArenaBot):
        super().__init__(bot)
        self.profiles = ProfileRepository(bot.db)

    @app_commands.command(
        name="profile",
        description="A member across the games here: MMA, raids, Andor's Trail and the deck optimizer.",
    )
    @app_commands.describe(member="Whose profile (default: yours)")
    async def profile(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        who = member or interaction.user
        profile = await self.profiles.profile(guild_id(interaction), who.id, lambda work: run_engine(self.bot, work))
        await interaction.response.send_message(embed=profile_embed(who.display_name, profile))
