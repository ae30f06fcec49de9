"""The moment a match's idle claim opens: the board is redrawn then, so its Claim button turns on by itself.

A board is drawn with the claim as it stands at that moment (`rules.mma.engine.idle_minutes_left`), and nothing
draws it again until something happens in the match. So each board of a match between members waiting for a
move sets one timer, here, for the moment the player kept waiting may claim the win; a later board of the same
match replaces it. The timers are in memory: at start-up the cog sets them again from the stored matches.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from cogs.common.timers import Timers
from rules.mma.engine import IDLE_SECONDS
from storage.mma import Match, MatchStatus

OPEN_MARGIN = 1.0  # seconds after the claim opens: the loop's clock and the wall clock may differ a little

Redraw = Callable[[int, int], Coroutine[Any, Any, None]]  # (match id, version the board showed)


class ClaimOpenings(Timers[int]):
    """One timer per match between members waiting for a move, keyed by the match's id."""

    def __init__(self, redraw: Redraw):
        super().__init__("redraw match %s as its idle claim opened")  # its next click redraws it
        self.redraw = redraw

    def watch(self, match: Match, now: float) -> None:
        """Set the redraw for the moment the match's idle claim opens, if it is still to come."""
        left = match.last_move_at + IDLE_SECONDS - now
        if match.status == MatchStatus.LIVE and not match.vs_ai and left > 0:
            self.arm(match.id, match.version, left)
        else:
            self.cancel(match.id)

    def arm(self, match_id: int, version: int, seconds: float) -> None:
        """Redraw the board of `match_id` (as of `version`) in `seconds`, when its claim opens."""
        self.set(match_id, seconds + OPEN_MARGIN, lambda: self.redraw(match_id, version))
