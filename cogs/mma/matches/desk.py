"""The match desk: what the match modules act with, handed to them by the cog that builds it, never the cog itself.

Every function of `cogs.mma.matches` that reads or writes a match, posts its messages or sets its timers takes
the desk: the matches' repository, the clock and the seeds (the cog's, which a test replaces), the bot for its
worker threads and the channels it posts in, and what a process keeps in memory between clicks: the idle claims'
timers, the open hand views and the members told what the bot may not post.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from cogs.common.permissions import PermissionNotices
from cogs.mma.matches.claims import ClaimOpenings
from cogs.mma.matches.hands import HandViews
from storage.errors import StorageOutage
from storage.mma import Match, MmaRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.mma")


@dataclass
class MatchDesk:
    bot: ArenaBot  # the engine's worker threads (run_engine, play_turn) and the channels the bot posts in
    repo: MmaRepository
    clock: Callable[[], float]  # unix time
    seed_or_new: Callable[[int | None], int]  # the seed a member gave, or a fresh one
    claim_openings: ClaimOpenings  # the idle claims' timers
    match_ended: Callable[[Match], Awaitable[None]]  # after a move ended a match (a tournament's board moves on)
    hands: HandViews = field(default_factory=HandViews)
    permission_notices: PermissionNotices = field(default_factory=PermissionNotices)

    def channel(self, match: Match) -> discord.PartialMessageable:
        """The match's channel, to post or edit its messages in."""
        return self.bot.get_partial_messageable(match.channel_id, guild_id=match.guild_id)

    async def watch_claims(self) -> bool:
        """At start-up: the boards drawn before a restart still wait for their claim to open. False when storage
        could not be read."""
        try:
            waiting = await self.repo.live_between_members()
        except StorageOutage:
            log.warning("could not read the matches waiting for an idle claim; their next move redraws them")
            return False
        for match in waiting:
            if self.bot.serves_guild(match.guild_id):  # the other processes watch their own shards' matches
                self.claim_openings.watch(match, self.clock())
        return True

    def close(self) -> None:
        """At unload: the timers and the hand views' closings stop."""
        self.hands.close_all()
        self.claim_openings.close_all()
