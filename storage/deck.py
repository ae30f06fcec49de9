"""/deck storage: the result of each optimization run in a server, for the member's best (their profile)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.deck.optimize import Score
from storage.protocol import Row, Storage
from storage.rows import utc_now_text
from storage.tables import InWorker, Owned, Table, Tables


@dataclass(frozen=True)
class DeckResult:
    """An optimization's result deck as measured afresh after the run (`OptimizeResult.deck_score`)."""

    guild_id: int
    user_id: int
    seed: int
    iterations: int  # asked for
    iterations_done: int
    games: int  # per iteration
    opponent_file: str | None  # None: a random deck from the seed
    score: Score
    finished_at: str = ""  # utc_now_text's format; set when recorded


def _result(row: Row) -> DeckResult:
    return DeckResult(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        seed=row["seed"],
        iterations=row["iterations"],
        iterations_done=row["iterations_done"],
        games=row["games"],
        opponent_file=row["opponent_file"],
        score=Score(row["wins"], row["losses"], row["ties"]),
        finished_at=row["finished_at"],
    )


class DeckRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def record_result(self, result: DeckResult) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO deck_results (guild_id, user_id, seed, iterations, iterations_done, games, opponent_file, "
                "wins, losses, ties, winrate, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    result.guild_id,
                    result.user_id,
                    result.seed,
                    result.iterations,
                    result.iterations_done,
                    result.games,
                    result.opponent_file,
                    result.score.wins,
                    result.score.losses,
                    result.score.ties,
                    result.score.winrate,
                    utc_now_text(),
                ),
            )

    async def best_result(self, guild_id: int, user_id: int) -> DeckResult | None:
        """The member's highest fresh winrate in this server (a tie: the one measured over more games, then the
        first), or None before their first optimization here."""
        row = await self.db.fetch_one(
            "SELECT * FROM deck_results WHERE guild_id = ? AND user_id = ? "
            "ORDER BY winrate DESC, wins + losses + ties DESC, id LIMIT 1",
            (guild_id, user_id),
        )
        return _result(row) if row else None


@dataclass(frozen=True)
class DeckProfile:
    """The deck optimizer on a member's profile: their best result here."""

    best: DeckResult | None  # None: no optimization recorded here

    @property
    def empty(self) -> bool:
        return self.best is None


async def _profile(db: Storage, guild_id: int, user_id: int, in_worker: InWorker) -> DeckProfile:
    return DeckProfile(await DeckRepository(db).best_result(guild_id, user_id))


TABLES = Tables(
    "deck optimizer",
    (Table("deck_results", "deck optimizer results", members=(Owned("user_id"),), order="id"),),
    profile=_profile,
)


__all__ = ["TABLES", "DeckProfile", "DeckRepository", "DeckResult"]
