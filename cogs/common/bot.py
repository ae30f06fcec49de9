"""The project's bot class and an interaction's guild as the cogs see them, typed for the checker."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
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


async def still_in_server_of(bot: ArenaBot, guild: int, user_ids: Iterable[int]) -> set[int]:
    """Those of the users still in the server (as `still_in_server`), asked of Discord all at once: a
    tournament's round asks about up to 64 players, which one after another took as many round trips.
    discord.py keeps the requests within the route's rate limit."""
    asked = list(dict.fromkeys(user_ids))
    answers = await asyncio.gather(*(still_in_server(bot, guild, user_id) for user_id in asked))
    return {user_id for user_id, here in zip(asked, answers, strict=True) if here}
