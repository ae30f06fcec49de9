"""MMA Warriors storage, one module per table it writes: matches (mma_matches: challenges and matches, the
state saved after every move), moves (mma_moves), results (mma_results and mma_fielded: each member's result
and tallies); ending, the unit of work that ends a match (its results, its tournament board, its rating); the
repository the cog uses over them; and tables, the game's table declarations. Ratings and tournaments have
their own modules (storage/ratings.py, storage/tournament.py)."""

from storage.mma.matches import (
    CHANNEL_DELETED,
    IN_PLAY,
    MATCH_STATE,
    Match,
    MatchConflict,
    MatchStatus,
    NewMatch,
    ended_words,
)
from storage.mma.repository import MmaRepository
from storage.mma.results import FighterUse, FinishedMatch, MatchTallies
from storage.mma.tables import TABLES, MmaProfile
from storage.versioned import StaleUpdate

__all__ = [
    "CHANNEL_DELETED",
    "IN_PLAY",
    "MATCH_STATE",
    "TABLES",
    "FighterUse",
    "FinishedMatch",
    "Match",
    "MatchConflict",
    "MatchStatus",
    "MatchTallies",
    "MmaProfile",
    "MmaRepository",
    "NewMatch",
    "StaleUpdate",
    "ended_words",
]
