"""mma_results and mma_fielded: each member's result of a finished match and the fighters they fielded in it,
written when the match ends (storage/mma/ending.py), and the tallies and history read from them."""

from __future__ import annotations

from dataclasses import dataclass

from rules.contract import Tally
from rules.mma.cards import CARDS
from rules.mma.state import GameState, MatchOutcome
from rules.rating import Rating, RatingChange, Result
from storage.mma.matches import Match, MatchStatus
from storage.protocol import Storage, StorageTransaction
from storage.rows import required
from storage.times import stored_time, unix_time


@dataclass(frozen=True)
class MatchTallies:
    """A member's finished matches in a server, against members and against the AI."""

    against_members: Tally
    against_ai: Tally

    @property
    def overall(self) -> Tally:
        return self.against_members + self.against_ai


@dataclass(frozen=True)
class FighterUse:
    fighter: str
    matches: int
    wins: int


@dataclass(frozen=True)
class FinishedMatch:
    """One finished match in a member's history (against a member or the AI)."""

    match_id: int
    opponent_id: int | None  # None: the AI
    result: Result | None  # the member's; None: abandoned, its channel deleted (RULINGS 8)
    reason: str  # how the match ended
    finished_at: float  # unix time
    change: RatingChange | None  # the member's rating change; None for a match not rated (against the AI)


async def write(conn: StorageTransaction, match: Match, state: GameState, ended: MatchOutcome, now: float) -> None:
    """Each member's result of the ended match, and the fighters they fielded."""
    for slot, user_id in enumerate(match.player_ids):
        if user_id is None:
            continue
        result = Result.of_slot(slot, ended.winner)
        await conn.execute(
            "INSERT INTO mma_results (guild_id, user_id, match_id, outcome, opponent_id, reason, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                match.guild_id,
                user_id,
                match.id,
                result.value,
                match.player_ids[1 - slot],
                ended.termination.value,
                stored_time(now),
            ),
        )
        await conn.execute_many(
            "INSERT INTO mma_fielded (guild_id, user_id, match_id, fighter, won) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            [
                (match.guild_id, user_id, match.id, CARDS[f].name, int(result is Result.WIN))
                for f in state.players[slot].fielded
            ],
        )


async def tallies(db: Storage, guild_id: int, user_id: int) -> MatchTallies:
    rows = await db.fetch_all(
        "SELECT opponent_id IS NULL AS vs_ai, outcome, count(*) AS matches FROM mma_results "
        "WHERE guild_id = ? AND user_id = ? GROUP BY opponent_id IS NULL, outcome",
        (guild_id, user_id),
    )
    counts = {(bool(r["vs_ai"]), Result(r["outcome"])): r["matches"] for r in rows}

    def tally(vs_ai: bool) -> Tally:
        return Tally(*(counts.get((vs_ai, result), 0) for result in (Result.WIN, Result.LOSS, Result.DRAW)))

    return MatchTallies(against_members=tally(False), against_ai=tally(True))


async def favourite_fighters(db: Storage, guild_id: int, user_id: int, limit: int) -> list[FighterUse]:
    rows = await db.fetch_all(
        "SELECT fighter, count(*) AS matches, sum(won) AS wins FROM mma_fielded WHERE guild_id = ? AND user_id = ? "
        "GROUP BY fighter ORDER BY matches DESC, wins DESC, fighter LIMIT ?",
        (guild_id, user_id, limit),
    )
    return [FighterUse(r["fighter"], r["matches"], r["wins"]) for r in rows]


# A member's history: their finished matches (mma_results) and their abandoned ones (RULINGS 8), which have no
# result.
_HISTORY = (
    "SELECT r.match_id, r.opponent_id, r.outcome, r.reason, r.finished_at, c.mu_before, c.sigma_before, "
    "c.mu_after, c.sigma_after, c.games_after FROM mma_results r LEFT JOIN mma_rating_changes c "
    "ON c.match_id = r.match_id AND c.user_id = r.user_id WHERE r.guild_id = ? AND r.user_id = ? "
    "UNION ALL SELECT m.id, CASE WHEN m.player0_id = ? THEN m.player1_id ELSE m.player0_id END, NULL, "
    "m.result_reason, m.last_move_at, NULL, NULL, NULL, NULL, NULL FROM mma_matches m "
    "WHERE m.guild_id = ? AND m.status = ? AND (m.player0_id = ? OR m.player1_id = ?)"
)


def _history_parameters(guild_id: int, user_id: int) -> tuple[object, ...]:
    return (guild_id, user_id, user_id, guild_id, MatchStatus.ABANDONED, user_id, user_id)


async def history(db: Storage, guild_id: int, user_id: int, *, limit: int, offset: int) -> list[FinishedMatch]:
    """A page of the member's history here, newest first, each with its rating change where rated."""
    rows = await db.fetch_all(
        f"SELECT * FROM ({_HISTORY}) history ORDER BY finished_at DESC, match_id DESC LIMIT ? OFFSET ?",
        (*_history_parameters(guild_id, user_id), limit, offset),
    )
    return [
        FinishedMatch(
            r["match_id"],
            r["opponent_id"],
            None if r["outcome"] is None else Result(r["outcome"]),
            r["reason"],
            unix_time(r["finished_at"]),
            None
            if r["games_after"] is None
            else RatingChange(
                Rating(r["mu_before"], r["sigma_before"], r["games_after"] - 1),
                Rating(r["mu_after"], r["sigma_after"], r["games_after"]),
            ),
        )
        for r in rows
    ]


async def history_count(db: Storage, guild_id: int, user_id: int) -> int:
    row = await db.fetch_one(
        f"SELECT count(*) AS matches FROM ({_HISTORY}) history", _history_parameters(guild_id, user_id)
    )
    return required(row)["matches"]
