"""/arena-settings: a server's own Arena settings, for members with Manage Server. A top-level command, because
Discord keeps default member permissions (who sees a command) on top-level commands only: as a subcommand of
/arena it would show to every member. The handler checks the permission too, since a server can change who
sees a command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.arena.render import settings_embed
from cogs.common import UserError, markdown_safe
from cogs.common.bot import guild_id
from storage.guild_settings import PARTY_TURN_LIMITS, GuildSettingsRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot

MANAGE_SERVER_ONLY = "Only members with the Manage Server permission can see or change this server's Arena settings."


class ServerSettings(commands.Cog, name="Arena settings"):
    def __init__(self, bot: ArenaBot):
        self.bot = bot
        self.settings = GuildSettingsRepository(bot.db)

    @app_commands.command(
        name="arena-settings",
        description="This server's Arena settings (Manage Server only): GM role, party turn, web pages.",
    )
    @app_commands.describe(
        gm_role="Members with this role count as game masters here (besides members with Manage Server)",
        clear_gm_role="True: this server goes back to the bot's default game-master role (GM_ROLE)",
        party_turn_seconds="Seconds an Andor party member has for a turn (15 to 300, default 60)",
        web_pages="True: this server's leaderboard, members, replays and tournaments are pages anyone can open",
        world_boss_channel="The channel where world bosses are announced and fought (the server takes part)",
        clear_world_boss_channel="True: this server no longer takes part in world bosses",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def arena_settings(
        self,
        interaction: discord.Interaction,
        gm_role: discord.Role | None = None,
        clear_gm_role: bool = False,
        party_turn_seconds: app_commands.Range[int, *PARTY_TURN_LIMITS] | None = None,
        web_pages: bool | None = None,
        world_boss_channel: discord.TextChannel | None = None,
        clear_world_boss_channel: bool = False,
    ) -> None:
        if not interaction.permissions.manage_guild:
            raise UserError(MANAGE_SERVER_ONLY)
        here = guild_id(interaction)
        low, high = PARTY_TURN_LIMITS
        if party_turn_seconds is not None and not low <= party_turn_seconds <= high:
            raise UserError(
                f"A party turn lasts {low} to {high} seconds."
            )  # Discord checks it; a replayed call may not
        if gm_role is not None and clear_gm_role:
            raise UserError("Give a game-master role or clear it, not both.")
        if gm_role is not None and gm_role.is_default():
            raise UserError("@everyone cannot be the game-master role: every member would be a game master.")
        if world_boss_channel is not None and clear_world_boss_channel:
            raise UserError("Give a world-boss channel or clear it, not both.")
        stored, done = await self.settings.get(here), list[str]()
        if gm_role is not None:
            stored = await self.settings.set_gm_role(here, gm_role.id)
            done.append(f"✅ Members with the **{markdown_safe(gm_role.name)}** role are game masters here now.")
        elif clear_gm_role:
            stored = await self.settings.set_gm_role(here, None)
            done.append("✅ This server's game-master role is cleared: the bot's default applies here again.")
        if party_turn_seconds is not None:
            stored = await self.settings.set_party_turn_seconds(here, party_turn_seconds)
            done.append(f"✅ An Andor party member has {party_turn_seconds} s for a turn here now.")
        if web_pages is not None:
            stored = await self.settings.set_web_pages(here, web_pages)
            done.append(
                "✅ This server's pages are on the web now: anyone with the address can read them."
                if web_pages
                else "✅ This server's pages are off the web now."
            )
        if world_boss_channel is not None or clear_world_boss_channel:
            channel = None if world_boss_channel is None else world_boss_channel.id
            stored = await self.settings.set_world_boss_channel(here, channel)
            done.append(
                "✅ This server no longer takes part in world bosses."
                if channel is None
                else f"✅ World bosses are announced and fought in <#{channel}> now."
            )
        settings = self.bot.settings
        embed = settings_embed(stored, settings.gm_role, "\n".join(done) or None, settings.web_base_url, here)
        await interaction.response.send_message(embed=embed, ephemeral=True)
        if world_boss_channel is not None:
            # The world boss's poller shows a live boss in the new channel at once (cogs/bossfight/world.py).
            self.bot.dispatch("world_boss_channel_set", here)
