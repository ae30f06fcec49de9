"""MMA Warriors' tables as the game declares them (storage/tables.py), and its part of a member's profile."""

from __future__ import annotations

from dataclasses import dataclass

from rules.rating import Rating
from storage.mma.matches import IN_PLAY
from storage.mma.results import MatchTallies, tallies
from storage.protocol import Storage
from storage.ratings import RatingRepository
from storage.tables import Going, InPlay, InWorker, Kept, Mentioned, Owned, Parent, Table, Tables


@dataclass(frozen=True)
class MmaProfile:
    """MMA Warriors on a member's profile: their rating and their finished matches."""

    rating: Rating  # games 0: never rated
    matches: MatchTallies  # against the AI included

    @property
    def empty(self) -> bool:
        return self.rating.games == 0 and self.matches.overall.played == 0


async def _profile(db: Storage, guild_id: int, user_id: int, in_worker: InWorker) -> MmaProfile:
    return MmaProfile(await RatingRepository(db).rating(guild_id, user_id), await tallies(db, guild_id, user_id))


# A match is both players': it stays with the opponent, a member who erased their data shown as a former
# member (their mentions in its action feed too); a match against the AI is theirs alone. A result names the
# opponent, whose own result stands. A challenge or a match going on holds back their erasure (RULINGS 8).
_MATCHES = Table(
    "mma_matches",
    "MMA matches and challenges",
    members=(Kept("player0_id", name="player0_name"), Kept("player1_id", name="player1_name")),
    order="id",
    mentions_in="feed_json",
    alone_when="player1_id IS NULL",
    in_play=InPlay("status IN (?, ?)", IN_PLAY, Going("MMA match or challenge", "MMA matches or challenges")),
)
TABLES = Tables(
    "MMA Warriors",
    (
        Table(
            "mma_results",
            "MMA results",
            members=(Owned("user_id"), Mentioned("opponent_id")),
            references=("mma_matches",),
            order="match_id",
        ),
        Table(
            "mma_fielded",
            "MMA fighters fielded",
            members=(Owned("user_id"),),
            references=("mma_matches",),
            order="match_id, fighter",
        ),
        _MATCHES,
        Table("mma_moves", server=None, parent=Parent("match_id", _MATCHES)),
    ),
    profile=_profile,
)

__all__ = ["TABLES", "MmaProfile"]
