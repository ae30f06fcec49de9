"""A fight alone: its moves (`FightMove`, through the shared turn driver) and its one message brought up again."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from cogs.andor.render import already_in_a_fight, fight_embed, fight_link, fight_view
from cogs.common import UserError, mention
from cogs.common.bot import channel_id
from cogs.common.components import redrawn, require_here
from cogs.common.reposts import is_older_copy, posted_again, show_retired_copy
from cogs.common.turns import TurnMove
from rules.andor.engine import aimed, applied, legal_actions, replay_rng, settle, summary
from rules.andor.models import CALL_DRAW, END_TURN, FLEE, POTION, Action, Character, FightState
from storage.andor import Fight, FightStatus

if TYPE_CHECKING:
    from cogs.andor.desk import AndorDesk


async def show_live_fight(cog: AndorDesk, interaction: discord.Interaction, fight: Fight) -> None:
    """`/andor fight` during a fight: its one message is brought up to date and pointed to. Only when that
    message is gone (or unknown, for a fight started before messages were kept) is it posted again, and the
    new copy becomes the fight's: a click on any other copy retires that copy (`FightMove`)."""
    embed, view = fight_embed(fight, interaction.user.display_name), fight_view(fight)
    again = "You are already in a fight: here it is again. Finish it (or flee) before starting another."
    if fight.message_id is None:
        await interaction.response.send_message(again, embed=embed, view=view)
        await cog.repo.set_message(fight.id, channel_id(interaction), (await interaction.original_response()).id)
        return
    # Answered first: the edit of the fight's message may wait on Discord's rate limits past the 3 s.
    await interaction.response.send_message(already_in_a_fight(fight), ephemeral=True)
    channel = cog.bot.get_partial_messageable(fight.channel_id, guild_id=fight.guild_id)
    try:
        await channel.get_partial_message(fight.message_id).edit(embed=embed, view=view)
        return
    except discord.HTTPException:
        pass  # gone, or no longer ours to edit: posted again here
    sent = await posted_again(
        interaction,
        lambda message_id: cog.repo.set_message(fight.id, channel_id(interaction), message_id),
        content=again,
        embed=embed,
        view=view,
    )
    moved = replace(fight, channel_id=channel_id(interaction), message_id=sent.id)
    await interaction.edit_original_response(content=already_in_a_fight(moved))


class FightMove(TurnMove[Fight, FightState]):
    """A click on a fight's buttons or its target select, by the fight's member."""

    what = "fight"

    def __init__(
        self,
        cog: AndorDesk,
        interaction: discord.Interaction,
        fight_id: int,
        version: int,
        action: str,
        value: str | None,
    ):
        super().__init__(fight_id, version)
        self.cog, self.action, self.value = cog, action, value
        self.name = interaction.user.display_name

    async def load(self) -> Fight | None:
        return await self.cog.repo.fight(self.game_id)

    def check_place(self, interaction: discord.Interaction, fight: Fight) -> None:
        # a fight is its member's, wherever they show it (`/andor fight` posts a live one again): the server only
        require_here(interaction, "fight", fight)
        if interaction.user.id != fight.user_id:
            raise UserError(f"This is {mention(fight.user_id)}'s fight; start your own with `/andor fight`.")

    def is_retired(self, interaction: discord.Interaction, fight: Fight) -> bool:
        return fight.status == FightStatus.LIVE and is_older_copy(interaction, fight.message_id)

    async def show_retired(self, interaction: discord.Interaction, fight: Fight) -> None:
        # never two live boards: this copy shows the fight without buttons and points to the one that has them
        told = (
            f"⌛ This copy of the fight is retired, so nothing was changed: the fight goes on at {fight_link(fight)}."
        )
        await show_retired_copy(interaction, told, embed=fight_embed(fight, self.name))

    def is_stale(self, fight: Fight) -> bool:
        return super().is_stale(fight) or fight.status != FightStatus.LIVE

    async def show_stale(self, interaction: discord.Interaction, fight: Fight) -> None:
        # The message is behind the stored fight (a double click, or a move saved before the message could show
        # it): bring it up to date, then say what happened.
        await interaction.response.edit_message(embed=fight_embed(fight, self.name), view=fight_view(fight))
        await interaction.followup.send(redrawn("fight"), ephemeral=True)

    def chosen(self, state: FightState) -> Action:
        actions = {"attack": Action.attack(state.target), "potion": POTION, "flee": FLEE, "draw": CALL_DRAW}
        return actions[self.action] if self.action != "end" else END_TURN

    def check(self, fight: Fight) -> None:
        state = fight.state
        if self.action != "target" and self.chosen(state) not in legal_actions(state):
            raise UserError(f"You cannot do that now ({state.ap_left} AP left).")

    def play(self, fight: Fight) -> FightState:
        state = fight.state
        if self.action == "target":
            return aimed(state, int(self.value) if self.value is not None and self.value.isdecimal() else -1)
        return applied(state, self.chosen(state), replay_rng(state))[0]

    async def save(self, fight: Fight, played: FightState) -> Fight:
        ended = summary(played)
        return await self.cog.repo.update_fight(
            fight, played, settle=(lambda stored: settle(stored or Character(), ended)) if ended else None
        )

    async def show_played(
        self, interaction: discord.Interaction, before: Fight, saved: Fight, played: FightState
    ) -> None:
        await interaction.response.edit_message(embed=fight_embed(saved, self.name), view=fight_view(saved))
