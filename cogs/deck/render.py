"""What /deck shows: a job's progress and result, a crash's leftover message marked stopped, duels and
random decks. Pure functions from the jobs and the engine's results to embeds, views and files. File names
and the requester's display name are escaped wherever they are shown; a seeded result has its seed first
in the footer."""

from __future__ import annotations

import io
import re

import discord

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    fit_embed,
    markdown_safe,
    progress_bar,
    seed_footer,
    text_file,
)
from cogs.deck.items import cancel_button
from cogs.deck.jobs import Job, JobResult
from rules.deck.cards import Deck, Keyword
from rules.deck.optimize import (
    DuelResult,
    OptimizeResult,
    OptimizeSettings,
    Score,
    Verdict,
    fresh_games,
    verdict_note,
)
from rules.text import plural

RUNNING_TITLE = "🃏 Optimizing a deck…"  # how a Cancel button pressed after a crash knows its message still says so
SEED_IN_FOOTER = re.compile(r"seed ([0-9]+)")  # the start of a seed_footer


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
    opponent = "a random deck from the seed" if job.opponent_file is None else markdown_safe(job.opponent_file)
    return f"{plural(s.iterations, 'iteration')} × {plural(s.games, 'game')} · {keywords_text(s)}\nopponent: {opponent}"


def cancel_view(job_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(cancel_button(job_id))
    return view


def progress_embed(job: Job, requester: str) -> discord.Embed:
    """A running job's message; `requester` is the display name of the member who started it."""
    p = job.progress
    if p is None and job.loading_engine:
        text = (
            f"{progress_bar(0)}\nloading the optimizer: the first run since the bot started takes a few seconds more…"
        )
    elif p is None:
        text = f"{progress_bar(0)}\nstarting…"
    else:
        text = (
            f"{progress_bar(p.fraction)}\niteration {p.iteration:,}/{p.iterations:,} · "
            f"best measurement so far **{percent(p.best_winrate)}** (start {percent(p.start_winrate)}) · "
            f"{plural(p.accepted, 'swap')} kept"
        )
        if p.measuring:
            text += (
                f"\nmeasuring the start and final decks afresh over {fresh_games(job.settings.games):,} new games each…"
            )
    if job.resumed:
        where = (
            f"iteration {job.resume_from.iterations_done:,}" if job.resume_from is not None else "its first iteration"
        )
        text += f"\n🔁 resumed after a restart of the bot, from {where}"
    embed = discord.Embed(title=RUNNING_TITLE, description=text, color=COLOR_INFO)
    embed.add_field(name="Run", value=run_text(job), inline=False)
    embed.set_footer(
        text=seed_footer(
            job.settings.seed,
            f"Requested by {markdown_safe(requester)}; only they can cancel it. "
            "If the bot restarts, this run resumes where it was.",
        )
    )
    return fit_embed(embed)


def paused_embed(progress: discord.Embed) -> discord.Embed:
    """A job's message while the bot restarts: its last progress, and that it resumes."""
    embed = copy_embed(progress, "⏸️ Optimization paused: the bot is restarting")
    embed.description = f"{progress.description or ''}\n⏸️ It resumes where it stopped when the bot is back."
    return fit_embed(embed)


def ended_elsewhere_embed(progress: discord.Embed) -> discord.Embed:
    """A resumed job's progress message once its result is posted below it."""
    embed = copy_embed(progress, "🃏 Optimization finished after a restart: its result is posted below")
    return fit_embed(embed)


def abandoned_embed(job: Job) -> discord.Embed:
    """A job the bot found more than a day old when it came back: not resumed."""
    embed = discord.Embed(
        title="⌛ Optimization abandoned: the bot was away for more than a day",
        description="This run started more than a day ago and was not resumed; its results were not kept.",
        color=COLOR_DEFEAT,
    )
    embed.add_field(name="Run", value=run_text(job), inline=False)
    embed.set_footer(text=seed_footer(job.settings.seed, "Run /deck optimize again with the same seed to replay it."))
    return fit_embed(embed)


def copy_embed(embed: discord.Embed, title: str) -> discord.Embed:
    copied = discord.Embed.from_dict(embed.to_dict())
    copied.title = title
    return copied


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
    replay = "Run /deck optimize again with the same seed to replay it."
    seed = SEED_IN_FOOTER.match(progress.footer.text or "")
    embed.set_footer(text=seed_footer(int(seed[1]), replay) if seed else replay)
    return fit_embed(embed)


def failed_embed(job: Job) -> discord.Embed:
    embed = discord.Embed(title="⚠️ The optimization failed", description=run_text(job), color=COLOR_DEFEAT)
    embed.set_footer(text=seed_footer(job.settings.seed))
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


def result_title(result: OptimizeResult) -> str:
    """A finished run's title: the result deck's fresh winrate, never a worse deck called optimized."""
    start, final = percent(result.fresh.start.winrate), percent(result.fresh.final.winrate)
    verdict = result.verdict
    if verdict is Verdict.IMPROVED:
        return f"🃏 Deck optimized: {start} → {final}"
    if verdict is Verdict.TOO_NOISY:
        return f"🃏 No clear gain: {start} → {final}, too noisy to tell apart"
    return f"🃏 No better deck found: the start deck stays at {start}"


def result_embed(job: Job, done: JobResult) -> discord.Embed:
    result = done.result
    s = result.settings
    fresh = result.fresh
    gain = fresh.final.winrate - fresh.start.winrate
    if result.cancelled:
        iterations = f"{result.iterations_done:,}/{s.iterations:,} iterations"
        title = f"⏹️ Optimization cancelled after {iterations}"
        color = COLOR_DEFEAT
    else:
        title = result_title(result)
        color = COLOR_VICTORY if result.verdict is Verdict.IMPROVED else COLOR_INFO
    which = "the start deck" if result.kept_start else "the final deck (the best found)"
    embed = discord.Embed(
        title=title,
        description=f"**Result: {which}**\n{verdict_note(result)}\n{deck_block(result.deck)}",
        color=color,
    )
    embed.add_field(
        name="Winrate against the opponent",
        value=f"start {measured(fresh.start, bold=result.kept_start)} → "
        f"final {measured(fresh.final, bold=not result.kept_start)}\n"
        f"{'+' if gain >= 0 else ''}{100 * gain:.1f} points, {plural(len(result.accepted), 'swap')} kept · "
        f"measured afresh after the run over {fresh.games:,} new games each\n"
        f"best measurement during the run (the chart's curve, {plural(s.games, 'game')} each, biased high): "
        f"{percent(result.best_winrate)}",
        inline=False,
    )
    embed.add_field(name="Run", value=run_text(job), inline=False)
    embed.add_field(
        name="Work",
        value=f"{result.games_played:,} games ({2 * fresh.games:,} of them measuring afresh) in "
        f"{done.seconds:.1f} s · set list of {result.set_list_size} cards",
        inline=False,
    )
    embed.set_image(url=f"attachment://{chart_name(s.seed)}")
    embed.set_footer(
        text=seed_footer(
            s.seed,
            "Files: the result deck and the opponent as CSV; the chart of the best "
            "measurement so far per iteration and the fresh measurements as PNG.",
        )
    )
    return fit_embed(embed)


def chart_name(seed: int) -> str:
    return f"winrate-{seed}.png"


def result_files(done: JobResult) -> list[discord.File]:
    seed = done.result.settings.seed
    return [
        text_file(f"deck-{seed}.csv", done.result.deck.to_csv()),
        text_file(f"opponent-{seed}.csv", done.result.opponent.to_csv()),
        discord.File(io.BytesIO(done.chart_png), filename=chart_name(seed)),
    ]


def duel_embed(result: DuelResult, file_a: str, file_b: str) -> discord.Embed:
    s = result.score
    low, high = s.interval
    a, b = markdown_safe(file_a), markdown_safe(file_b)
    embed = discord.Embed(
        title=f"⚔️ {a} vs {b}: {100 * s.winrate:.2f}%",
        description=(
            f"Deck A won **{s.wins:,}** of {plural(s.games, 'game')}, lost {s.losses:,}, tied {s.ties:,} "
            f"(a tie counts as a loss).\n95% interval: **{100 * low:.2f}% – {100 * high:.2f}%**"
        ),
        color=COLOR_INFO,
    )
    embed.add_field(name=f"Deck A: {a}", value=f"mean cost {result.deck_a.mean_cost():.2f}", inline=True)
    embed.add_field(name=f"Deck B: {b}", value=f"mean cost {result.deck_b.mean_cost():.2f}", inline=True)
    embed.set_footer(text=seed_footer(result.seed, "each deck started half the games"))
    return fit_embed(embed)


def random_deck_embed(deck: Deck, seed: int) -> discord.Embed:
    embed = discord.Embed(title="🎲 Random deck", description=deck_table(deck), color=COLOR_INFO)
    embed.set_footer(
        text=seed_footer(
            seed, f"30 cards, mean cost {deck.mean_cost():.2f}. Use the CSV with /deck duel or as an opponent."
        )
    )
    return fit_embed(embed)


def random_deck_file(deck: Deck, seed: int) -> discord.File:
    return text_file(f"deck-{seed}.csv", deck.to_csv())
