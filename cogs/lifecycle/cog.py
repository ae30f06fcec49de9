"""The gateway's news about servers and channels, acted on: no commands of its own.

A deleted channel (CHANNEL_DELETE, or THREAD_DELETE for a thread) ends every live game of it through
`storage.lifecycle` and tells the games (`cogs.common.events.CHANNEL_GAMES_ENDED`), which cancel their timers. A channel deleted while the bot was down is noticed when its
server comes up (READY, or GUILD_CREATE of a server that was unavailable): a channel with a live game that is
neither among the server's channels nor among its active threads is asked for (an archived thread is in
neither), and only Discord's 404 ends its games.

A server that removes the bot (GUILD_DELETE without `unavailable`; an outage is not a removal) keeps its data for
GUILD_RETENTION_DAYS; the bot coming back to it (a re-invite, or finding itself there at start-up) cancels
that, and a check at start-up and every hour erases the servers whose retention is over.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs.common.events import CHANNEL_GAMES_ENDED
from storage.errors import StorageOutage
from storage.lifecycle import LifecycleRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.lifecycle")

ERASE_EVERY = 3600.0  # seconds between two checks for servers whose retention is over
DAY = 86400.0


class Lifecycle(commands.Cog, name="Lifecycle"):
    def __init__(self, bot: ArenaBot):
        self.bot = bot
        self.repo = LifecycleRepository(bot.db)
        self.clock: Callable[[], float] = time.time  # unix time; a test moves it
        self._next_erase: asyncio.TimerHandle | None = None
        self._erasing: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        await self.erase_departed()  # the servers whose retention ended while the bot was down
        self._arm()

    async def cog_unload(self) -> None:
        if self._next_erase is not None:
            self._next_erase.cancel()

    def _arm(self) -> None:
        self._next_erase = asyncio.get_running_loop().call_later(ERASE_EVERY, self._erase_now)

    def _erase_now(self) -> None:
        task = asyncio.get_running_loop().create_task(self.erase_departed())
        self._erasing.add(task)
        task.add_done_callback(self._erasing.discard)
        self._arm()

    # --- channels -------------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.channel_gone(channel.guild.id, channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.channel_gone(payload.guild_id, payload.thread_id)

    async def channel_gone(self, guild_id: int, channel_id: int) -> None:
        """End every live game of the deleted channel; the games hear of it and cancel its timers."""
        try:
            ended = await self.repo.end_channel(channel_id, self.clock())
        except StorageOutage:
            log.warning(
                "channel %s of server %s was deleted; its games end when it is next noticed", channel_id, guild_id
            )
            return
        self.bot.dispatch(CHANNEL_GAMES_ENDED, ended)
        if ended:
            log.info("channel %s of server %s was deleted: %d games there ended", channel_id, guild_id, len(ended))

    # --- servers coming up ----------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        for guild in self.bot.guilds:
            await self.guild_here(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.guild_here(guild)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.guild_here(guild)

    async def guild_here(self, guild: discord.Guild) -> None:
        """The bot is in the server: nothing of it is to be erased, its name is kept for its pages, and its deleted
        channels' games end."""
        name = None if guild.unavailable else guild.name  # in an outage Discord sends only the server's id
        try:
            if await self.repo.guild_here(guild.id, name):
                log.info("back in server %s: its data is kept", guild.id)
        except StorageOutage:
            log.warning("could not record that the bot is back in server %s", guild.id)
        await self.check_channels(guild)

    @commands.Cog.listener()
    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        if after.name == before.name:
            return
        try:
            await self.repo.guild_renamed(after.id, after.name)
        except StorageOutage:
            log.warning("could not record the new name of server %s; it is kept at the next start-up", after.id)

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

    # --- servers that removed the bot -----------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        try:
            await self.repo.guild_left(guild.id, self.clock())
        except StorageOutage:
            log.warning("could not record that server %s removed the bot; its data is kept", guild.id)
            return
        days = self.bot.settings.guild_retention_days
        log.info("removed from server %s: its data is kept %g days, then erased", guild.id, days)

    async def erase_departed(self) -> None:
        """Erase the servers that removed the bot longer ago than GUILD_RETENTION_DAYS."""
        try:
            erased = await self.repo.erase_departed(self.clock(), self.bot.settings.guild_retention_days * DAY)
        except StorageOutage:
            log.warning("could not erase the servers that removed the bot; the next check tries again")
            return
        for guild_id in erased:
            log.info(
                "erased server %s: it removed the bot over %g days ago",
                guild_id,
                self.bot.settings.guild_retention_days,
            )
