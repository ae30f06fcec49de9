"""One rule for a live message posted again (a match's board, a fight): the newest copy is the live one, recorded
as the game's message; an older copy is retired: its buttons taken off, and it says where the game goes on.

- `posted_again`: the live message posted again as the answer to a command, and recorded as the game's message.
- `retire_copy`: an older copy's buttons taken off by the bot itself, once the new copy is recorded. A copy
  someone deleted needs nothing; an edit Discord refuses is logged, and a click on that copy retires it then:
- `is_older_copy`: whether a click came from a copy older than the recorded one (message ids grow with time, so
  the newer copy is the one recorded); a private (ephemeral) message is no copy;
- `show_retired_copy`: the answer to that click: the copy's buttons taken off, the member told privately where
  the game goes on, and nothing changed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypedDict, Unpack

import discord

log = logging.getLogger("arena.reposts")


class LiveMessage(TypedDict, total=False):
    """What a live message is posted with."""

    content: str
    embed: discord.Embed
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions


class RetiredEdit(TypedDict, total=False):
    """What a retired copy shows instead (its view is always taken off)."""

    content: str | None
    embed: discord.Embed | None


async def answered_with(interaction: discord.Interaction, **message: Unpack[LiveMessage]) -> discord.Message:
    """A new message as the answer to `interaction` (a followup when it is answered already), as sent."""
    if interaction.response.is_done():
        return await interaction.followup.send(wait=True, **message)
    await interaction.response.send_message(**message)
    return await interaction.original_response()


async def posted_again(
    interaction: discord.Interaction, record: Callable[[int], Awaitable[object]], **message: Unpack[LiveMessage]
) -> discord.Message:
    """The live message posted again as the answer to `interaction`, and recorded as the game's (`record(its id)`)
    before an older copy is retired (`retire_copy`), so a click on that copy meanwhile is told it is retired."""
    sent = await answered_with(interaction, **message)
    await record(sent.id)
    return sent


async def retire_copy(
    channel: discord.PartialMessageable, message_id: int, what: str, **edit: Unpack[RetiredEdit]
) -> None:
    """Take the buttons off an older copy (`what`: "board 12 of match 3", for the log line) and show `edit`."""
    try:
        await channel.get_partial_message(message_id).edit(view=None, **edit)
    except discord.NotFound:
        pass
    except discord.HTTPException:
        log.warning("could not retire the %s", what, exc_info=True)


def is_older_copy(interaction: discord.Interaction, live_message_id: int | None) -> bool:
    """Whether the click came from a copy older than the live message `live_message_id` (None: none recorded)."""
    message = interaction.message
    return (
        live_message_id is not None
        and message is not None
        and not message.flags.ephemeral
        and message.id < live_message_id
    )


async def show_retired_copy(interaction: discord.Interaction, told: str, **edit: Unpack[RetiredEdit]) -> None:
    """A click on an older copy: the copy shows `edit` without its buttons, and the member is told `told`
    privately (where the game goes on, and that nothing was changed)."""
    await interaction.response.edit_message(view=None, **edit)
    await interaction.followup.send(told, ephemeral=True)
