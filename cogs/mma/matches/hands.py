"""The private hand views a match's players have open, kept up to date after every move.

A hand view is an ephemeral message: only the interaction that showed it can edit it, and Discord allows
that for 15 minutes. The latest such interaction of each player is kept here (in memory: after a restart
the views cannot be reached, and their buttons fall back on the version check). After a move each open
view is redrawn; shortly before Discord stops allowing edits, a view says it can no longer follow the
match, so it never offers stale cards as current.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

import discord

log = logging.getLogger("arena.mma")

EDITABLE_FOR = 14 * 60  # seconds: Discord lets an interaction edit its message for 15 minutes
CLOSED_NOTE = (
    "⌛ This hand view can no longer follow the match (Discord allows 15 minutes). Press **My hand** on the match "
    "message for a fresh one."
)

HandKey = tuple[int, int]  # (match id, slot)
Drawn = tuple[str, discord.Embed, discord.ui.View]  # content, embed, view of a hand message


@dataclass
class OpenHand:
    interaction: discord.Interaction
    closing: asyncio.TimerHandle


class HandViews:
    def __init__(self, editable_for: float = EDITABLE_FOR):
        self.editable_for = editable_for  # a parameter so a test can see a view close without waiting minutes
        self.open: dict[HandKey, OpenHand] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def shown(self, match_id: int, slot: int, interaction: discord.Interaction) -> None:
        """`interaction` has just shown (or redrawn) the player's hand view: it is the one to edit from now on."""
        key = (match_id, slot)
        if (previous := self.open.get(key)) is not None:
            previous.closing.cancel()
        closing = asyncio.get_running_loop().call_later(self.editable_for, self._close_soon, key, interaction)
        self.open[key] = OpenHand(interaction, closing)

    async def refresh(self, match_id: int, draw: Callable[[int], Drawn], *, skip: discord.Interaction | None) -> None:
        """Redraw the open hand views of a match (`draw(slot)`), except the one `skip` has just answered."""
        for slot in (0, 1):
            hand = self.open.get((match_id, slot))
            if hand is None or hand.interaction is skip:
                continue
            content, embed, view = draw(slot)
            try:
                await hand.interaction.edit_original_response(content=content, embed=embed, view=view)
            except discord.HTTPException:  # dismissed by the player, or too old: nothing left to follow
                log.info("hand view of match %s slot %s can no longer be edited", match_id, slot)
                self.forget(match_id, slot)

    def forget(self, match_id: int, slot: int) -> None:
        if (hand := self.open.pop((match_id, slot), None)) is not None:
            hand.closing.cancel()

    def close_all(self) -> None:
        for hand in self.open.values():
            hand.closing.cancel()
        self.open.clear()

    def _close_soon(self, key: HandKey, interaction: discord.Interaction) -> None:
        if (hand := self.open.get(key)) is None or hand.interaction is not interaction:
            return
        del self.open[key]
        task = asyncio.get_running_loop().create_task(self._close(interaction))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _close(interaction: discord.Interaction) -> None:
        with contextlib.suppress(discord.HTTPException):  # already dismissed: nothing to say
            await interaction.edit_original_response(content=CLOSED_NOTE, embed=None, view=None)
