"""/deck: Monte-Carlo deck optimization with live progress and a Cancel button, deck-vs-deck duels, random decks.

An optimization is a job of the cog's job manager (`cogs.deck.jobs`: its threads, the limits, cancelling and
restarts); the cog turns commands and clicks into jobs and shows them (`cogs.deck.render`). Reading a deck
file and a duel run in the bot's engine pools, like every game's engine work.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from contextlib import suppress
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.common import ProgressMessage, UserError, read_attachments, run_engine, run_long_engine, told_if_stopped
from cogs.common.cog import GameCog
from cogs.common.components import require_here
from cogs.deck.items import COG_NAME, DeckButton
from cogs.deck.jobs import ABANDON_AFTER, Job, JobManager, JobResult, Paused
from cogs.deck.messages import ChannelGone, ChannelMessage, InteractionMessage, JobMessage
from cogs.deck.render import (
    duel_embed,
    random_deck_embed,
    random_deck_file,
    shows_a_running_job,
    stopped_by_restart_embed,
)
from cogs.deck.stored import kept_result, resumed_job, stored_job
from rules.deck.cards import Keyword, random_deck, read_deck_csv, set_list
from rules.deck.optimize import Checkpoint, OptimizeSettings, check_work, duel, keywords_without
from rules.seeds import MAX_SEED
from storage.deck import DeckRepository, JobState
from storage.errors import StorageOutage

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.deck")

# games of one /deck optimize (iterations x games plus the fresh measurement of the start and final decks):
# about 12 s of work on 2 cores, a minute with MAX_JOBS sharing them, well inside the 15 minutes for which a
# job may edit its message through its interaction
MAX_TOTAL_GAMES = 20_000_000
MAX_OPTION = 100_000  # iterations or games of one job
MAX_DUEL_GAMES = 1_000_000
PROGRESS_INTERVAL = 2.0  # seconds between edits of a job's message

OPPONENT_HELP = "CSV with atk, def (and taunt, trample, distortion, first_strike, copies, cost); default: random"


class DeckOptimizer(
    GameCog[DeckButton],
    name=COG_NAME,
    group_name="deck",
    group_description="Deck optimizer: Monte-Carlo deck building, duels, random decks.",
):
    components = (DeckButton,)

    def __init__(self, bot: ArenaBot):
        super().__init__(bot)
        self.jobs = JobManager(bot.observer.metrics)
        self.results = DeckRepository(bot.db)

    async def cog_load(self) -> None:
        await super().cog_load()
        await self.resume_jobs()

    async def cog_unload(self) -> None:
        await super().cog_unload()
        await self.jobs.shutdown()

    async def on_component(self, interaction: discord.Interaction, component: DeckButton) -> None:
        await self.cancel_pressed(interaction, component.item_id)  # Cancel is the only action

    # --- /deck optimize ------------------------------------------------------------------------------

    @app_commands.command(
        name="optimize", description="Optimize a random deck against an opponent deck, with live progress."
    )
    @app_commands.describe(
        iterations="Iterations: one card swapped per iteration (default 1000)",
        games="Games per iteration (default 1000); all games of a run, final measurement included, ≤ 20,000,000",
        seed="Replay a run with its seed (default: a new one)",
        opponent=OPPONENT_HELP,
        taunt="Keep Taunt cards in the set list (default yes)",
        trample="Keep Trample cards in the set list (default yes)",
        distortion="Keep Distortion cards in the set list (default yes)",
        first_strike="Keep First Strike cards in the set list (default yes)",
    )
    async def optimize_command(
        self,
        interaction: discord.Interaction,
        iterations: app_commands.Range[int, 1, MAX_OPTION] = 1000,
        games: app_commands.Range[int, 1, MAX_OPTION] = 1000,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
        opponent: discord.Attachment | None = None,
        taunt: bool = True,
        trample: bool = True,
        distortion: bool = True,
        first_strike: bool = True,
    ) -> None:
        with self.jobs.reservation(interaction.user.id):
            check_work(iterations, games, MAX_TOTAL_GAMES)
            switched_on = {
                Keyword.TAUNT: taunt,
                Keyword.TRAMPLE: trample,
                Keyword.DISTORTION: distortion,
                Keyword.FIRST_STRIKE: first_strike,
            }
            keywords = keywords_without(k for k, on in switched_on.items() if not on)
            opponent_deck = None
            if opponent is not None:
                (text,) = await read_attachments(interaction, opponent, ephemeral=False)
                opponent_deck = await run_engine(self.bot, read_deck_csv, text, opponent.filename, keywords)
            settings = OptimizeSettings(
                iterations, games, self.seed_or_new(seed), keywords, opponent_deck, max_total_games=MAX_TOTAL_GAMES
            )
            job = self.jobs.register(
                interaction.user.id,
                settings,
                opponent.filename if opponent else None,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                requester=interaction.user.display_name,
                started_at=self.clock(),
            )
        try:
            await self.run_job(job, InteractionMessage(interaction, job))
        finally:
            self.jobs.finish(job)

    async def run_job(self, job: Job, message: JobMessage) -> None:
        """Post or show the job's progress message, store the job, run it, and end with its result (or failure, or
        its pause for a restart). Its slot is free before its end is shown."""
        try:
            await message.post()
            progress = ProgressMessage(message.show_progress, what=f"deck job {job.id}", min_interval=PROGRESS_INTERVAL)
            saves = ProgressMessage(
                functools.partial(self.save_checkpoint, job), what=f"checkpoint of deck job {job.id}", min_interval=0
            )
            async with message.told_if_stopped():
                try:
                    if not job.resumed:
                        await self.results.job_started(stored_job(job))
                    elif job.message_id is not None:
                        await self.results.shown_in(job.id, job.message_id)
                    done = await self.jobs.run(job, progress.report, saves.report)
                finally:
                    await progress.close()
                    await saves.close()
        except ChannelGone:
            log.info("deck job %s dropped: its channel %s is gone", job.id, job.channel_id)
            self.jobs.release(job)
            with suppress(StorageOutage):
                await self.results.job_ended(job.id, None)
            return
        except Exception as exc:
            self.jobs.release(job)
            await message.failed(exc)
            with suppress(StorageOutage):
                await self.results.job_ended(job.id, None)
            return
        self.jobs.release(job)
        if isinstance(done, Paused):
            await self.save_checkpoint(job, done.checkpoint, done.seconds)
            await message.paused()
            return
        try:
            await message.show_result(done)
        finally:
            await self.record_result(message, job, done)

    async def save_checkpoint(self, job: Job, checkpoint: Checkpoint, seconds: float) -> None:
        try:
            await self.results.checkpoint(job.id, JobState(job.settings, checkpoint), seconds)
        except StorageOutage:  # the next checkpoint tries again; a restart meanwhile resumes from an older one
            log.warning("could not store the checkpoint of deck job %s", job.id)

    async def record_result(self, message: JobMessage, job: Job, done: JobResult) -> None:
        """The job is over: its stored job goes, and its result deck's fresh measurement is kept for the member's
        best in their profile (a run in a server only: a profile is a server's). The result is shown first: a
        database that fails here loses no run."""
        try:
            await self.results.job_ended(job.id, kept_result(job, done))
        except Exception as exc:
            await message.failed_after_result(exc)

    # --- jobs an earlier process left ----------------------------------------------------------------

    async def resume_jobs(self) -> None:
        """Every job an earlier process of this bot left running, in the servers (and direct messages) this
        process serves: resumed from its checkpoint, or abandoned when it is more than a day old."""
        try:
            stored = await self.results.unfinished_jobs()
        except StorageOutage:
            log.warning("could not read the /deck jobs to resume; they resume at the next start-up")
            return
        for row in stored:
            if not self.bot.serves_guild(row.guild_id or 0):  # direct messages come to shard 0
                continue
            job = resumed_job(row)
            if self.clock() - row.started_at > ABANDON_AFTER:
                self.bot.keep(asyncio.ensure_future(self.abandon(job)))
                continue
            self.jobs.add(job)
            self.bot.keep(asyncio.ensure_future(self.resume(job)))

    async def resume(self, job: Job) -> None:
        try:
            await self.run_job(job, ChannelMessage(self.bot, job))
        finally:
            self.jobs.finish(job)

    async def abandon(self, job: Job) -> None:
        await ChannelMessage(self.bot, job).abandoned()
        await self.results.job_ended(job.id, None)

    async def cancel_pressed(self, interaction: discord.Interaction, job_id: str) -> None:
        job = self.jobs.by_id.get(job_id)
        if job is None:
            message = interaction.message
            if self.jobs.from_earlier_process(job_id) and message is not None and shows_a_running_job(message):
                # A job of an earlier process that stopped without a word (a crash): say so on its message.
                await interaction.response.edit_message(embed=stopped_by_restart_embed(message.embeds[0]), view=None)
                return
            raise UserError(
                "This optimization is not running any more: it finished, was cancelled, or the bot restarted."
            )
        require_here(interaction, "optimization", job)
        already = job.cancel.is_set()
        self.jobs.cancel(job, interaction.user.id)
        if job.progress is not None and job.progress.measuring:  # nothing left to cancel
            reply = "The iterations are over: the run is measuring its start and final decks, and shows them soon."
        elif already:
            reply = "⏹️ Already cancelling: the run stops after its current iteration and shows its result so far, measured afresh."
        else:
            reply = (
                "⏹️ Cancelling: the run stops after its current iteration and shows its result so far, measured afresh."
            )
        await interaction.response.send_message(reply, ephemeral=True)

    # --- /deck duel and /deck random -----------------------------------------------------------------

    @app_commands.command(name="duel", description="Winrate of deck A against deck B, with a 95% interval.")
    @app_commands.describe(
        deck_a="Deck A (player 1) as CSV: atk, def, taunt, trample, distortion, first_strike, copies",
        deck_b="Deck B (player 2) as CSV, same columns",
        games="Games to play (default 10,000; at most 1,000,000); each deck starts half of them",
        seed="Replay a duel with its seed (default: a new one)",
    )
    async def duel_command(
        self,
        interaction: discord.Interaction,
        deck_a: discord.Attachment,
        deck_b: discord.Attachment,
        games: app_commands.Range[int, 1, MAX_DUEL_GAMES] = 10_000,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
        text_a, text_b = await read_attachments(interaction, deck_a, deck_b, ephemeral=False)
        a = await run_engine(self.bot, read_deck_csv, text_a, deck_a.filename)
        b = await run_engine(self.bot, read_deck_csv, text_b, deck_b.filename)
        async with told_if_stopped(interaction, "this duel"):
            result = await run_long_engine(self.bot, duel, a, b, games, self.seed_or_new(seed))
        await interaction.edit_original_response(embed=duel_embed(result, deck_a.filename, deck_b.filename))

    @app_commands.command(
        name="random", description="A random legal deck (30 cards, at most 2 copies), as a table and CSV."
    )
    @app_commands.describe(seed="Get the same deck again with its seed (default: a new one)")
    async def random_command(
        self, interaction: discord.Interaction, seed: app_commands.Range[int, 0, MAX_SEED] | None = None
    ) -> None:
        seed = self.seed_or_new(seed)
        deck = random_deck(set_list(), random.Random(seed))
        await interaction.response.send_message(embed=random_deck_embed(deck, seed), file=random_deck_file(deck, seed))
