"""/mfd: Marked for Death battles from GM-attached hero and villain CSVs, round by round, and their odds.

A channel has at most one battle. `/mfd battle` starts it (replacing the old one), `/mfd continue` and
the "Fight one more round" button go on from its stored state (an attached CSV replaces that side), and
every run replies with the outcome and the files: BattleLog.txt, Heroes-final.csv, Villains-final.csv.
The random stream is part of the stored state, so continuing is the same battle as running on.

Size: a roster file may be up to 3 MiB, three times the shared attachment limit, because a 20,000-fighter
roster with names of twenty-odd characters is about 1.3 MiB (the issue's largest battles are 20,000 a side).
The log and the two final CSVs share one message, so together they stay within Discord's file limit.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    ProgressMessage,
    UserError,
    defer_thinking,
    error_reply,
    fit_embed,
    gm_only,
    lines_within,
    markdown_safe,
    progress_bar,
    read_text_attachment,
    require_gm,
    run_engine,
    run_long_engine,
    text_file,
)
from rules.errors import InputProblem
from rules.mfd.battle import (
    HEROES_FINAL_FILE,
    LOG_FILE,
    VILLAINS_FINAL_FILE,
    BattleRun,
    continue_battle,
    start_battle,
)
from rules.mfd.chart import odds_chart_png
from rules.mfd.engine import SAFETY_ROUND_LIMIT, check_odds_work, simulate_odds
from rules.mfd.log import hp_text, mib
from rules.mfd.models import BattleState, Casualty, OddsResult, Outcome, Roster
from rules.mfd.odds import describe_odds, mean_rounds, outcome_rows, rate_text
from rules.mfd.roster import BASE_COLUMNS, BUFF_COLUMNS, MAX_FIGHTERS, final_csv, read_roster
from rules.seeds import MAX_SEED, new_seed
from storage.mfd import MfdRepository, StaleUpdate, StoredBattle, encode_state


EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "mfd"
ROSTER_LIMIT_MIB = 3  # see the module docstring
ROSTER_LIMIT_BYTES = ROSTER_LIMIT_MIB * 1024 * 1024
ROSTER_LIMIT_TEXT = f"{ROSTER_LIMIT_MIB} MiB (room for 20,000 fighters at up to 150 bytes a row)"
MAX_ODDS_BATTLES = 10_000
PROGRESS_INTERVAL = 2.0

FILES_FOOTER = (f"{LOG_FILE} has every attack. Edit {HEROES_FINAL_FILE} or {VILLAINS_FINAL_FILE} and attach it to "
                "/mfd continue to bring in reinforcements or heal.")


# --- work done in the engine executor -------------------------------------------------------------------


@dataclass(frozen=True)
class EncodedRun:
    """A run and its state, encoded for storage."""

    run: BattleRun
    state_zlib: bytes


def fight_new(heroes: Roster, villains: Roster, seed: int, max_rounds: int | None, files_limit: int) -> EncodedRun:
    run = start_battle(heroes, villains, seed=seed, max_rounds=max_rounds, files_limit=files_limit)
    return EncodedRun(run, encode_state(run.state))


def fight_on(stored: StoredBattle, rounds: int | None, heroes: Roster | None, villains: Roster | None,
             files_limit: int) -> EncodedRun:
    run = continue_battle(stored.state(), max_rounds=rounds, heroes=heroes, villains=villains,
                          files_limit=files_limit)
    return EncodedRun(run, encode_state(run.state))


def odds_with_chart(heroes: Roster, villains: Roster, battles: int, seed: int, max_rounds: int | None,
                    report: Callable[[int, int], None]) -> tuple[OddsResult, bytes]:
    odds = simulate_odds(heroes, villains, battles, seed=seed, max_rounds=max_rounds, progress=report)
    return odds, odds_chart_png(odds)


def state_and_files(stored: StoredBattle) -> tuple[BattleState, str, str]:
    state = stored.state()
    return state, final_csv(state.heroes), final_csv(state.villains)


# --- rendering ----------------------------------------------------------------------------------------------


def headline(outcome: Outcome, last_round: int) -> tuple[str, discord.Color]:
    if outcome is Outcome.HEROES_WIN:
        return f"🏆 Heroes win in round {last_round}", COLOR_VICTORY
    if outcome is Outcome.VILLAINS_WIN:
        return f"💀 Villains win in round {last_round}", COLOR_DEFEAT
    if outcome is Outcome.DRAW:
        return f"🤝 Draw: both sides fell in round {last_round}", COLOR_INFO
    return f"⏸️ After round {last_round} both sides still stand", COLOR_INFO


def standing_field(embed: discord.Embed, roster: Roster) -> None:
    lines = [f"{markdown_safe(f.name)}: {hp_text(f.hp)} HP" for f in roster.fighters]
    embed.add_field(name=f"{roster.side} standing ({len(lines)})",
                    value=lines_within(lines, EmbedLimits.FIELD_VALUE) if lines else "No one.", inline=True)


def fallen_lines(fallen: tuple[Casualty, ...], line_chars: int = 300) -> list[str]:
    """One line per round and side, `Round 2, Villains (3): Boss, Clone (with Boss), ...`, each cut to about
    `line_chars` characters with a count of the names left out."""
    groups: dict[tuple[int, str], list[str]] = {}
    for c in fallen:
        groups.setdefault((c.round, c.side), []).append(
            markdown_safe(c.name) + (f" (with {markdown_safe(c.linked_to)})" if c.linked_to else ""))
    lines = []
    for (number, side), names in groups.items():
        shown, size = [], 0
        for n in names:
            size += len(n) + 2
            if size > line_chars:
                break
            shown.append(n)
        more = f", … and {len(names) - len(shown)} more" if len(shown) < len(names) else ""
        lines.append(f"Round {number}, {side} ({len(names)}): {', '.join(shown)}{more}")
    return lines


def warning_field(embed: discord.Embed, warnings: tuple[InputProblem, ...]) -> None:
    """One line per kind of warning (see `rules.mfd.roster`)."""
    if warnings:
        embed.add_field(name=f"⚠️ Warnings ({len(warnings)}): ignored, the battle ran without them",
                        value=lines_within([markdown_safe(str(w)) for w in warnings], EmbedLimits.FIELD_VALUE),
                        inline=False)


def run_embed(run: BattleRun, *, continued: bool, note: str = "") -> discord.Embed:
    result = run.result
    title, colour = headline(result.outcome, result.last_round)
    rounds = (f"Round {result.first_round}" if result.rounds_fought == 1
              else f"Rounds {result.first_round}–{result.last_round}")
    description = f"{rounds} fought{' (continued)' if continued else ''} · seed {run.state.seed}"
    if result.safety_stop:
        description += f"\nThis run stopped at {result.safety_stop}."
    if not run.state.over:
        description += "\nFight on with the button below or `/mfd continue` (attach a CSV to replace a side)."
    if note:
        description += f"\n{note}"
    embed = discord.Embed(title=title, description=description, color=colour)
    standing_field(embed, result.heroes)
    standing_field(embed, result.villains)
    lines = fallen_lines(result.fallen)
    embed.add_field(name=f"Fallen this run ({len(result.fallen)})",
                    value=lines_within(lines, EmbedLimits.FIELD_VALUE) if lines else "No one.", inline=False)
    warning_field(embed, run.warnings)
    embed.set_footer(text=FILES_FOOTER)
    return fit_embed(embed)


def run_files(run: BattleRun) -> list[discord.File]:
    return [text_file(LOG_FILE, run.log), text_file(HEROES_FINAL_FILE, run.heroes_csv),
            text_file(VILLAINS_FINAL_FILE, run.villains_csv)]


def odds_progress_embed(done: int, total: int, seed: int) -> discord.Embed:
    return discord.Embed(title=f"🎲 Simulating {total:,} battles…",
                         description=f"{progress_bar(done / total)}\n{done:,}/{total:,} battles · seed {seed}",
                         color=COLOR_INFO)


def odds_embed(odds: OddsResult, warnings: tuple[InputProblem, ...], chart_name: str) -> discord.Embed:
    lines = [f"**{label}**: {rate_text(count, odds.battles)}" for label, count in outcome_rows(odds)]
    lengths = list(odds.rounds_histogram)
    lines.append(f"**Rounds**: mean {mean_rounds(odds):.2f}, from {lengths[0]} to {lengths[-1]}")
    best = max(odds.heroes_wins, odds.villains_wins)
    leader = "Heroes" if odds.heroes_wins >= odds.villains_wins else "Villains"
    embed = discord.Embed(title=f"🎲 {leader} {best / odds.battles:.1%} over {odds.battles:,} battles",
                          description="\n".join(lines), color=COLOR_INFO)
    for side, names, survivals in (("Heroes", odds.hero_names, odds.hero_survivals),
                                   ("Villains", odds.villain_names, odds.villain_survivals)):
        rows = [f"{markdown_safe(n)}: {count / odds.battles:.1%}" for n, count in zip(names, survivals)]
        embed.add_field(name=f"{side}: survival rate", value=lines_within(rows, EmbedLimits.FIELD_VALUE),
                        inline=True)
    warning_field(embed, warnings)
    embed.set_image(url=f"attachment://{chart_name}")
    embed.set_footer(text=f"seed {odds.seed} · 95% Wilson intervals · Odds.txt lists every fighter")
    return fit_embed(embed)


TEMPLATE_GUIDE = f"""\
One row per fighter. Columns, matched by name in any case: **{', '.join(BASE_COLUMNS[:-1])}**, an optional \
**HP** (current HP; without it HP is 2 + BonusHP), then any number of buff groups \
**{', '.join(BUFF_COLUMNS)}**. Only Name and XP are required; blank numbers are 0.
• Dice: ceil((XP + BonusXP) / 1000), more when ToHit or ToDefend passes 100%. ToHit = 30% + BonusToHit + \
buffs (5–99%), ToDefend = 30% + BonusToDefend + buffs (0–90%), lower by 10% every round (exhaustion).
• AOE: opponents attacked each round (blank = 1). BodyguardFor: takes the attacks on that fighter. \
LinkedTo: dies when that fighter dies (clones, summons).
• BuffWho: the names buffed, comma-separated inside double quotes: `"Alice,Bob"`. A buff lasts to the end \
of the round its provider falls in.
• At most {MAX_FIGHTERS:,} fighters and {ROSTER_LIMIT_TEXT} per file. The final CSVs of a run are in \
this format plus HP, with every column even when a side has no one left: edit them and attach them to \
`/mfd continue`."""


# --- the persistent button --------------------------------------------------------------------------------


class NextRoundButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"mfd:(?P<battle>[0-9]{1,19}):(?P<version>[0-9]{1,9}):next"):
    def __init__(self, battle_id: int, version: int):
        super().__init__(discord.ui.Button(label="Fight one more round", emoji="⚔️",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"mfd:{battle_id}:{version}:next"))
        self.battle_id, self.version = battle_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(int(match["battle"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with error_reply(interaction):
            await interaction.client.get_cog("MarkedForDeath").next_round(interaction, self.battle_id, self.version)


def next_round_view(stored: StoredBattle, over: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if not over:
        view.add_item(NextRoundButton(stored.id, stored.version))
    return view


# --- the cog ------------------------------------------------------------------------------------------------


@app_commands.guild_only()
class MarkedForDeath(commands.GroupCog, group_name="mfd",
                     group_description="Marked for Death: large battles from hero and villain CSVs."):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.repo = MfdRepository(bot.db)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(NextRoundButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(NextRoundButton)

    # --- helpers -----------------------------------------------------------------------------------------

    async def roster(self, attachment: discord.Attachment, side: str) -> Roster:
        if attachment.size > ROSTER_LIMIT_BYTES:
            raise UserError(f"{attachment.filename} is {mib(attachment.size)}; a roster file may "
                            f"be at most {ROSTER_LIMIT_TEXT}.")
        text = await read_text_attachment(attachment, limit=ROSTER_LIMIT_BYTES)
        return await run_engine(self.bot, read_roster, text, attachment.filename, side)

    async def rosters(self, heroes: discord.Attachment | None,
                      villains: discord.Attachment | None) -> tuple[Roster | None, Roster | None]:
        h = await self.roster(heroes, "Heroes") if heroes is not None else None
        v = await self.roster(villains, "Villains") if villains is not None else None
        return h, v

    @staticmethod
    def files_limit(interaction: discord.Interaction) -> int:
        """What the log and both final CSVs may take together in the reply (Discord's limit there)."""
        return min(EmbedLimits.FILE_BYTES, interaction.filesize_limit)

    async def channel_battle(self, interaction: discord.Interaction) -> StoredBattle:
        stored = await self.repo.battle(interaction.channel_id)
        if stored is None:
            raise UserError("There is no battle in this channel. A GM starts one with `/mfd battle`.")
        return stored

    async def save(self, stored: StoredBattle, fought: EncodedRun, user_id: int) -> StoredBattle:
        try:
            return await self.repo.save(stored, fought.run.state, fought.state_zlib, user_id)
        except StaleUpdate:
            raise UserError(
                "This battle changed while your run was being fought (another run was saved or a new battle "
                "started), so nothing was saved. Check the newest result and run it again.") from None

    # --- commands ----------------------------------------------------------------------------------------

    @app_commands.command(name="battle", description="GM: run a battle between a heroes CSV and a villains CSV here.")
    @app_commands.describe(
        heroes=f"Heroes CSV, at most {ROSTER_LIMIT_MIB} MiB (columns: see /mfd template)",
        villains=f"Villains CSV, same columns, at most {ROSTER_LIMIT_MIB} MiB",
        max_rounds=f"Stop after this many rounds even if both sides stand (default: to the end, at most "
                   f"{SAFETY_ROUND_LIMIT})",
        seed="Replay a battle with its seed (default: a new one)",
    )
    @gm_only()
    async def battle(self, interaction: discord.Interaction, heroes: discord.Attachment,
                     villains: discord.Attachment,
                     max_rounds: app_commands.Range[int, 1, SAFETY_ROUND_LIMIT] | None = None,
                     seed: app_commands.Range[int, 0, MAX_SEED] | None = None) -> None:
        await defer_thinking(interaction, ephemeral=False)
        h, v = await self.rosters(heroes, villains)
        seed = seed if seed is not None else new_seed()
        fought = await run_long_engine(self.bot, fight_new, h, v, seed, max_rounds, self.files_limit(interaction))
        previous = await self.repo.battle(interaction.channel_id)
        note = (f"This replaces the channel's previous battle (seed {previous.seed}, {previous.rounds_fought} "
                "rounds fought)." if previous else "")
        stored = await self.repo.start(interaction.guild_id, interaction.channel_id, fought.run.state,
                                       fought.state_zlib, interaction.user.id)
        await interaction.followup.send(embed=run_embed(fought.run, continued=False, note=note),
                                        files=run_files(fought.run),
                                        view=next_round_view(stored, fought.run.state.over))

    @app_commands.command(name="continue", description="GM: fight on with this channel's battle.")
    @app_commands.describe(
        rounds=f"Rounds to fight (default: to the end, at most {SAFETY_ROUND_LIMIT})",
        heroes=f"A heroes CSV (at most {ROSTER_LIMIT_MIB} MiB) replacing the heroes as they stand: reinforcements, "
               "healing",
        villains=f"A villains CSV (at most {ROSTER_LIMIT_MIB} MiB) replacing the villains as they stand",
    )
    @gm_only()
    async def continue_command(self, interaction: discord.Interaction,
                               rounds: app_commands.Range[int, 1, SAFETY_ROUND_LIMIT] | None = None,
                               heroes: discord.Attachment | None = None,
                               villains: discord.Attachment | None = None) -> None:
        stored = await self.channel_battle(interaction)
        await defer_thinking(interaction, ephemeral=False)
        # The run's warnings, not the files': names that fell in this battle are no warning (rules.mfd.battle).
        h, v = await self.rosters(heroes, villains)
        fought = await run_long_engine(self.bot, fight_on, stored, rounds, h, v, self.files_limit(interaction))
        saved = await self.save(stored, fought, interaction.user.id)
        await interaction.followup.send(embed=run_embed(fought.run, continued=True),
                                        files=run_files(fought.run),
                                        view=next_round_view(saved, fought.run.state.over))

    async def next_round(self, interaction: discord.Interaction, battle_id: int, version: int) -> None:
        """The button: one more round of the battle, if the button is the battle's newest."""
        require_gm(interaction)
        stored = await self.repo.battle(interaction.channel_id)
        if stored is None or stored.id != battle_id:
            raise UserError("This battle is no longer this channel's battle; `/mfd status` shows the current one.")
        if stored.version != version:
            raise UserError(f"This button is from an earlier run: the battle is at round {stored.rounds_fought} now. "
                            "Use the newest message's button or `/mfd continue`.")
        await interaction.response.defer()
        fought = await run_engine(self.bot, fight_on, stored, 1, None, None, self.files_limit(interaction))
        saved = await self.save(stored, fought, interaction.user.id)
        await interaction.edit_original_response(view=None)
        await interaction.followup.send(embed=run_embed(fought.run, continued=True), files=run_files(fought.run),
                                        view=next_round_view(saved, fought.run.state.over))

    @app_commands.command(name="status", description="This channel's battle: rounds fought, who stands, who fell.")
    async def status(self, interaction: discord.Interaction) -> None:
        stored = await self.channel_battle(interaction)
        state, heroes_csv, villains_csv = await run_engine(self.bot, state_and_files, stored)
        title, colour = headline(state.outcome, state.rounds_fought)
        embed = discord.Embed(
            title=title, color=colour,
            description=(f"{state.rounds_fought} round{'s' if state.rounds_fought != 1 else ''} fought · seed "
                         f"{state.seed}\nStarted by <@{stored.started_by}>; last run by <@{stored.updated_by}> "
                         f"({stored.updated_at[:16].replace('T', ' ')} UTC)."))
        standing_field(embed, state.heroes)
        standing_field(embed, state.villains)
        lines = fallen_lines(state.fallen)
        embed.add_field(name=f"Fallen ({len(state.fallen)})",
                        value=lines_within(lines, EmbedLimits.FIELD_VALUE) if lines else "No one.", inline=False)
        embed.set_footer(text="The files are both sides as they stand: edit one and attach it to /mfd continue.")
        await interaction.response.send_message(
            embed=fit_embed(embed), files=[text_file(HEROES_FINAL_FILE, heroes_csv),
                                           text_file(VILLAINS_FINAL_FILE, villains_csv)],
            view=next_round_view(stored, state.over))

    @app_commands.command(name="odds", description="Monte-Carlo odds of a battle: win rates, rounds, survival.")
    @app_commands.describe(
        heroes=f"Heroes CSV, at most {ROSTER_LIMIT_MIB} MiB (see /mfd template)",
        villains=f"Villains CSV, at most {ROSTER_LIMIT_MIB} MiB",
        battles=f"Battles to simulate (default 1000, at most {MAX_ODDS_BATTLES:,})",
        max_rounds=f"Count a battle as unfinished after this many rounds (default: to the end, at most "
                   f"{SAFETY_ROUND_LIMIT})",
        seed="Replay a simulation with its seed (default: a new one)",
    )
    async def odds(self, interaction: discord.Interaction, heroes: discord.Attachment, villains: discord.Attachment,
                   battles: app_commands.Range[int, 1, MAX_ODDS_BATTLES] = 1000,
                   max_rounds: app_commands.Range[int, 1, SAFETY_ROUND_LIMIT] | None = None,
                   seed: app_commands.Range[int, 0, MAX_SEED] | None = None) -> None:
        await defer_thinking(interaction, ephemeral=False)
        h, v = await self.rosters(heroes, villains)
        check_odds_work(h, v, battles)
        seed = seed if seed is not None else new_seed()
        await interaction.edit_original_response(embed=odds_progress_embed(0, battles, seed))

        async def show(done: int, total: int) -> None:
            await interaction.edit_original_response(embed=odds_progress_embed(done, total, seed))

        progress = ProgressMessage(show, what=f"/mfd odds {interaction.id}", min_interval=PROGRESS_INTERVAL)
        try:
            odds, chart = await run_long_engine(self.bot, odds_with_chart, h, v, battles, seed, max_rounds, progress.report)
        finally:
            await progress.close()  # on failure the error reply replaces the progress message
        chart_name = f"mfd-odds-{seed}.png"
        await interaction.edit_original_response(
            embed=odds_embed(odds, h.warnings + v.warnings, chart_name),
            attachments=[discord.File(io.BytesIO(chart), filename=chart_name),
                         text_file("Odds.txt", describe_odds(odds) + "\n")])

    @app_commands.command(name="template", description="Example hero and villain CSVs and a short guide to the format.")
    async def template(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Marked for Death rosters", description=TEMPLATE_GUIDE, color=COLOR_INFO)
        embed.set_footer(text="The examples: a squad with bodyguards, shadow clones and buffs against a summoner "
                              "and her summons. Try them with /mfd odds or /mfd battle.")
        files = [text_file(f"{side}.csv", (EXAMPLES / f"{side}.csv").read_text(encoding="utf-8"))
                 for side in ("Heroes", "Villains")]
        await interaction.response.send_message(embed=fit_embed(embed), files=files, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MarkedForDeath(bot))
