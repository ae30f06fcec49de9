"""/deck: Monte-Carlo deck optimization with live progress and a Cancel button, deck-vs-deck duels, random decks.

Threads. An optimization runs for up to about a minute, so it does not go through the bot's shared engine
executor: that pool's two workers serve every game's short engine calls (a CSV parse, a move, an attack),
and two long jobs there would stall all of them until the jobs end. Jobs run in this cog's own pool, one
thread per job the bot accepts (MAX_JOBS), so every accepted job starts at once; the threads share the
cores through the fast path's kernel lock, batch by batch, and the kernels release the GIL while they
play, so the event loop keeps answering during a job. Short engine calls (parsing a deck, a duel) still
use the shared executor like every other game's.

Restarts. Jobs live in memory, so a restart ends them. On a clean shutdown each job stops after its
current iteration and its message shows the best deck so far, marked as stopped by the restart, once it is
measured afresh like any run's final deck (at most 2 x 1,000,000 games at the bot's limits: about a second
alone, within SHUTDOWN_GRACE unless several jobs that large share the cores). After a
crash nothing can edit the message, so it says from the start that a restart stops the run, and its
Cancel button (a DynamicItem registered at start-up) turns such a leftover message into a "stopped" one.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    ProgressMessage,
    UserError,
    error_reply,
    fit_embed,
    markdown_safe,
    progress_bar,
    read_attachments,
    read_text_attachment,
    report_error,
    run_engine,
    run_long_engine,
    text_file,
)
from rules.deck.cards import Deck, Keyword, random_deck, read_deck_csv, set_list
from rules.deck.chart import winrate_chart_png
from rules.deck.fast import compile_kernels
from rules.deck.optimize import (
    OptimizeResult,
    OptimizeSettings,
    Progress,
    Score,
    check_work,
    duel,
    fresh_games,
    keywords_without,
    optimize,
)
from rules.seeds import MAX_SEED, new_seed, seed_or_new

log = logging.getLogger("arena.deck")

# games of one /deck optimize (iterations x games plus the fresh measurement of the start and final decks):
# about 12 s of work on 2 cores, a minute with MAX_JOBS sharing them, well inside the 15 minutes for which a
# job may edit its message through its interaction
MAX_TOTAL_GAMES = 20_000_000
MAX_OPTION = 100_000  # iterations or games of one job
MAX_DUEL_GAMES = 1_000_000
MAX_JOBS = 4  # optimizations in the bot at once; each user has at most one
PROGRESS_INTERVAL = 2.0  # seconds between edits of a job's message
SHUTDOWN_GRACE = 5.0  # seconds a clean shutdown waits for running jobs to show where they stopped

OPPONENT_HELP = "CSV with atk, def (and taunt, trample, distortion, first_strike, copies, cost); default: random"
RUNNING_TITLE = "🃏 Optimizing a deck…"  # how a Cancel button pressed after a crash knows its message still says so


@dataclass
class Job:
    id: str
    user_id: int
    settings: OptimizeSettings
    opponent_name: str
    cancel: threading.Event = field(default_factory=threading.Event)  # read by the worker thread
    stopped_by_shutdown: bool = False
    progress: Progress | None = None
    finished: asyncio.Event = field(default_factory=asyncio.Event)  # set once its message shows the end


class CancelButton(discord.ui.DynamicItem[discord.ui.Button], template=r"deck:(?P<job>[0-9a-f]{8}):cancel"):
    """The requester's Cancel button on a running optimization; works from any message, restarts included."""

    def __init__(self, job_id: str):
        super().__init__(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger, emoji="⏹️",
                                           custom_id=f"deck:{job_id}:cancel"))
        self.job_id = job_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match) -> CancelButton:
        return cls(match["job"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with error_reply(interaction):
            cog: DeckOptimizer | None = interaction.client.get_cog("DeckOptimizer")
            if cog is None:
                raise UserError("The deck optimizer is not loaded right now.")
            await cog.cancel_pressed(interaction, self.job_id)


def cancel_view(job_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CancelButton(job_id))
    return view


# --- rendering --------------------------------------------------------------------------------------------


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def measured(score: Score, bold: bool = False) -> str:
    """`60.3% (95% interval 59.4–61.3%)`."""
    low, high = score.interval
    rate = f"**{percent(score.winrate)}**" if bold else percent(score.winrate)
    return f"{rate} (95% interval {100 * low:.1f}–{100 * high:.1f}%)"


def keywords_text(settings: OptimizeSettings) -> str:
    off = [k.title for k in Keyword if k not in settings.keywords]
    return "all keywords on" if not off else f"off: {', '.join(off)}"


def run_text(job: Job) -> str:
    s = job.settings
    return (f"{s.iterations:,} iterations × {s.games:,} games · seed {s.seed} · {keywords_text(s)}\n"
            f"opponent: {job.opponent_name}")


def progress_embed(job: Job, requester: str) -> discord.Embed:
    p = job.progress
    if p is None:
        text = f"{progress_bar(0)}\nstarting…"
    else:
        text = (f"{progress_bar(p.fraction)}\niteration {p.iteration:,}/{p.iterations:,} · "
                f"best measurement so far **{percent(p.best_winrate)}** (start {percent(p.start_winrate)}) · "
                f"{p.accepted} swap{'s' if p.accepted != 1 else ''} kept")
        if p.measuring:
            text += (f"\nmeasuring the start and final decks afresh over "
                     f"{fresh_games(job.settings.games):,} new games each…")
    embed = discord.Embed(title=RUNNING_TITLE, description=text, color=COLOR_INFO)
    embed.add_field(name="Run", value=run_text(job), inline=False)
    embed.set_footer(text=f"Requested by {requester}; only they can cancel it. If the bot restarts, this run stops.")
    return fit_embed(embed)


def shows_a_running_job(message: discord.Message | None) -> bool:
    """Whether a message still shows a running job (its Cancel button was pressed, so it is one of ours)."""
    return message is not None and bool(message.embeds) and message.embeds[0].title == RUNNING_TITLE


def stopped_by_restart_embed(progress: discord.Embed) -> discord.Embed:
    """A progress message left behind by a bot that stopped without updating it, marked as stopped."""
    embed = discord.Embed(
        title="⏹️ Optimization stopped: the bot restarted",
        description=f"The bot restarted during this run, which ended it; its results were not kept.\n"
        f"Last progress shown:\n{progress.description or ''}",
        color=COLOR_DEFEAT,
    )
    for old in progress.fields:
        embed.add_field(name=old.name, value=old.value, inline=old.inline)
    embed.set_footer(text="Run /deck optimize again with the same seed to replay it.")
    return fit_embed(embed)


def deck_block(deck: Deck) -> str:
    return "```\n" + deck.compact() + "\n```"


def deck_table(deck: Deck) -> str:
    """A narrow table (phones wrap wide code blocks): Y marks a keyword."""
    rows = ["cost atk def tau tra dis  fs  n"]
    for card, copies in deck.counts():
        marks = " ".join(f"{'Y' if card.has(k) else '.':>3}" for k in Keyword)
        rows.append(f"{card.cost:>4} {card.atk:>3} {card.defense:>3} {marks} {copies:>2}")
    return "```\n" + "\n".join(rows) + "\n```\ntau = Taunt, tra = Trample, dis = Distortion, fs = First Strike"


def result_embed(job: Job, result: OptimizeResult, seconds: float) -> discord.Embed:
    s = result.settings
    fresh = result.fresh
    gain = fresh.final.winrate - fresh.start.winrate
    if result.cancelled:
        done = f"{result.iterations_done:,}/{s.iterations:,} iterations"
        title = (f"⏹️ Optimization stopped after {done}: the bot is restarting" if job.stopped_by_shutdown
                 else f"⏹️ Optimization cancelled after {done}")
        color = COLOR_DEFEAT
    else:
        title = f"🃏 Deck optimized: {percent(fresh.start.winrate)} → {percent(fresh.final.winrate)}"
        color = COLOR_VICTORY
    embed = discord.Embed(title=title, description="**Best deck**\n" + deck_block(result.best), color=color)
    embed.add_field(
        name="Winrate against the opponent",
        value=f"start {measured(fresh.start)} → final {measured(fresh.final, bold=True)}\n"
        f"{'+' if gain >= 0 else ''}{100 * gain:.1f} points, {len(result.accepted)} swaps kept · measured afresh "
        f"after the run over {fresh.games:,} new games each\n"
        f"best measurement during the run (the chart's curve, {s.games:,} game{'s' if s.games != 1 else ''} each, "
        f"biased high): {percent(result.best_winrate)}",
        inline=False,
    )
    embed.add_field(name="Run", value=run_text(job), inline=False)
    embed.add_field(
        name="Work",
        value=f"{result.games_played:,} games ({2 * fresh.games:,} of them measuring afresh) in {seconds:.1f} s · "
        f"set list of {result.set_list_size} cards",
        inline=False,
    )
    embed.set_image(url=f"attachment://winrate-{s.seed}.png")
    embed.set_footer(text="Files: the best deck and the opponent as CSV; the chart of the best measurement so far per "
                     "iteration and the fresh measurements as PNG.")
    return fit_embed(embed)


def result_files(result: OptimizeResult, chart: bytes) -> list[discord.File]:
    seed = result.settings.seed
    return [
        text_file(f"deck-{seed}.csv", result.best.to_csv()),
        text_file(f"opponent-{seed}.csv", result.opponent.to_csv()),
        discord.File(io.BytesIO(chart), filename=f"winrate-{seed}.png"),
    ]


def compute_job(job: Job, report) -> tuple[OptimizeResult, bytes, float]:
    """The whole job, in a worker thread: the optimization with its fresh measurement, then its chart."""
    started = time.perf_counter()
    last = 0.0

    def progress(p: Progress) -> None:
        nonlocal last
        job.progress = p
        now = time.monotonic()
        if now - last >= 0.5 or p.measuring:  # the message itself is throttled further
            last = now
            report(p)

    result = optimize(job.settings, progress=progress, cancelled=job.cancel.is_set)
    seconds = time.perf_counter() - started
    return result, winrate_chart_png(result, f"Deck optimization, seed {job.settings.seed}"), seconds


def warm_up() -> None:
    """Load the compiled kernels from the on-disk cache (or compile them once) before the first user waits."""
    try:
        compile_kernels()
    except Exception:  # the first job would then compile them itself
        log.warning("warming up the deck optimizer's kernels failed", exc_info=True)


# --- the cog ------------------------------------------------------------------------------------------------


class DeckOptimizer(commands.GroupCog, group_name="deck", group_description="Deck optimizer: Monte-Carlo deck building, duels, random decks."):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.executor = ThreadPoolExecutor(MAX_JOBS, thread_name_prefix="deck-job")
        self.jobs_by_user: dict[int, Job] = {}
        self.jobs_by_id: dict[str, Job] = {}
        self.reserved: set[int] = set()  # users whose job is being set up (between the checks and the start)
        # Job ids start with this, so a Cancel button can tell a job of this process from one a restart ended.
        self.boot = secrets.token_hex(2)
        self.closing = False

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(CancelButton)
        asyncio.get_running_loop().run_in_executor(self.executor, warm_up)

    async def cog_unload(self) -> None:
        """Stop every job after its current iteration and give its message a moment to show the best deck so far."""
        self.closing = True
        self.bot.remove_dynamic_items(CancelButton)
        running = list(self.jobs_by_id.values())
        for job in running:
            job.stopped_by_shutdown = True
            job.cancel.set()
        if running:
            await asyncio.wait([asyncio.create_task(job.finished.wait()) for job in running], timeout=SHUTDOWN_GRACE)
        self.executor.shutdown(wait=False, cancel_futures=True)

    def new_job_id(self) -> str:
        while (job_id := self.boot + secrets.token_hex(2)) in self.jobs_by_id:
            pass
        return job_id

    # --- /deck optimize ------------------------------------------------------------------------------

    @app_commands.command(name="optimize", description="Optimize a random deck against an opponent deck, with live progress.")
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
        user_id = interaction.user.id
        running = self.jobs_by_user.get(user_id)
        if running is not None or user_id in self.reserved:
            raise UserError(
                "You already have an optimization running; wait for it to finish or press its Cancel button."
            )
        if len(self.jobs_by_id) + len(self.reserved) >= MAX_JOBS:
            raise UserError(f"The bot is already running {MAX_JOBS} optimizations; try again in a minute.")
        check_work(iterations, games, MAX_TOTAL_GAMES)
        self.reserved.add(user_id)
        try:
            switched_on = {Keyword.TAUNT: taunt, Keyword.TRAMPLE: trample, Keyword.DISTORTION: distortion,
                           Keyword.FIRST_STRIKE: first_strike}
            keywords = keywords_without(k for k, on in switched_on.items() if not on)
            opponent_deck, opponent_name = None, "a random deck from the seed"
            if opponent is not None:
                text = await read_text_attachment(opponent)
                opponent_deck = await run_engine(self.bot, read_deck_csv, text, opponent.filename, keywords)
                opponent_name = opponent.filename
            settings = OptimizeSettings(iterations, games, seed if seed is not None else new_seed(), keywords,
                                        opponent_deck, max_total_games=MAX_TOTAL_GAMES)
            if self.closing:  # the pool is shut down
                raise UserError("The bot is restarting; try again in a minute.")
            job = Job(self.new_job_id(), user_id, settings, opponent_name)
            self.jobs_by_user[user_id] = job
            self.jobs_by_id[job.id] = job
        finally:
            self.reserved.discard(user_id)
        try:
            await self.run_job(interaction, job)
        finally:
            self.jobs_by_user.pop(user_id, None)
            self.jobs_by_id.pop(job.id, None)
            job.finished.set()

    async def run_job(self, interaction: discord.Interaction, job: Job) -> None:
        """Post the progress message, run the job in this cog's pool, and end with its result (or failure)."""
        requester = interaction.user.display_name
        await interaction.response.send_message(embed=progress_embed(job, requester), view=cancel_view(job.id))

        async def show(_: Progress) -> None:
            await interaction.edit_original_response(embed=progress_embed(job, requester))

        progress = ProgressMessage(show, what=f"deck job {job.id}", min_interval=PROGRESS_INTERVAL)
        loop = asyncio.get_running_loop()
        try:
            result, chart, seconds = await loop.run_in_executor(self.executor, compute_job, job, progress.report)
        except Exception as exc:
            await progress.close()
            failed = discord.Embed(title="⚠️ The optimization failed", description=run_text(job), color=COLOR_DEFEAT)
            await interaction.edit_original_response(embed=failed, view=None)
            await report_error(interaction, exc)
            return
        await progress.close()
        await interaction.edit_original_response(
            embed=result_embed(job, result, seconds), attachments=result_files(result, chart), view=None
        )

    async def cancel_pressed(self, interaction: discord.Interaction, job_id: str) -> None:
        job = self.jobs_by_id.get(job_id)
        if job is None:
            if not job_id.startswith(self.boot) and shows_a_running_job(interaction.message):
                # A job of an earlier run of the bot that stopped without a word (a crash): say so on its message.
                await interaction.response.edit_message(
                    embed=stopped_by_restart_embed(interaction.message.embeds[0]), view=None
                )
                return
            raise UserError("This optimization is not running any more: it finished, was cancelled, or the bot restarted.")
        if interaction.user.id != job.user_id:
            raise UserError(f"Only <@{job.user_id}>, who started this optimization, can cancel it.")
        job.cancel.set()
        await interaction.response.send_message(
            "⏹️ Cancelling: the run stops after its current iteration and shows the best deck so far.", ephemeral=True
        )

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
        seed = seed_or_new(seed)
        result = await run_long_engine(self.bot, duel, a, b, games, seed)
        s = result.score
        low, high = s.interval
        embed = discord.Embed(
            title=f"⚔️ {markdown_safe(deck_a.filename)} vs {markdown_safe(deck_b.filename)}: {100 * s.winrate:.2f}%",
            description=(f"Deck A won **{s.wins:,}** of {s.games:,} games, lost {s.losses:,}, tied {s.ties:,} "
                         f"(a tie counts as a loss).\n95% interval: **{100 * low:.2f}% – {100 * high:.2f}%**"),
            color=COLOR_INFO,
        )
        embed.add_field(name=f"Deck A: {markdown_safe(deck_a.filename)}", value=f"mean cost {a.mean_cost():.2f}", inline=True)
        embed.add_field(name=f"Deck B: {markdown_safe(deck_b.filename)}", value=f"mean cost {b.mean_cost():.2f}", inline=True)
        embed.set_footer(text=f"seed {seed} · each deck started half the games")
        await interaction.edit_original_response(embed=fit_embed(embed))

    @app_commands.command(name="random", description="A random legal deck (30 cards, at most 2 copies), as a table and CSV.")
    @app_commands.describe(seed="Get the same deck again with its seed (default: a new one)")
    async def random_command(
        self, interaction: discord.Interaction, seed: app_commands.Range[int, 0, MAX_SEED] | None = None
    ) -> None:
        seed = seed if seed is not None else new_seed()
        deck = random_deck(set_list(), random.Random(seed))
        embed = discord.Embed(title=f"🎲 Random deck (seed {seed})", description=deck_table(deck), color=COLOR_INFO)
        embed.set_footer(text=f"30 cards, mean cost {deck.mean_cost():.2f}. Use the CSV with /deck duel or as an opponent.")
        await interaction.response.send_message(embed=fit_embed(embed), file=text_file(f"deck-{seed}.csv", deck.to_csv()))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DeckOptimizer(bot))
