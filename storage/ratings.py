"""MMA ratings: each member's rating in a server (rules/rating.py), the change each rated match made, and the
readings built on them (leaderboard, history, head-to-head tally against each opponent).

`rate_match` writes inside a transaction it is given, so the save that ends a match rates it in the same
transaction: a match is rated exactly when it ends, once. A second rating of the same match (a retry, a restart)
finds its changes stored and returns them, changing nothing; the (match_id, user_id) key is the invariant
should a path forget that check.

`recompute` rebuilds every rating and change from the rated matches in order when the model changes (migration
0017, run once at start-up and recorded in mma_rating_models).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.contract import Tally
from rules.rating import (
    MODEL_NAME,
    PROVISIONAL_SIGMA,
    RatedMatch,
    Rating,
    RatingChange,
    Result,
    competition_ranks,
    rate_match,
)
from storage.protocol import Row, Storage, StorageTransaction
from storage.retry import retried_on_conflict
from storage.rows import required
from storage.tables import Mentioned, Owned, Table, Tables
from storage.times import stored_time, unix_time

# A provisional rating (rules.rating.Rating.provisional) as SQL: too wide a deviation.
_PROVISIONAL = "(sigma > ?)"
_PROVISIONAL_PARAMS = (PROVISIONAL_SIGMA,)


@dataclass(frozen=True)
class RatedMember:
    user_id: int
    rating: Rating
    updated_at: float  # unix time of the last rated match
    rank: int  # among the established, or apart among the provisional; the same shown rating, the same rank


@dataclass(frozen=True)
class Leaderboard:
    """Every rated member of a server, highest rating first: the established ranked, and the provisional ranked
    apart. A member who erased their data has no rating, so is not here (RULINGS 8)."""

    established: list[RatedMember]
    provisional: list[RatedMember]

    @property
    def everyone(self) -> list[RatedMember]:
        """The established, then the provisional: the order the leaderboard's pages show."""
        return self.established + self.provisional

    def standing(self, user_id: int) -> RatedMember | None:
        """The member's row (None: no rated match here)."""
        return next((member for member in self.everyone if member.user_id == user_id), None)

    def of_kind(self, member: RatedMember) -> list[RatedMember]:
        """The members ranked with `member`: the established, or the provisional."""
        return self.provisional if member.rating.provisional else self.established


@dataclass(frozen=True)
class RatedGame:
    """One rated match in a member's history."""

    match_id: int
    opponent_id: int
    result: Result  # the member's
    reason: str  # how the match ended
    rated_at: float  # unix time
    change: RatingChange


@dataclass(frozen=True)
class HeadToHead:
    """A member's rated matches against one opponent."""

    opponent_id: int
    tally: Tally
    last_played: float  # unix time


def _rated_game(row: Row) -> RatedGame:
    return RatedGame(
        match_id=row["match_id"],
        opponent_id=row["opponent_id"],
        result=Result(row["result"]),
        reason=row["reason"],
        rated_at=unix_time(row["rated_at"]),
        change=RatingChange(
            Rating(row["mu_before"], row["sigma_before"], row["games_after"] - 1),
            Rating(row["mu_after"], row["sigma_after"], row["games_after"]),
        ),
    )


def _ranked(rows: list[Row]) -> list[RatedMember]:
    ratings = [Rating(row["mu"], row["sigma"], row["games"]) for row in rows]
    ranks = competition_ranks([rating.shown for rating in ratings])
    return [
        RatedMember(row["user_id"], rating, unix_time(row["updated_at"]), rank)
        for row, rating, rank in zip(rows, ratings, ranks, strict=True)
    ]


class RatingRepository:
    def __init__(self, db: Storage):
        self.db = db

    # --- writing ------------------------------------------------------------------------------------

    async def rate_match(
        self,
        conn: StorageTransaction,
        guild_id: int,
        match_id: int,
        players: tuple[int, int],
        winner: int | None,
        reason: str,
        now: float,
    ) -> RatedMatch:
        """Rate a finished match between two members (RULINGS 7: never one against the AI) in `conn`, the
        transaction that ends it: `winner` is the winning slot (0 or 1; None for a draw), `reason` how it ended.
        Both members' ratings and their history change; the result is the players' changes in slot order. A
        match already rated is returned as it was rated, and nothing changes."""
        first, second = players
        if first == second:
            raise ValueError(f"match {match_id}: a member cannot be rated against themselves")
        # Each member's rating is read, worked out and written back: a member's lock keeps two matches that end
        # at once from both starting from the same rating. Taken in one order, so two such matches never
        # wait for each other both ways.
        for user_id in sorted(players):
            await conn.lock(f"mma rating {guild_id}", user_id)
        done = await self._stored(conn, match_id, players)
        if done is not None:
            return done
        before = [await self._rating(conn, guild_id, user_id) for user_id in players]
        rated = rate_match(before[0], before[1], Result.of_slot(0, winner))
        for slot, change in enumerate((rated.first, rated.second)):
            user_id, after = players[slot], change.after
            await conn.execute(
                "INSERT INTO mma_ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "games = excluded.games, updated_at = excluded.updated_at",
                (guild_id, user_id, after.mu, after.sigma, after.games, stored_time(now)),
            )
            await conn.execute(
                "INSERT INTO mma_rating_changes (match_id, user_id, guild_id, opponent_id, result, reason, mu_before, "
                "sigma_before, mu_after, sigma_after, games_after, rated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    user_id,
                    guild_id,
                    players[1 - slot],
                    Result.of_slot(slot, winner).value,
                    reason,
                    change.before.mu,
                    change.before.sigma,
                    after.mu,
                    after.sigma,
                    after.games,
                    stored_time(now),
                ),
            )
        return rated

    async def recompute(self, now: float) -> int | None:
        """Rebuild every server's ratings and every stored change with the current model (rules.rating.MODEL_NAME),
        from the rated matches in the order they were rated, unless done already for this model; the number of
        matches recomputed (None: nothing to do). One transaction: a rating is never seen half recomputed. The
        results stored stand (who won each match); only the numbers follow the model, so the history's changes
        add up to the new ratings. A match whose other player erased their data keeps its remaining change, worked
        out with that player's rating as their matches made it."""
        # Read first, so a start-up with nothing to do opens no transaction. A database with no rated match has
        # nothing to recompute; its first ratings are the current model's, and recomputing them later changes nothing.
        if await self.db.fetch_one("SELECT model FROM mma_rating_models WHERE model = ?", (MODEL_NAME,)):
            return None
        if await self.db.fetch_one("SELECT match_id FROM mma_rating_changes LIMIT 1") is None:
            return None
        async with self.db.transaction() as conn:
            await conn.lock("mma rating model", 0)  # one process recomputes; the others find it recorded
            if await conn.fetch_one("SELECT model FROM mma_rating_models WHERE model = ?", (MODEL_NAME,)):
                return None
            rows = await conn.fetch_all(
                "SELECT match_id, user_id, guild_id, opponent_id, result FROM mma_rating_changes "
                "ORDER BY rated_at, match_id, user_id"
            )
            ratings: dict[tuple[int, int], Rating] = {}
            changes: list[tuple[float, float, float, float, int, int, int]] = []
            done: set[int] = set()
            for row in rows:
                if row["match_id"] in done:
                    continue  # the match's other row: rated with its first
                done.add(row["match_id"])
                guild, players = row["guild_id"], (row["user_id"], row["opponent_id"])
                rated = rate_match(
                    ratings.get((guild, players[0]), Rating()),
                    ratings.get((guild, players[1]), Rating()),
                    Result(row["result"]),
                )
                for user_id, change in zip(players, (rated.first, rated.second), strict=True):
                    ratings[guild, user_id] = change.after
                    before, after = change.before, change.after
                    changes.append(
                        (before.mu, before.sigma, after.mu, after.sigma, after.games, row["match_id"], user_id)
                    )
            await conn.execute_many(
                "UPDATE mma_rating_changes SET mu_before = ?, sigma_before = ?, mu_after = ?, sigma_after = ?, "
                "games_after = ? WHERE match_id = ? AND user_id = ?",
                changes,
            )
            await conn.execute_many(
                "UPDATE mma_ratings SET mu = ?, sigma = ?, games = ? WHERE guild_id = ? AND user_id = ?",
                [(r.mu, r.sigma, r.games, guild, user_id) for (guild, user_id), r in ratings.items()],
            )
            await conn.execute(
                "INSERT INTO mma_rating_models (model, recomputed_at, matches) VALUES (?, ?, ?)",
                (MODEL_NAME, stored_time(now), len(done)),
            )
            return len(done)

    @retried_on_conflict
    async def rate(
        self, guild_id: int, match_id: int, players: tuple[int, int], winner: int | None, reason: str, now: float
    ) -> RatedMatch:
        """`rate_match` as a unit of work of its own, for a match whose end was saved without its rating."""
        async with self.db.transaction() as conn:
            return await self.rate_match(conn, guild_id, match_id, players, winner, reason, now)

    @staticmethod
    async def _rating(reader: Storage | StorageTransaction, guild_id: int, user_id: int) -> Rating:
        row = await reader.fetch_one(
            "SELECT mu, sigma, games FROM mma_ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return Rating(row["mu"], row["sigma"], row["games"]) if row else Rating()

    @staticmethod
    async def _changes(reader: Storage | StorageTransaction, match_id: int) -> dict[int, RatingChange]:
        rows = await reader.fetch_all("SELECT * FROM mma_rating_changes WHERE match_id = ?", (match_id,))
        return {row["user_id"]: _rated_game(row).change for row in rows}

    @classmethod
    async def _stored(cls, conn: StorageTransaction, match_id: int, players: tuple[int, int]) -> RatedMatch | None:
        by_user = await cls._changes(conn, match_id)
        if not by_user:
            return None
        if set(by_user) != set(players):
            raise ValueError(f"match {match_id} was rated for members {sorted(by_user)}, not {sorted(players)}")
        return RatedMatch(by_user[players[0]], by_user[players[1]])

    # --- reading ------------------------------------------------------------------------------------

    async def rating(self, guild_id: int, user_id: int) -> Rating:
        """The member's rating here; a new player's (1500, provisional) if they have none yet."""
        return await self._rating(self.db, guild_id, user_id)

    async def ratings(self, guild_id: int, user_ids: list[int]) -> dict[int, Rating]:
        """Several members' ratings here (a new player's for a member never rated)."""
        return {user_id: await self._rating(self.db, guild_id, user_id) for user_id in user_ids}

    async def match_changes(self, match_id: int) -> dict[int, RatingChange]:
        """A rated match's changes by member (empty for a match not rated), for its final board."""
        return await self._changes(self.db, match_id)

    async def leaderboard(self, guild_id: int) -> Leaderboard:
        """Every rated member here: the established ranked by rating, the provisional apart. Members with the same
        shown rating share a rank; the list runs by the unrounded rating, then more rated games, then who got
        there first."""
        order = "ORDER BY mu DESC, games DESC, updated_at, user_id"
        established = await self.db.fetch_all(
            f"SELECT * FROM mma_ratings WHERE guild_id = ? AND NOT {_PROVISIONAL} {order}",
            (guild_id, *_PROVISIONAL_PARAMS),
        )
        provisional = await self.db.fetch_all(
            f"SELECT * FROM mma_ratings WHERE guild_id = ? AND {_PROVISIONAL} {order}", (guild_id, *_PROVISIONAL_PARAMS)
        )
        return Leaderboard(_ranked(established), _ranked(provisional))

    async def history(
        self, guild_id: int, user_id: int, *, limit: int | None = None, offset: int = 0
    ) -> list[RatedGame]:
        """The member's rated matches here, newest first (`limit` None: all of them)."""
        sql = (
            "SELECT * FROM mma_rating_changes WHERE guild_id = ? AND user_id = ? ORDER BY rated_at DESC, match_id DESC"
        )
        params: tuple[int, ...] = (guild_id, user_id)
        if limit is not None:
            sql, params = sql + " LIMIT ? OFFSET ?", (*params, limit, offset)
        elif offset:
            raise ValueError("a page of the history needs its length (limit) as well as its offset")
        rows = await self.db.fetch_all(sql, params)
        return [_rated_game(r) for r in rows]

    async def history_count(self, guild_id: int, user_id: int) -> int:
        row = await self.db.fetch_one(
            "SELECT count(*) AS games FROM mma_rating_changes WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return required(row)["games"]

    async def head_to_heads(self, guild_id: int, user_id: int) -> list[HeadToHead]:
        """The member's rated matches against each opponent here, the most played first."""
        rows = await self.db.fetch_all(
            "SELECT opponent_id, "
            "sum(CASE WHEN result = ? THEN 1 ELSE 0 END) AS wins, "
            "sum(CASE WHEN result = ? THEN 1 ELSE 0 END) AS losses, "
            "sum(CASE WHEN result = ? THEN 1 ELSE 0 END) AS draws, "
            "max(rated_at) AS last_played "
            "FROM mma_rating_changes WHERE guild_id = ? AND user_id = ? GROUP BY opponent_id "
            "ORDER BY count(*) DESC, max(rated_at) DESC, opponent_id",
            (Result.WIN, Result.LOSS, Result.DRAW, guild_id, user_id),
        )
        return [
            HeadToHead(r["opponent_id"], Tally(r["wins"], r["losses"], r["draws"]), unix_time(r["last_played"]))
            for r in rows
        ]


# A rating is the member's own; a change names the opponent too, and stands for them (RULINGS 8). The rating
# model is the installation's, no server's.
TABLES = Tables(
    "MMA ratings",
    (
        Table("mma_ratings", "MMA rating", members=(Owned("user_id"),)),
        Table(
            "mma_rating_changes",
            "MMA rating changes",
            members=(Owned("user_id"), Mentioned("opponent_id")),
            references=("mma_matches",),
            order="rated_at, match_id",
        ),
        Table("mma_rating_models", server=None),
    ),
)


__all__ = ["TABLES", "HeadToHead", "Leaderboard", "RatedGame", "RatedMember", "RatingRepository"]
