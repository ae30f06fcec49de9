"""What /mfd shows: a run's outcome with who stands and who fell, a channel's battle, odds and their progress,
the format guide. Pure functions from the engine's results and the stored battle to embeds, views and files.
Fighter names and file names come from the GM's files: they are escaped wherever they are shown."""

from __future__ import annotations

import io

import discord

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    fit_embed,
    lines_within,
    markdown_safe,
    mention,
    progress_bar,
    seed_footer,
    text_file,
)
from cogs.mfd.items import next_round_button
from rules.errors import InputProblem
from rules.mfd.battle import HEROES_FINAL_FILE, LOG_FILE, VILLAINS_FINAL_FILE, BattleRun
from rules.mfd.log import hp_text
from rules.mfd.models import BattleState, Casualty, Ending, OddsResult, Roster
from rules.mfd.odds import mean_rounds, outcome_rows, rate_text
from rules.mfd.roster import BASE_COLUMNS, BUFF_COLUMNS, EXHAUSTION_NOTE, MAX_FIGHTERS
from rules.text import plural
from storage.mfd import StoredBattle

FALLEN_NAMES_CHARS = 300  # of one round's and side's names in the Fallen field, before "… and N more"
FILES_FOOTER = (
    f"{LOG_FILE} has every attack. Edit {HEROES_FINAL_FILE} or {VILLAINS_FINAL_FILE} and attach it to "
    f"/mfd continue to bring in reinforcements or heal. {EXHAUSTION_NOTE}"
)


def headline(ending: Ending, last_round: int) -> tuple[str, discord.Color]:
    if ending is Ending.HEROES_WIN:
        return f"🏆 Heroes win in round {last_round}", COLOR_VICTORY
    if ending is Ending.VILLAINS_WIN:
        return f"💀 Villains win in round {last_round}", COLOR_DEFEAT
    if ending is Ending.DRAW:
        return f"🤝 Draw: both sides fell in round {last_round}", COLOR_INFO
    return f"⏸️ After round {last_round} both sides still stand", COLOR_INFO


def standing_field(embed: discord.Embed, roster: Roster) -> None:
    lines = [f"{markdown_safe(f.name)}: {hp_text(f.hp)} HP" for f in roster.fighters]
    embed.add_field(
        name=f"{roster.side} standing ({len(lines)})",
        value=lines_within(lines, EmbedLimits.FIELD_VALUE) if lines else "No one.",
        inline=True,
    )


def fallen_lines(fallen: tuple[Casualty, ...]) -> list[str]:
    """One line per round and side, `Round 2, Villains (3): Boss, Clone (with Boss), ...`, the names cut to
    FALLEN_NAMES_CHARS characters with a count of those left out."""
    groups: dict[tuple[int, str], list[str]] = {}
    for c in fallen:
        groups.setdefault((c.round, c.side), []).append(
            markdown_safe(c.name) + (f" (with {markdown_safe(c.linked_to)})" if c.linked_to else "")
        )
    return [
        f"Round {number}, {side} ({len(names)}): {lines_within(names, FALLEN_NAMES_CHARS, sep=', ')}"
        for (number, side), names in groups.items()
    ]


def fallen_field(embed: discord.Embed, name: str, fallen: tuple[Casualty, ...]) -> None:
    lines = fallen_lines(fallen)
    embed.add_field(
        name=f"{name} ({len(fallen)})",
        value=lines_within(lines, EmbedLimits.FIELD_VALUE) if lines else "No one.",
        inline=False,
    )


def warning_field(embed: discord.Embed, warnings: tuple[InputProblem, ...]) -> None:
    """One line per kind of warning (see `rules.mfd.roster`)."""
    if warnings:
        embed.add_field(
            name=f"⚠️ Warnings ({len(warnings)}): ignored, the battle ran without them",
            value=lines_within([markdown_safe(str(w)) for w in warnings], EmbedLimits.FIELD_VALUE),
            inline=False,
        )


def run_embed(run: BattleRun, *, continued: bool, note: str = "") -> discord.Embed:
    result = run.result
    title, colour = headline(result.ending, result.last_round)
    rounds = (
        f"Round {result.first_round}"
        if result.rounds_fought == 1
        else f"Rounds {result.first_round}–{result.last_round}"
    )
    description = f"{rounds} fought{' (continued)' if continued else ''}"
    if result.safety_stop:
        description += f"\nThis run stopped at {result.safety_stop}."
    if not run.state.over:
        description += "\nFight on with the button below or `/mfd continue` (attach a CSV to replace a side)."
    if note:
        description += f"\n{note}"
    embed = discord.Embed(title=title, description=description, color=colour)
    standing_field(embed, result.heroes)
    standing_field(embed, result.villains)
    fallen_field(embed, "Fallen this run", result.fallen)
    warning_field(embed, run.warnings)
    embed.set_image(url=f"attachment://{CHART_FILE}")
    embed.set_footer(text=seed_footer(run.state.seed, FILES_FOOTER))
    return fit_embed(embed)


CHART_FILE = "battle-chart.png"  # beside the log: each side's fighters standing and HP per round


def run_files(run: BattleRun, chart_png: bytes) -> list[discord.File]:
    return [
        text_file(LOG_FILE, run.log),
        text_file(HEROES_FINAL_FILE, run.heroes_csv),
        text_file(VILLAINS_FINAL_FILE, run.villains_csv),
        discord.File(io.BytesIO(chart_png), filename=CHART_FILE),
    ]


def next_round_view(stored: StoredBattle, over: bool) -> discord.ui.View:
    """The button of the battle as stored, while both sides stand."""
    view = discord.ui.View(timeout=None)
    if not over:
        view.add_item(next_round_button(stored.id, stored.version))
    return view


def status_embed(stored: StoredBattle, state: BattleState) -> discord.Embed:
    title, colour = headline(state.ending, state.rounds_fought)
    embed = discord.Embed(
        title=title,
        color=colour,
        description=(
            f"{plural(state.rounds_fought, 'round')} fought\nStarted by {mention(stored.started_by)}; "
            f"last run by {mention(stored.updated_by)} ({stored.updated_at[:16].replace('T', ' ')} UTC)."
        ),
    )
    standing_field(embed, state.heroes)
    standing_field(embed, state.villains)
    fallen_field(embed, "Fallen", state.fallen)
    embed.set_footer(
        text=seed_footer(
            state.seed,
            f"The files are both sides as they stand: edit one and attach it to /mfd continue. {EXHAUSTION_NOTE}",
        )
    )
    return fit_embed(embed)


def status_files(heroes_csv: str, villains_csv: str) -> list[discord.File]:
    return [text_file(HEROES_FINAL_FILE, heroes_csv), text_file(VILLAINS_FINAL_FILE, villains_csv)]


def odds_progress_embed(done: int, total: int, seed: int) -> discord.Embed:
    embed = discord.Embed(
        title=f"🎲 Simulating {plural(total, 'battle')}…",
        description=f"{progress_bar(done / total)}\n{done:,}/{plural(total, 'battle')}",
        color=COLOR_INFO,
    )
    embed.set_footer(text=seed_footer(seed))
    return embed


def odds_embed(odds: OddsResult, warnings: tuple[InputProblem, ...], chart_name: str) -> discord.Embed:
    lines = [f"**{label}**: {rate_text(count, odds.battles)}" for label, count in outcome_rows(odds)]
    lengths = list(odds.rounds_histogram)
    lines.append(f"**Rounds**: mean {mean_rounds(odds):.2f}, from {lengths[0]} to {lengths[-1]}")
    best = max(odds.heroes_wins, odds.villains_wins)
    leader = "Heroes" if odds.heroes_wins >= odds.villains_wins else "Villains"
    embed = discord.Embed(
        title=f"🎲 {leader} {best / odds.battles:.1%} over {plural(odds.battles, 'battle')}",
        description="\n".join(lines),
        color=COLOR_INFO,
    )
    for side, names, survivals in (
        ("Heroes", odds.hero_names, odds.hero_survivals),
        ("Villains", odds.villain_names, odds.villain_survivals),
    ):
        rows = [f"{markdown_safe(n)}: {count / odds.battles:.1%}" for n, count in zip(names, survivals, strict=True)]
        embed.add_field(name=f"{side}: survival rate", value=lines_within(rows, EmbedLimits.FIELD_VALUE), inline=True)
    warning_field(embed, warnings)
    embed.set_image(url=f"attachment://{chart_name}")
    embed.set_footer(text=seed_footer(odds.seed, "95% Wilson intervals", "Odds.txt lists every fighter"))
    return fit_embed(embed)


def template_embed(roster_limit: str) -> discord.Embed:
    """The format guide; `roster_limit` is what one file may hold."""
    guide = f"""\
One row per fighter. Columns, matched by name in any case: **{", ".join(BASE_COLUMNS[:-1])}**, an optional \
**HP** (current HP; without it HP is 2 + BonusHP), then any number of buff groups \
**{", ".join(BUFF_COLUMNS)}**. Only Name and XP are required; blank numbers are 0.
• Dice: ceil((XP + BonusXP) / 1000), more when ToHit or ToDefend passes 100%. ToHit = 30% + BonusToHit + \
buffs (5–99%), ToDefend = 30% + BonusToDefend + buffs (0–90%), lower by 10% every round (exhaustion).
• AOE: opponents attacked each round (blank = 1). BodyguardFor: takes the attacks on that fighter. \
LinkedTo: dies when that fighter dies (clones, summons).
• BuffWho: the names buffed, comma-separated inside double quotes: `"Alice,Bob"`. A buff lasts to the end \
of the round its provider falls in.
• At most {MAX_FIGHTERS:,} fighters and {roster_limit} per file. The final CSVs of a run are in \
this format plus HP, with every column even when a side has no one left: edit them and attach them to \
`/mfd continue`. {EXHAUSTION_NOTE}"""
    embed = discord.Embed(title="Marked for Death rosters", description=guide, color=COLOR_INFO)
    embed.set_footer(
        text="The examples: a squad with bodyguards, shadow clones and buffs against a summoner "
        "and her summons. Try them with /mfd odds or /mfd battle."
    )
    return fit_embed(embed)
