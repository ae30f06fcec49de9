"""The gateway's news about servers and channels, acted on: no commands of its own.

A deleted channel (CHANNEL_DELETE, or THREAD_DELETE for a thread) ends every live game of it through
`storage.lifecycle` and cancels the games' timers. A channel deleted while the bot was down is noticed when its
server comes up (READY, or GUILD_CREATE of a server that was unavailable): a channel with a live game that is
neither among the server's channels nor among its active threads is asked for (an archived thread is in
neither), and only Discord's 404 ends its games.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs.mma.cog import Mma
from storage.database import StorageOutage
from storage.lifecycle import LifecycleRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.lifecycle")


class Lifecycle(commands.Cog, name="Lifecycle"):
    def __init__(self, bot: ArenaBot):
        self.bot = bot
        self.repo = LifecycleRepository(bot.db)
        self.clock: Callable[[], float] = time.time  # unix time; a test moves it

    # --- channels -------------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.channel_gone(channel.guild.id, channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.channel_gone(payload.guild_id, payload.thread_id)

    async def channel_gone(self, guild_id: int, channel_id: int) -> None:
        """End every live game of the deleted channel and cancel its timers."""
        try:
            ended = await self.repo.end_channel(channel_id, self.clock())
        except StorageOutage:
            log.warning(
                "channel %s of server %s was deleted; its games end when it is next noticed", channel_id, guild_id
            )
            return
        mma = self.bot.get_cog("MMA")
        if isinstance(mma, Mma):
            for match in ended.matches:
                mma.claim_openings.cancel(match.id)
        if ended:
            log.info("channel %s of server %s was deleted: %d games there ended", channel_id, guild_id, len(ended))

    # --- servers coming up ----------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        for guild in self.bot.guilds:
            await self.check_channels(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.check_channels(guild)

    async def check_channels(self, guild: discord.Guild) -> None:
        """End the games of the server's channels deleted while the bot was not listening."""
        if guild.unavailable:
            return
        present = {channel.id for channel in guild.channels} | {thread.id for thread in guild.threads}
        try:
            in_play = await self.repo.channels_in_play(guild.id)
        except StorageOutage:
            log.warning("could not check the games of server %s for deleted channels", guild.id)
            return
        for channel_id in sorted(in_play - present):
            try:
                await self.bot.fetch_channel(channel_id)  # an archived thread, or one the cache lacks
            except discord.NotFound:
                await self.channel_gone(guild.id, channel_id)
            except discord.HTTPException as exc:  # Forbidden: it is there; anything else: ask again next time
                log.info(
                    "channel %s of server %s kept its games: Discord answered %s", channel_id, guild.id, exc.status
                )
