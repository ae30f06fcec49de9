"""/andor character and /andor shop: a member's character in the server (a mixin of the Andor cog: its command
group takes these commands as its own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.andor.book_render import character_embed
from cogs.common import UserError
from cogs.common.bot import guild_id
from rules.andor.engine import (
    CHARACTER_STATS,
    POTION_LIMIT,
    potion_purchase_problem,
    updated_character,
    with_potions_bought,
)
from rules.andor.models import POTION_PRICE, STAT_LIMITS, Character
from rules.text import format_number, plural

if TYPE_CHECKING:
    from storage.andor import AndorRepository


def buy_potions(character: Character, potions: int) -> Character:
    """The character after buying `potions` in the shop; UserError, nothing bought, when short of gold or room."""
    problem = potion_purchase_problem(character, potions)
    if problem is not None:
        raise UserError(problem)
    return with_potions_bought(character, potions)


def _bounds(stat: str) -> tuple[float, float]:
    """The least and the most a `/andor character set` option takes (`Range` casts them to its type)."""
    limit = STAT_LIMITS[stat]
    return limit.minimum, limit.maximum


def stat_description(stat: str) -> str:
    """The help of a `/andor character set` option: what the stat does, its allowed range and its default."""
    limit = STAT_LIMITS[stat]
    low, high = (f"{value:,}" if limit.integer else format_number(value) for value in (limit.minimum, limit.maximum))
    return f"{limit.help} ({low} to {high}, default {format_number(Character.model_fields[stat].default)})"


class CharacterCommands(commands.Cog):
    """The Andor cog's character and shop commands."""

    repo: AndorRepository
    character = app_commands.Group(name="character", description="Your Andor's Trail character in this server.")

    async def my_character(self, interaction: discord.Interaction) -> Character:
        return await self.repo.character(guild_id(interaction), interaction.user.id) or Character()

    # --- character -------------------------------------------------------------------------------------

    @character.command(name="show", description="Show your character: level, XP, HP, AP and combat stats.")
    async def character_show(self, interaction: discord.Interaction) -> None:
        character = await self.my_character(interaction)
        await interaction.response.send_message(
            embed=character_embed(character, interaction.user.display_name), ephemeral=True
        )

    @character.command(name="set", description="Change some of your character's stats (the others stay as they are).")
    @app_commands.describe(**{stat: stat_description(stat) for stat in CHARACTER_STATS})
    async def character_set(
        self,
        interaction: discord.Interaction,
        level: app_commands.Range[int, *_bounds("level")] | None = None,
        xp: app_commands.Range[int, *_bounds("xp")] | None = None,
        base_hp: app_commands.Range[int, *_bounds("base_hp")] | None = None,
        hp_bonus: app_commands.Range[int, *_bounds("hp_bonus")] | None = None,
        ap: app_commands.Range[int, *_bounds("ap")] | None = None,
        attack_cost: app_commands.Range[int, *_bounds("attack_cost")] | None = None,
        attack_chance: app_commands.Range[int, *_bounds("attack_chance")] | None = None,
        damage_min: app_commands.Range[int, *_bounds("damage_min")] | None = None,
        damage_max: app_commands.Range[int, *_bounds("damage_max")] | None = None,
        crit_chance: app_commands.Range[int, *_bounds("crit_chance")] | None = None,
        crit_multiplier: app_commands.Range[float, *_bounds("crit_multiplier")] | None = None,
        block_chance: app_commands.Range[int, *_bounds("block_chance")] | None = None,
        damage_resistance: app_commands.Range[int, *_bounds("damage_resistance")] | None = None,
        ad_bonus: app_commands.Range[int, *_bounds("ad_bonus")] | None = None,
        armor: app_commands.Range[int, *_bounds("armor")] | None = None,
        potions: app_commands.Range[int, *_bounds("potions")] | None = None,
        potion_heal: app_commands.Range[int, *_bounds("potion_heal")] | None = None,
    ) -> None:
        given = {name: value for name, value in locals().items() if name in CHARACTER_STATS and value is not None}
        if not given:
            raise UserError("Give at least one stat to change, e.g. `/andor character set attack_chance:90`.")
        character = await self.repo.update_character(
            guild_id(interaction), interaction.user.id, lambda stored: updated_character(stored or Character(), given)
        )
        changed = ", ".join(f"{name} {format_number(value)}" for name, value in given.items())
        await interaction.response.send_message(
            embed=character_embed(character, interaction.user.display_name, title=f"✅ Saved: {changed}"[:256]),
            ephemeral=True,
        )

    @character.command(name="reset", description="Start over with the default character (level 1).")
    async def character_reset(self, interaction: discord.Interaction) -> None:
        await self.repo.delete_character(guild_id(interaction), interaction.user.id)
        await interaction.response.send_message(
            embed=character_embed(Character(), interaction.user.display_name, title="✅ Back to the default character"),
            ephemeral=True,
        )

    # --- the shop --------------------------------------------------------------------------------------

    @app_commands.command(
        name="shop", description=f"Buy potions with the gold your kills dropped ({POTION_PRICE} gold each)."
    )
    @app_commands.describe(potions=f"How many potions to buy, at {POTION_PRICE} gold each")
    async def shop(self, interaction: discord.Interaction, potions: app_commands.Range[int, 1, POTION_LIMIT]) -> None:
        bought = await self.repo.update_character(
            guild_id(interaction), interaction.user.id, lambda stored: buy_potions(stored or Character(), potions)
        )
        await interaction.response.send_message(
            embed=character_embed(
                bought,
                interaction.user.display_name,
                title=f"✅ Bought {plural(potions, 'potion')} for {potions * POTION_PRICE:,} gold",
            ),
            ephemeral=True,
        )
