"""The project's bot class as the cogs see it, for the type checker: `bot.db`, `bot.settings` and friends."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

if TYPE_CHECKING:  # bot.py imports the cogs' package at run time; the cogs need the class for types only
    from bot import ArenaBot


def arena_bot(interaction: discord.Interaction) -> ArenaBot:
    """The bot that received `interaction` (discord.py types it as a plain Client)."""
    return cast("ArenaBot", interaction.client)
