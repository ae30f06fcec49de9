"""The end of a match, one unit of work in the transaction that saves its last move: each member's result and
fighters (storage/mma/results.py), the result of the tournament board it was played for (storage/tournament.py),
and the rating of a match between members (storage/ratings.py), so none is stored without the others. Every
end of a match with a result comes here (a move, a concession, an idle claim, a withdrawal: all saved by
MmaRepository.save_moves); a match abandoned with its channel has no result and is not rated (RULINGS 8)."""

from __future__ import annotations

from dataclasses import replace

from rules.mma.engine import moves_made
from rules.mma.state import GameState, MatchOutcome
from storage.mma import results
from storage.mma.matches import Match
from storage.protocol import StorageTransaction
from storage.ratings import RatingRepository
from storage.tournament import record_match_end


async def end_match(
    conn: StorageTransaction,
    ratings: RatingRepository,
    ended_match: Match,
    state: GameState,
    ended: MatchOutcome,
    now: float,
    *,
    withdrawing: int | None = None,
) -> Match:
    """`ended_match`, just saved as over in `conn`, with its result written and, when rated, its rating changes.
    `withdrawing`: the tournament player whose withdrawal ended it."""
    await results.write(conn, ended_match, state, ended, now)
    # A tournament's board that ended before any move (a no-show claimed against, a concession or a withdrawal
    # first) is a forfeit, not rated (docs/rules/tournament.md, ruling 3).
    board = await record_match_end(
        conn, ended_match.id, ended.winner, played=moves_made(state) > 0, withdrawing=withdrawing
    )
    if board is not None and not board.rated:
        return ended_match
    return await _rate(conn, ratings, ended_match, now)


async def _rate(conn: StorageTransaction, ratings: RatingRepository, match: Match, now: float) -> Match:
    """Rate a match between members (RULINGS 7: never one against the AI). The engine's winner already makes a
    concession or an idle claim a loss for the one who conceded or went idle, and a judges' decision its
    decision."""
    first, second = match.player_ids
    if second is None:
        return match
    rated = await ratings.rate_match(
        conn, match.guild_id, match.id, (first, second), match.winner_slot, match.result_reason or "", now
    )
    return replace(match, rating_changes={first: rated.first, second: rated.second})
