"""/bossfight upload and remove: a server's own bosses, a mixin of the Bossfight cog (discord.py gathers a cog's
commands from its bases too)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import gm_only
from cogs.common.uploads import UploadedRoster
from rules.bossfight import Boss

# Discord cuts option help at 100 characters: the column list is written to fit.
BOSS_COLUMNS_HELP = "CSV: name, level, element, health, then physical_ and magical_ damage, penetration, resistance"


class RosterUploads(commands.Cog):
    """Never loaded alone: its commands join the Bossfight cog's group."""

    bosses: UploadedRoster[Boss]

    async def own_boss_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.bosses.uploaded_choices(interaction, current)

    @app_commands.command(name="upload", description="GM: add bosses to this server's roster, or replace them by name.")
    @app_commands.describe(bosses=BOSS_COLUMNS_HELP)
    @gm_only()
    async def upload(self, interaction: discord.Interaction, bosses: discord.Attachment) -> None:
        await self.bosses.upload(interaction, bosses)

    @app_commands.command(name="remove", description="GM: remove one of this server's uploaded bosses.")
    @app_commands.describe(boss="An uploaded boss's name (a built-in one it replaced comes back)")
    @app_commands.autocomplete(boss=own_boss_autocomplete)
    @gm_only()
    async def remove(self, interaction: discord.Interaction, boss: str) -> None:
        await self.bosses.remove(interaction, boss, note=" A raid already running against it goes on.")
