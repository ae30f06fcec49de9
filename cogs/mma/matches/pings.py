"""The short message that calls a member to their match: a new message mentions (an edit notifies no one)."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from cogs.common.permissions import in_thread, missing_to_post
from cogs.mma.matches import render
from storage.mma import Match, MatchStatus

if TYPE_CHECKING:
    from cogs.mma.matches.desk import MatchDesk

log = logging.getLogger("arena.mma")


def waiting_for(match: Match) -> int | None:
    """The slot of the member a live match between two members waits for (to move, or to pick a fighter)."""
    if match.status != MatchStatus.LIVE or match.vs_ai or match.state is None:
        return None
    return match.state.to_move


async def call_next(
    desk: MatchDesk, saved: Match, waited_for: int | None, interaction: discord.Interaction | None = None
) -> None:
    """Ping the player the match now waits for, when that changed (`waited_for`: whom it waited for before
    the change): a short new message that mentions only them, replacing the match's previous ping so the
    channel stays clean. No pings against the AI. Where the bot may not post (the `interaction` of the member
    who acted says so), that member is told what to give it; a ping Discord refuses is logged; the move stands."""
    waiting = waiting_for(saved)
    if waiting == waited_for and (waiting is None or saved.ping_message_id is not None):
        return
    if waiting is not None and interaction is not None and interaction.channel_id == saved.channel_id:
        missing = missing_to_post(interaction.app_permissions, in_thread=in_thread(interaction))
        if missing:
            await desk.permission_notices.tell(interaction, saved.channel_id, "ping the next player", missing)
            return
    channel = desk.channel(saved)
    try:
        if saved.ping_message_id is not None:
            with contextlib.suppress(discord.NotFound):  # someone deleted it already
                await channel.get_partial_message(saved.ping_message_id).delete()
        sent = None
        user_id = saved.player_ids[waiting] if waiting is not None else None
        if user_id is not None:
            sent = await channel.send(
                render.ping_text(saved, user_id),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )
    except discord.HTTPException as refused:
        log.warning("could not ping the next player of match %s: %s", saved.id, refused.text or refused.status)
        return
    await desk.repo.set_ping(saved.id, sent.id if sent is not None else None)
