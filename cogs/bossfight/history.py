"""/bossfight history: a channel's finished raids, a mixin of the Bossfight cog (discord.py gathers a cog's
commands from its bases too), apart so each module stays readable."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.bossfight.render import HISTORY_LISTED, history_embed, raid_choice_label
from cogs.common import PlainLimits, UserError, markdown_safe, plain_text
from cogs.common.bot import channel_id
from cogs.common.components import stored_id
from cogs.common.uploads import MAX_CHOICES
from rules.roster import name_key
from storage.bossfight import BossfightRepository, Raid

HISTORY_SEARCHED = 500  # a channel's latest finished raids that autocomplete and a boss name search


class RaidHistory(commands.Cog):
    """Never loaded alone: its commands join the Bossfight cog's group."""

    repo: BossfightRepository

    async def finished_raid_named(self, channel: int, text: str) -> Raid:
        """The channel's finished raid `#12` / `12` names, or its latest against a boss whose name contains
        `text`; else a refusal."""
        number = text.strip().removeprefix("#")
        if (raid_id := stored_id(number)) is not None:
            finished = await self.repo.finished_raid(channel, raid_id)
            if finished is None:
                raise UserError(
                    f"This channel has no finished raid #{number}. Pick one from the list `/bossfight history` offers."
                )
            return finished.raid
        wanted = name_key(text)
        found = [
            r for r in await self.repo.finished_raids(channel, HISTORY_SEARCHED) if wanted in name_key(r.boss.name)
        ]
        if not found:
            raise UserError(
                f"This channel has no finished raid against a boss called '{markdown_safe(text, 100)}'. "
                "Pick one from the list `/bossfight history` offers."
            )
        return found[0]

    async def finished_raid_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = name_key(current.removeprefix("#"))
        raids = await self.repo.finished_raids(channel_id(interaction), HISTORY_SEARCHED)
        found = [r for r in raids if wanted in name_key(f"{r.id} {r.boss.name}")][:MAX_CHOICES]
        return [
            app_commands.Choice(name=plain_text(raid_choice_label(r), PlainLimits.CHOICE_NAME), value=str(r.id))
            for r in found
        ]

    @app_commands.command(name="history", description="This channel's finished raids: one's damage leaderboard.")
    @app_commands.describe(raid="A finished raid of this channel, by #number or boss (default: the latest)")
    @app_commands.autocomplete(raid=finished_raid_autocomplete)
    async def history(self, interaction: discord.Interaction, raid: str | None = None) -> None:
        here = channel_id(interaction)
        latest = await self.repo.finished_raids(here, HISTORY_LISTED + 1)
        if not latest:
            raise UserError("This channel has no finished raid yet: a raid is kept here once its boss falls.")
        chosen = latest[0] if raid is None else await self.finished_raid_named(here, raid)
        finished = await self.repo.finished_raid(here, chosen.id)
        if finished is None:  # cannot happen: finished raids are never deleted
            raise UserError(f"Raid #{chosen.id} is no longer in this channel's history.")
        others = [r for r in latest if r.id != chosen.id][:HISTORY_LISTED]
        total = await self.repo.finished_raid_count(here)
        await interaction.response.send_message(embed=history_embed(finished, others, total), ephemeral=True)
