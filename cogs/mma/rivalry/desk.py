"""The rivalry desk: what the records modules act with (ratings and past matches), handed to them by the cog."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.rating import MODEL_NAME
from storage.errors import StorageOutage
from storage.mma import MmaRepository
from storage.ratings import RatingRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.mma")


@dataclass(frozen=True)
class RivalryDesk:
    bot: ArenaBot  # the engine's worker threads (the replays, the rating chart)
    matches: MmaRepository
    ratings: RatingRepository

    async def recompute_ratings(self, now: float) -> None:
        """At start-up: ratings computed with an earlier model are recomputed with this one, once (migration
        0017); an outage leaves it to the next start-up."""
        try:
            recomputed = await self.ratings.recompute(now)
        except StorageOutage:
            log.warning("could not recompute the ratings with the current model; the next start-up does")
            return
        if recomputed is not None:
            log.info("ratings recomputed with %s: %s rated matches", MODEL_NAME, recomputed)
