"""The tournament desk: what the tournament modules act with, handed to them by the cog that builds it.

The tournaments' and the ratings' repositories, the match desk (a board is a match: dealt, stored, drawn and
conceded as any other), the bot for its worker threads, the channels it posts in and the members it asks about,
and what a process keeps about tournaments between clicks, none of it state: the timers of tournaments that
start on their own (set again from storage at start-up; its game master can still start one by hand), and one
lock per tournament so this process advances each one a step at a time.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import TYPE_CHECKING

import discord

from cogs.common.timers import Timers
from storage.ratings import RatingRepository
from storage.tournament import Tournament, TournamentRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot
    from cogs.mma.matches.desk import MatchDesk


class TournamentDesk:
    def __init__(self, bot: ArenaBot, matches: MatchDesk, repo: TournamentRepository, ratings: RatingRepository):
        self.bot = bot  # the engine's worker threads, the channels it posts in, the members it asks about
        self.matches = matches
        self.repo = repo
        self.ratings = ratings
        self.starts = Timers[int]("start tournament %s at its time")
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def channel(self, tournament: Tournament) -> discord.PartialMessageable:
        """The tournament's channel, where its messages and boards are posted."""
        return self.bot.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)

    def clock(self) -> float:
        return self.matches.clock()

    def close(self) -> None:
        """At unload: the start timers stop."""
        self.starts.close_all()
