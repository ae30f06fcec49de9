"""The moment a match's idle claim opens: the board is redrawn then, so its Claim button turns on by itself.

A board is drawn with the claim as it stands at that moment (`rules.mma.engine.idle_minutes_left`), and nothing
draws it again until something happens in the match. So each board of a match between members waiting for a
move sets one timer, here, for the moment the player kept waiting may claim the win; a later board of the same
match replaces it. The timers are in memory: at start-up the cog sets them again from the stored matches.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from rules.mma.engine import IDLE_SECONDS
from storage.mma import Match, MatchStatus

log = logging.getLogger("arena.mma")

OPEN_MARGIN = 1.0  # seconds after the claim opens: the loop's clock and the wall clock may differ a little

Redraw = Callable[[int, int], Coroutine[Any, Any, None]]  # (match id, version the board showed)


class ClaimOpenings:
    def __init__(self, redraw: Redraw):
        self.redraw = redraw
        self.delay: Callable[[float], float] = lambda seconds: seconds  # a test shortens the 15 minutes
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def watch(self, match: Match, now: float) -> None:
        """Set the redraw for the moment the match's idle claim opens, if it is still to come."""
        left = match.last_move_at + IDLE_SECONDS - now
        if match.status == MatchStatus.LIVE and not match.vs_ai and left > 0:
            self.arm(match.id, match.version, left)
        else:
            self.cancel(match.id)

    def arm(self, match_id: int, version: int, seconds: float) -> None:
        """Redraw the board of `match_id` (as of `version`) in `seconds`, when its claim opens."""
        self.cancel(match_id)
        loop = asyncio.get_running_loop()
        self.timers[match_id] = loop.call_later(self.delay(seconds + OPEN_MARGIN), self._fire, match_id, version)

    def cancel(self, match_id: int) -> None:
        if (timer := self.timers.pop(match_id, None)) is not None:
            timer.cancel()

    def close_all(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()

    def _fire(self, match_id: int, version: int) -> None:
        self.timers.pop(match_id, None)
        task = asyncio.get_running_loop().create_task(self._redraw(match_id, version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _redraw(self, match_id: int, version: int) -> None:
        try:
            await self.redraw(match_id, version)
        except Exception:  # the next click on the match redraws the board anyway
            log.warning("could not redraw match %s as its idle claim opened", match_id, exc_info=True)
