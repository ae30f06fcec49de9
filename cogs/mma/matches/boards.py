"""A match's public message, its board: drawn as of now, posted, redrawn after a move made elsewhere, posted
again when it is lost, and retired when a newer board takes over (one board plays a match: the rule of
`cogs.common.reposts`)."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, NotRequired, TypedDict, Unpack

import discord

from cogs.common.permissions import in_thread, missing_to_post
from cogs.common.reposts import (
    LiveMessage,
    answered_with,
    is_older_copy,
    posted_again,
    retire_copy,
    show_retired_copy,
)
from cogs.mma.matches import render
from storage.mma import Match, MatchStatus

if TYPE_CHECKING:
    from cogs.mma.matches.desk import MatchDesk

log = logging.getLogger("arena.mma")


class BoardEdit(TypedDict):
    """What a match's message is edited with: the board, and, once the match is over, no words beside it."""

    embed: discord.Embed
    view: discord.ui.View
    content: NotRequired[None]


def drawn(match: Match, now: float) -> tuple[discord.Embed, discord.ui.View]:
    """The match's message as of `now` (the idle claim depends on the time)."""
    return render.match_embed(match, now), render.match_view(match, now)


def drawn_edit(match: Match, now: float) -> BoardEdit:
    """The board as an edit of its message. Once the match is over the words above the board go: a board posted
    again says "here it is again" only while there is a match to go back to."""
    embed, view = drawn(match, now)
    edit: BoardEdit = {"embed": embed, "view": view}
    if match.status != MatchStatus.LIVE:
        edit["content"] = None
    return edit


def board_setting_claim_timer(desk: MatchDesk, match: Match) -> tuple[discord.Embed, discord.ui.View]:
    """The board about to be shown, drawn as of now, and (the effect) the timer set that redraws it when its idle
    claim opens, in place of the timer of the board it replaces."""
    now = desk.clock()
    desk.claim_openings.watch(match, now)
    return drawn(match, now)


def edit_setting_claim_timer(desk: MatchDesk, match: Match) -> BoardEdit:
    """`drawn_edit` of the board about to be shown, and (the effect) its claim's timer set, as in
    `board_setting_claim_timer`."""
    now = desk.clock()
    desk.claim_openings.watch(match, now)
    return drawn_edit(match, now)


async def post(desk: MatchDesk, interaction: discord.Interaction, match: Match, **message: Unpack[LiveMessage]) -> None:
    """The new match's (or challenge's) first message, recorded as its board; a match Discord refused to show is
    deleted again."""
    try:
        sent = await answered_with(interaction, **message)
    except discord.HTTPException:
        await desk.repo.delete(match.id)
        raise
    await desk.repo.set_message(match.id, sent.id)


async def offer_again(desk: MatchDesk, interaction: discord.Interaction, match: Match) -> None:
    """The member's match going in this channel, posted again as it is stored: its old message may be lost
    or behind (a move saved just before a crash). The new message becomes the match's, and the old one is
    retired (`cogs.common.reposts`), so one board plays the match."""
    embed, view = board_setting_claim_timer(desk, match)
    sent = await posted_again(
        interaction,
        lambda message_id: desk.repo.set_message(match.id, message_id),
        content=f"You already have a match going here (match #{match.id}): here it is again. Finish it, or "
        "concede, before starting another.",
        embed=embed,
        view=view,
    )
    if match.message_id is not None and match.message_id != sent.id:
        moved = replace(match, message_id=sent.id)
        await retire_copy(
            desk.channel(match),
            match.message_id,
            f"board {match.message_id} of match {match.id}",
            content=render.moved_text(moved),
        )


def is_retired(interaction: discord.Interaction, match: Match) -> bool:
    """Whether the click came from an earlier board of a live match posted again since. A hand view is no
    board."""
    return match.status == MatchStatus.LIVE and is_older_copy(interaction, match.message_id)


async def show_retired(interaction: discord.Interaction, match: Match) -> None:
    told = f"Nothing was changed: this match goes on in its newer message, {render.board_link(match)}"
    await show_retired_copy(interaction, told, content=render.moved_text(match))


async def redraw(desk: MatchDesk, match: Match, interaction: discord.Interaction | None = None) -> None:
    """Redraw the match message after a move made elsewhere (the hand view); repost it if it is gone. Where
    the bot may not (the `interaction` of the member who moved says so), that member is told what to give it."""
    edit = edit_setting_claim_timer(desk, match)
    channel = desk.channel(match)
    # The move is saved and the player has their answer by now: a failure here is logged, not reported as
    # a failed move (the next click on the match redraws it anyway).
    try:
        if match.message_id is not None:
            if await _lacking(desk, interaction, match, posting=False):
                return
            try:
                await channel.get_partial_message(match.message_id).edit(**edit)
                return
            except discord.NotFound:
                log.info("match %s message %s is gone; posting it again", match.id, match.message_id)
        if await _lacking(desk, interaction, match, posting=True):
            return
        sent = await channel.send(embed=edit["embed"], view=edit["view"])
    except discord.HTTPException as refused:
        log.warning(
            "could not redraw match %s in channel %s: %s", match.id, match.channel_id, refused.text or refused.status
        )
        return
    await desk.repo.set_message(match.id, sent.id)


async def _lacking(desk: MatchDesk, interaction: discord.Interaction | None, match: Match, *, posting: bool) -> bool:
    """Whether the bot lacks what it needs to edit (or post) the board where the member moved: they are told."""
    if interaction is None or interaction.channel_id != match.channel_id:
        return False
    missing = missing_to_post(
        interaction.app_permissions, in_thread=in_thread(interaction), embeds=True, posting=posting
    )
    if missing:
        await desk.permission_notices.tell(interaction, match.channel_id, "show the match's board", missing)
    return bool(missing)


async def redraw_as_claim_opens(desk: MatchDesk, match_id: int, version: int) -> None:
    match = await desk.repo.get(match_id)
    if match is not None and match.version == version and match.status == MatchStatus.LIVE:
        await redraw(desk, match)  # a move since has drawn its own board, and set its own timer
