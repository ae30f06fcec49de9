"""The rivalry desk: what the records modules act with (ratings and past matches), handed to them by the cog."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from storage.mma import MmaRepository
from storage.ratings import RatingRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot


@dataclass(frozen=True)
class RivalryDesk:
    bot: ArenaBot  # the engine's worker threads (the replays, the rating chart)
    matches: MmaRepository
    ratings: RatingRepository
