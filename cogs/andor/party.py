"""/andor party: members of a channel fight one group of monsters together (RULINGS 9). The commands are a mixin
of the Andor cog; the sign-up's Join, Leave and Start are here, the fight's turns in `party_turns`."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.andor.desk import FIGHT_OPTION_HELP
from cogs.andor.party_render import elsewhere_text, monster_title, party_embed, party_odds_embed, party_view
from cogs.andor.party_turns import SIGNUP_SECONDS, after_change, arm, saved_action, turn_seconds
from cogs.common import UserError, defer_thinking, gm_only, mention, run_long_engine
from cogs.common.bot import channel_id, guild_id
from cogs.common.components import require_here
from cogs.common.executor import run_engine
from rules.andor.engine import MAX_MONSTERS
from rules.andor.models import Character
from rules.andor.party import MAX_MEMBERS, MIN_MEMBERS, remove, start_party
from rules.andor.party_simulate import simulate_party
from rules.seeds import MAX_SEED
from storage.andor import InAnotherFight
from storage.andor_party import Party, PartyStatus, SignupClosed, characters_of
from storage.versioned import StaleUpdate

if TYPE_CHECKING:
    from cogs.andor.desk import AndorDesk


def refused_elsewhere(interaction: discord.Interaction, error: InAnotherFight) -> UserError:
    where = error.where
    return UserError(elsewhere_text(where.channel_id, where.message_id, guild_id(interaction), party=where.party))


async def open_party(
    cog: AndorDesk, interaction: discord.Interaction, monster: str, count: int, seed: int | None, monsters_first: bool
) -> None:
    chosen = await cog.monsters_roster.find(guild_id(interaction), monster)
    user = (interaction.user.id, interaction.user.display_name)
    try:
        party = await cog.parties.open(
            guild_id(interaction),
            channel_id(interaction),
            user,
            chosen,
            count,
            cog.seed_or_new(seed),
            monsters_first,
            cog.clock() + SIGNUP_SECONDS,
        )
    except InAnotherFight as elsewhere:
        raise refused_elsewhere(interaction, elsewhere) from None
    await interaction.response.send_message(embed=party_embed(party), view=party_view(party))
    message_id = (await interaction.original_response()).id
    await cog.parties.set_message(party.id, message_id)
    arm(cog, replace(party, message_id=message_id))


async def on_signup(cog: AndorDesk, interaction: discord.Interaction, party_id: int, action: str) -> None:
    """Join, Leave or Start on the sign-up (the button's version is not needed: each acts on the sign-up as it
    is, and Start starts with the members shown once it is redrawn)."""
    party = await cog.parties.party(party_id)
    if party is None:
        raise UserError("This party fight no longer exists.")
    require_here(interaction, "party fight", party, channel=True)
    user = interaction.user
    try:
        if action == "join":
            saved = await cog.parties.join(party_id, (user.id, user.display_name))
        elif action == "leave":
            if party.member(user.id) is None:
                raise UserError("You are not in this party.")
            saved = await cog.parties.leave(party_id, user.id)
        else:
            saved = await start(cog, party, user.id)
    except InAnotherFight as elsewhere:
        raise refused_elsewhere(interaction, elsewhere) from None
    except SignupClosed as closed:
        raise UserError(f"Nothing changed: {closed}.") from None
    await interaction.response.edit_message(embed=party_embed(saved), view=party_view(saved))
    if saved.status != PartyStatus.SIGNUP:
        await after_change(cog, party, saved, shown=True)
    else:
        arm(cog, saved)  # the lapse, for the sign-up's new version


async def start(cog: AndorDesk, party: Party, user_id: int) -> Party:
    if party.status != PartyStatus.SIGNUP:
        raise SignupClosed("this party is no longer signing up")
    if user_id != party.opener_id:
        raise UserError(f"Only {mention(party.opener_id)}, who opened this party, can start it.")
    if len(party.members) < MIN_MEMBERS:
        raise UserError(f"A party fight needs at least {MIN_MEMBERS} members.")
    stored = [await cog.repo.character(party.guild_id, m.user_id) for m in party.members]
    characters = characters_of(party, stored)
    state = await run_engine(
        cog.bot,
        lambda: start_party(
            characters, party.monster, party.monster_count, seed=party.seed, monsters_first=party.monsters_first
        ),
    )
    deadline = cog.clock() + await turn_seconds(cog, party.guild_id)
    try:
        return await cog.parties.start(party, state, deadline)
    except StaleUpdate:
        raise UserError("The sign-up changed as you pressed Start: look at it and press Start again.") from None


async def remove_member(
    cog: AndorDesk, interaction: discord.Interaction, member: discord.Member | discord.User
) -> None:
    """A game master takes a member out of the channel's party: off the sign-up, or out of the fight as if fled
    (without the roll)."""
    for _ in range(3):  # a click saved meanwhile: the removal is played again on what came first
        party = await cog.parties.party_of(guild_id(interaction), member.id)
        if party is None or party.channel_id != channel_id(interaction):
            raise UserError(f"{mention(member.id)} is in no party fight in this channel.")
        if party.status == PartyStatus.SIGNUP:
            saved = await cog.parties.leave(party.id, member.id)
            await after_change(cog, party, saved)
            break
        state = party.state
        index = next((i for i, m in enumerate(state.members) if m.user_id == member.id), -1) if state else -1
        try:
            saved = await saved_action(cog, party, remove(index))
        except StaleUpdate:
            continue
        await after_change(cog, party, saved)
        break
    else:
        raise UserError("The fight kept changing; try again.")
    await interaction.response.send_message(f"✅ {mention(member.id)} is out of the party fight.", ephemeral=True)


async def party_odds(
    cog: AndorDesk, interaction: discord.Interaction, monster: str, count: int, fights: int, seed: int | None, text: str
) -> None:
    """/andor simulate members:…: the party's odds from the same engine, each member with their own character."""
    user_ids = list(dict.fromkeys(int(found) for found in re.findall(r"<@!?(\d+)>", text)))
    if not MIN_MEMBERS <= len(user_ids) <= MAX_MEMBERS:
        raise UserError(f"Name {MIN_MEMBERS} to {MAX_MEMBERS} members as mentions, e.g. `members: @Ann @Ben`.")
    chosen = await cog.monsters_roster.find(guild_id(interaction), monster)
    characters = [await cog.repo.character(guild_id(interaction), u) or Character() for u in user_ids]
    seed = cog.seed_or_new(seed)
    await defer_thinking(interaction, ephemeral=False)
    odds = await run_long_engine(cog.bot, simulate_party, characters, chosen, count, fights, seed)
    await interaction.followup.send(embed=party_odds_embed(odds, user_ids, monster_title(chosen, count)))


class PartyCommands(commands.Cog):
    """The Andor cog's party commands (a mixin: the cog's command group takes them as its own)."""

    async def party_monster_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.andor.monster_autocomplete(interaction, current)

    @app_commands.command(name="party", description="Open a party fight here: 2 to 4 members against monsters.")
    @app_commands.describe(**FIGHT_OPTION_HELP)
    @app_commands.autocomplete(monster=party_monster_autocomplete)
    async def party(
        self,
        interaction: discord.Interaction,
        monster: str,
        count: app_commands.Range[int, 1, MAX_MONSTERS] = 1,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
        monsters_first: bool = False,
    ) -> None:
        await open_party(self.andor, interaction, monster, count, seed, monsters_first)

    @app_commands.command(name="party-remove", description="GM: take a member out of this channel's party fight.")
    @app_commands.describe(member="The member (they leave as if fled, without the roll)")
    @gm_only()
    async def party_remove(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await remove_member(self.andor, interaction, member)

    @property
    def andor(self) -> AndorDesk:
        return cast("AndorDesk", self)  # the mixin is a base of the Andor cog alone, which is an AndorDesk
