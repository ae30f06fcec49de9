"""The project's bot class and an interaction's guild as the cogs see them, typed for the checker."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord.app_commands import NoPrivateMessage

if TYPE_CHECKING:  # bot.py imports the cogs' package at run time; the cogs need the class for types only
    from arena.bot import ArenaBot


def arena_bot(interaction: discord.Interaction) -> ArenaBot:
    """The bot that received `interaction` (discord.py types it as a plain Client)."""
    return cast("ArenaBot", interaction.client)


def guild_id(interaction: discord.Interaction) -> int:
    """The id of the server a guild-only command or component was used in."""
    if interaction.guild_id is None:  # app_commands.guild_only keeps such commands out of direct messages
        raise NoPrivateMessage()
    return interaction.guild_id


def channel_id(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:  # every command and component Arena receives comes from a channel
        raise NoPrivateMessage()
    return interaction.channel_id


UNKNOWN_MEMBER = 10007  # Discord's error code: the user is not a member of the server


async def still_in_server(bot: ArenaBot, guild: int, user_id: int) -> bool:
    """Whether the user is still in the server (asked of Discord: the bot does not receive member lists). An
    answer other than "unknown member" counts as still there."""
    try:
        await bot.http.get_member(guild, user_id)
    except discord.NotFound as missing:
        return missing.code != UNKNOWN_MEMBER
    except discord.HTTPException:
        return True
    return True
