"""Where a /deck job shows itself: the message of the command that started it (`InteractionMessage`), or, for a
job an earlier process left, that message edited through the channel, the result posted in the channel
(`ChannelMessage`). The cog runs every job the same way through `JobMessage`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from typing import TYPE_CHECKING, Protocol

import discord

from cogs.common import answer_shown, markdown_safe, report_error, show_result, told_if_stopped
from cogs.common.posts import done_or_logged
from cogs.deck.jobs import Job, JobResult
from cogs.deck.render import (
    abandoned_embed,
    cancel_view,
    ended_elsewhere_embed,
    failed_embed,
    paused_embed,
    progress_embed,
    result_embed,
    result_files,
)
from rules.deck.optimize import Progress

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.deck")

UNKNOWN_CHANNEL = 10003  # Discord's error code for a channel that no longer exists


class ChannelGone(Exception):
    """The channel of a job an earlier process left is gone (or out of the bot's reach): the job is dropped."""


class JobMessage(Protocol):
    async def post(self) -> None:
        """Show the job's first progress (with its Cancel button) and note its message on the job."""
        ...

    async def show_progress(self, _: Progress | None = None) -> None: ...

    def told_if_stopped(self) -> AbstractAsyncContextManager[None]:
        """Around the job's work: when the bot stops and can wait no longer, the message says the job resumes."""
        ...

    async def paused(self) -> None: ...

    async def show_result(self, done: JobResult) -> None: ...

    async def failed(self, error: Exception) -> None: ...

    async def failed_after_result(self, error: Exception) -> None:
        """The result is shown, but keeping it failed."""
        ...


class InteractionMessage:
    """A job started by a command: its progress and result on the command's response."""

    def __init__(self, interaction: discord.Interaction, job: Job):
        self.interaction = interaction
        self.job = job

    def progress(self) -> discord.Embed:
        return progress_embed(self.job, self.job.requester)

    async def post(self) -> None:
        interaction = self.interaction
        if interaction.response.is_done():  # deferred to read the opponent's file
            shown = await interaction.edit_original_response(embed=self.progress(), view=cancel_view(self.job.id))
            answer_shown(interaction)
            self.job.message_id = shown.id
        else:
            sent = await interaction.response.send_message(embed=self.progress(), view=cancel_view(self.job.id))
            shown = sent.resource
            self.job.message_id = shown.id if isinstance(shown, discord.InteractionMessage) else sent.message_id

    async def show_progress(self, _: Progress | None = None) -> None:
        await self.interaction.edit_original_response(embed=self.progress())

    def told_if_stopped(self) -> AbstractAsyncContextManager[None]:
        return told_if_stopped(self.interaction, "this run", stopped=lambda: paused_embed(self.progress()))

    async def paused(self) -> None:
        # the Cancel button stays: the next process resumes the job under the same id
        await self.interaction.edit_original_response(
            embed=paused_embed(self.progress()), view=cancel_view(self.job.id)
        )

    async def show_result(self, done: JobResult) -> None:
        interaction, embed = self.interaction, result_embed(self.job, done)
        try:
            await show_result(interaction, embed=embed, files=lambda: result_files(done), what="/deck optimize")
        except discord.NotFound:  # the message was deleted while the job ran: the result comes as a new one
            await interaction.followup.send(embed=embed, files=result_files(done))

    async def failed(self, error: Exception) -> None:
        await self.interaction.edit_original_response(embed=failed_embed(self.job), view=None)
        await report_error(self.interaction, error)

    async def failed_after_result(self, error: Exception) -> None:
        await report_error(self.interaction, error)


class ChannelMessage:
    """A job an earlier process left: its progress message edited through the channel (posted anew if it was
    deleted), its result posted in the channel. No member waits on an interaction, so a refusal is logged."""

    def __init__(self, bot: ArenaBot, job: Job):
        self.job = job
        assert job.channel_id is not None
        self.channel = bot.get_partial_messageable(job.channel_id, guild_id=job.guild_id)

    def progress(self) -> discord.Embed:
        return progress_embed(self.job, self.job.requester)

    async def edit_or_post(self, embed: discord.Embed, view: discord.ui.View | None = None) -> None:
        """Edit the job's message, or post it anew where it was deleted; ChannelGone where the channel is."""
        try:
            if self.job.message_id is not None:
                await self.channel.get_partial_message(self.job.message_id).edit(embed=embed, view=view)
                return
        except discord.NotFound as missing:
            if missing.code == UNKNOWN_CHANNEL:
                raise ChannelGone from None
        except discord.Forbidden:
            pass  # no longer allowed to edit there: try to post, which says whether the channel is still ours
        try:
            posted = await self.channel.send(embed=embed, view=view or discord.utils.MISSING)
        except (discord.NotFound, discord.Forbidden):
            raise ChannelGone from None
        self.job.message_id = posted.id

    async def post(self) -> None:
        await self.edit_or_post(self.progress(), cancel_view(self.job.id))

    async def show_progress(self, _: Progress | None = None) -> None:
        assert self.job.message_id is not None
        await self.channel.get_partial_message(self.job.message_id).edit(embed=self.progress())

    @asynccontextmanager
    async def _told_if_stopped(self) -> AsyncGenerator[None, None]:
        try:
            yield
        except asyncio.CancelledError:
            await self.paused()
            raise

    def told_if_stopped(self) -> AbstractAsyncContextManager[None]:
        return self._told_if_stopped()

    async def ended(self, embed: discord.Embed, what: str, view: discord.ui.View | None = None) -> None:
        """The job's message shows how it ended (a refusal, or the channel gone, logged)."""
        with suppress(ChannelGone):
            await done_or_logged(self.edit_or_post(embed, view), what + " deck job %s", self.job.id)

    async def paused(self) -> None:
        await self.ended(paused_embed(self.progress()), "show as paused", cancel_view(self.job.id))

    async def show_result(self, done: JobResult) -> None:
        note = f"The optimization {markdown_safe(self.job.requester)} started, resumed after a restart, is over:"
        await done_or_logged(
            self.channel.send(note, embed=result_embed(self.job, done), files=result_files(done)),
            "post the result of deck job %s",
            self.job.id,
        )
        await self.ended(ended_elsewhere_embed(self.progress()), "end the message of")

    async def failed(self, error: Exception) -> None:
        log.error("deck job %s failed", self.job.id, exc_info=error)
        await self.ended(failed_embed(self.job), "show as failed")

    async def failed_after_result(self, error: Exception) -> None:
        log.warning("could not keep the result of deck job %s: %s", self.job.id, error)

    async def abandoned(self) -> None:
        await self.ended(abandoned_embed(self.job), "show as abandoned")
