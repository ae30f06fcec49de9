"""/mfd: Marked for Death battles from GM-attached hero and villain CSVs, round by round, and their odds.

A channel has at most one battle. `/mfd battle` starts it (replacing the old one), `/mfd continue` and
the "Fight one more round" button go on from its stored state (an attached CSV replaces that side), and
every run replies with the outcome and the files: BattleLog.txt, Heroes-final.csv, Villains-final.csv.
The random stream is part of the stored state, so continuing is the same battle as running on.

Size: a roster file may be up to 3 MiB (`cogs.mfd.rosters`). The log and the two final CSVs share one message, so
together they stay within Discord's file limit.

Names: a roster's problems quote the GM's fighter names, cells and file name, so they are shown escaped, as
written (the log and the final CSVs are files: they keep the names as they are).
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.common import (
    EmbedLimits,
    ProgressMessage,
    UserError,
    answer_shown,
    defer_thinking,
    gm_only,
    require_gm,
    run_long_engine,
    show_result,
    text_file,
    told_if_stopped,
)
from cogs.common.bot import channel_id, guild_id
from cogs.common.cog import GameCog
from cogs.common.components import require_here, stale
from cogs.common.permissions import PermissionNotices, in_thread, missing_to_post
from cogs.mfd.items import COG_NAME, MfdButton
from cogs.mfd.render import (
    next_round_view,
    odds_embed,
    odds_progress_embed,
    run_embed,
    run_files,
    status_embed,
    status_files,
    template_embed,
)
from cogs.mfd.rosters import ROSTER_LIMIT_MIB, ROSTER_LIMIT_TEXT, optional_roster, roster
from cogs.mfd.runs import EncodedRun, fight_new, fight_on, log_run, odds_with_chart, state_and_files
from rules.mfd.engine import SAFETY_ROUND_LIMIT, check_odds_work
from rules.mfd.odds import describe_odds
from rules.seeds import MAX_SEED
from rules.text import plural
from storage.mfd import MfdRepository, StaleUpdate, StoredBattle

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.mfd")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mfd"
MAX_ODDS_BATTLES = 10_000
PROGRESS_INTERVAL = 2.0


# --- the cog ------------------------------------------------------------------------------------------------


@app_commands.guild_only()
class MarkedForDeath(
    GameCog[MfdButton],
    name=COG_NAME,
    group_name="mfd",
    group_description="Marked for Death: large battles from hero and villain CSVs.",
):
    components = (MfdButton,)

    def __init__(self, bot: ArenaBot):
        super().__init__(bot)
        self.repo = MfdRepository(bot.db)
        self.permission_notices = PermissionNotices()  # who was told what the bot may not edit, and where

    async def on_component(self, interaction: discord.Interaction, component: MfdButton) -> None:
        await self.next_round(interaction, component.numeric_id, component.version)  # "next" is the only action

    # --- helpers -----------------------------------------------------------------------------------------

    @staticmethod
    def files_limit(interaction: discord.Interaction) -> int:
        """What the log and both final CSVs may take together in the reply (Discord's limit there)."""
        return min(EmbedLimits.FILE_BYTES, interaction.filesize_limit)

    async def channel_battle(self, interaction: discord.Interaction) -> StoredBattle:
        stored = await self.repo.battle(channel_id(interaction))
        if stored is None:
            raise UserError("There is no battle in this channel. A GM starts one with `/mfd battle`.")
        return stored

    async def save(self, stored: StoredBattle, fought: EncodedRun, user_id: int) -> StoredBattle:
        try:
            saved = await self.repo.save(stored, fought.run.state, fought.state_zlib, user_id)
        except StaleUpdate:
            raise UserError(
                "This battle changed while your run was being fought (another run was saved or a new battle "
                "started), so nothing was saved. Check the newest result and run it again."
            ) from None
        log_run(saved, fought.run)
        return saved

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
    async def battle(
        self,
        interaction: discord.Interaction,
        heroes: discord.Attachment,
        villains: discord.Attachment,
        max_rounds: app_commands.Range[int, 1, SAFETY_ROUND_LIMIT] | None = None,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
        await defer_thinking(interaction, ephemeral=False)
        async with told_if_stopped(interaction, "this battle"):
            h, v = await roster(self.bot, heroes, "Heroes"), await roster(self.bot, villains, "Villains")
            fought = await run_long_engine(
                self.bot, fight_new, h, v, self.seed_or_new(seed), max_rounds, self.files_limit(interaction)
            )
        previous = await self.repo.battle(channel_id(interaction))
        note = (
            f"This replaces the channel's previous battle (seed {previous.seed}, "
            f"{plural(previous.rounds_fought, 'round')} fought)."
            if previous
            else ""
        )
        stored = await self.repo.start(
            guild_id(interaction), channel_id(interaction), fought.run.state, fought.state_zlib, interaction.user.id
        )
        log_run(stored, fought.run)
        await interaction.followup.send(
            embed=run_embed(fought.run, continued=False, note=note),
            files=run_files(fought.run, fought.chart_png),
            view=next_round_view(stored, fought.run.state.over),
        )

    @app_commands.command(name="continue", description="GM: fight on with this channel's battle.")
    @app_commands.describe(
        rounds=f"Rounds to fight (default: to the end, at most {SAFETY_ROUND_LIMIT})",
        heroes=f"A heroes CSV (at most {ROSTER_LIMIT_MIB} MiB) replacing the heroes as they stand: reinforcements, "
        "healing",
        villains=f"A villains CSV (at most {ROSTER_LIMIT_MIB} MiB) replacing the villains as they stand",
    )
    @gm_only()
    async def continue_command(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, SAFETY_ROUND_LIMIT] | None = None,
        heroes: discord.Attachment | None = None,
        villains: discord.Attachment | None = None,
    ) -> None:
        stored = await self.channel_battle(interaction)
        await defer_thinking(interaction, ephemeral=False)
        # The run's warnings, not the files': names that fell in this battle are no warning (rules.mfd.battle).
        async with told_if_stopped(interaction, "this run"):
            h, v = (
                await optional_roster(self.bot, heroes, "Heroes"),
                await optional_roster(self.bot, villains, "Villains"),
            )
            fought = await run_long_engine(self.bot, fight_on, stored, rounds, h, v, self.files_limit(interaction))
        saved = await self.save(stored, fought, interaction.user.id)
        await interaction.followup.send(
            embed=run_embed(fought.run, continued=True),
            files=run_files(fought.run, fought.chart_png),
            view=next_round_view(saved, fought.run.state.over),
        )

    async def next_round(self, interaction: discord.Interaction, battle_id: int, version: int) -> None:
        """The button: one more round of the battle, if the button is the battle's newest."""
        await require_gm(interaction)
        stored = await self.repo.battle_by_id(battle_id)
        if stored is None:  # replaced by a newer battle of its channel
            raise UserError("This battle is no longer this channel's battle; `/mfd status` shows the current one.")
        require_here(interaction, "battle", stored, channel=True)
        if stored.version != version:
            raise stale("battle")
        await defer_thinking(interaction, ephemeral=False)
        # one round can be a million attacks: long work, like a whole battle
        async with told_if_stopped(interaction, "this round"):
            fought = await run_long_engine(self.bot, fight_on, stored, 1, None, None, self.files_limit(interaction))
        saved = await self.save(stored, fought, interaction.user.id)
        await interaction.edit_original_response(
            embed=run_embed(fought.run, continued=True),
            attachments=run_files(fought.run, fought.chart_png),
            view=next_round_view(saved, fought.run.state.over),
        )
        answer_shown(interaction)
        missing = missing_to_post(interaction.app_permissions, in_thread=in_thread(interaction), posting=False)
        if missing:  # the round stands; the button is refused as stale anyway
            channel_id = interaction.channel_id or 0
            await self.permission_notices.tell(interaction, channel_id, "take the pressed button off", missing)
        elif interaction.message is not None:
            try:
                await interaction.message.edit(view=None)  # the pressed button is stale now
            except discord.HTTPException as refused:  # the round stands; the button is refused as stale anyway
                log.warning(
                    "could not take the button off battle %s's message %s in channel %s: %s",
                    saved.id,
                    interaction.message.id,
                    interaction.message.channel.id,
                    refused.text or refused.status,
                )

    @app_commands.command(name="status", description="This channel's battle: rounds fought, who stands, who fell.")
    async def status(self, interaction: discord.Interaction) -> None:
        stored = await self.channel_battle(interaction)
        await defer_thinking(interaction, ephemeral=False)  # a stored battle of thousands takes a while to decode
        state, heroes_csv, villains_csv = await run_long_engine(self.bot, state_and_files, stored)
        await interaction.edit_original_response(
            embed=status_embed(stored, state),
            attachments=status_files(heroes_csv, villains_csv),
            view=next_round_view(stored, state.over),
        )

    @app_commands.command(name="odds", description="Monte-Carlo odds of a battle: win rates, rounds, survival.")
    @app_commands.describe(
        heroes=f"Heroes CSV, at most {ROSTER_LIMIT_MIB} MiB (see /mfd template)",
        villains=f"Villains CSV, at most {ROSTER_LIMIT_MIB} MiB",
        battles=f"Battles to simulate (default 1000, at most {MAX_ODDS_BATTLES:,})",
        max_rounds=f"Count a battle as unfinished after this many rounds (default: to the end, at most "
        f"{SAFETY_ROUND_LIMIT})",
        seed="Replay a simulation with its seed (default: a new one)",
    )
    async def odds(
        self,
        interaction: discord.Interaction,
        heroes: discord.Attachment,
        villains: discord.Attachment,
        battles: app_commands.Range[int, 1, MAX_ODDS_BATTLES] = 1000,
        max_rounds: app_commands.Range[int, 1, SAFETY_ROUND_LIMIT] | None = None,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
        await defer_thinking(interaction, ephemeral=False)
        async with told_if_stopped(interaction, "this simulation"):
            h, v = await roster(self.bot, heroes, "Heroes"), await roster(self.bot, villains, "Villains")
            await run_long_engine(self.bot, check_odds_work, h, v, battles)  # walks every buff link: not on the loop
        seed = self.seed_or_new(seed)
        await interaction.edit_original_response(embed=odds_progress_embed(0, battles, seed))

        async def show(done: int, total: int) -> None:
            await interaction.edit_original_response(embed=odds_progress_embed(done, total, seed))

        progress = ProgressMessage(show, what=f"/mfd odds {interaction.id}", min_interval=PROGRESS_INTERVAL)
        async with told_if_stopped(interaction, "this simulation"):
            try:
                odds, chart = await run_long_engine(
                    self.bot, odds_with_chart, h, v, battles, seed, max_rounds, progress.report
                )
            finally:
                await progress.close()  # on failure the error reply replaces the progress message
        chart_name = f"mfd-odds-{seed}.png"
        await show_result(
            interaction,
            embed=odds_embed(odds, h.warnings + v.warnings, chart_name),
            files=lambda: [
                discord.File(io.BytesIO(chart), filename=chart_name),
                text_file("Odds.txt", describe_odds(odds) + "\n"),
            ],
            what="/mfd odds",
        )

    @app_commands.command(name="template", description="Example hero and villain CSVs and a short guide to the format.")
    async def template(self, interaction: discord.Interaction) -> None:
        files = [
            text_file(f"{side}.csv", (EXAMPLES / f"{side}.csv").read_text(encoding="utf-8"))
            for side in ("Heroes", "Villains")
        ]
        await interaction.response.send_message(embed=template_embed(ROSTER_LIMIT_TEXT), files=files, ephemeral=True)
