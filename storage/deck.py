"""/deck storage: the result of each optimization run in a server, for the member's best (their profile), and
every running optimization with its last checkpoint, from which the next process resumes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.deck.cards import Keyword, read_deck_csv
from rules.deck.optimize import Checkpoint, OptimizeSettings, Score
from storage.codec import StateCodec
from storage.protocol import Row, Storage, StorageTransaction
from storage.rows import from_row, utc_now_text
from storage.tables import InWorker, Owned, Table, Tables
from storage.times import stored_time, unix_time


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


@dataclass(frozen=True)
class JobState:
    """What a job needs to go on in another process: its settings and its last checkpoint (None before one)."""

    settings: OptimizeSettings
    checkpoint: Checkpoint | None


def _job_data(state: JobState) -> dict[str, Any]:
    s, c = state.settings, state.checkpoint
    return {
        "iterations": s.iterations,
        "games": s.games,
        "seed": str(s.seed),  # as text: a seed is up to 2**63, past the integers every JSON reader keeps exact
        "keywords": sorted(k.column for k in s.keywords),
        "opponent_csv": None if s.opponent is None else s.opponent.to_csv(),
        "max_total_games": s.max_total_games,
        "checkpoint": None
        if c is None
        else {
            "iterations_done": c.iterations_done,
            "start_wins": c.start_wins,
            "reference": list(c.reference),
            "accepted": [list(swap) for swap in c.accepted],
            "random_state": list(c.random_state),
        },
    }


def _job_state(data: dict[str, Any]) -> JobState:
    keywords = frozenset(k for k in Keyword if k.column in data["keywords"])
    opponent_csv = data["opponent_csv"]
    settings = OptimizeSettings(
        iterations=data["iterations"],
        games=data["games"],
        seed=int(data["seed"]),
        keywords=keywords,
        opponent=None if opponent_csv is None else read_deck_csv(opponent_csv, "opponent", keywords),
        max_total_games=data["max_total_games"],
    )
    c = data["checkpoint"]
    checkpoint = (
        None
        if c is None
        else Checkpoint(
            iterations_done=c["iterations_done"],
            start_wins=c["start_wins"],
            reference=tuple(c["reference"]),
            accepted=tuple((a, b, d, e) for a, b, d, e in c["accepted"]),
            random_state=tuple(c["random_state"]),
        )
    )
    return JobState(settings, checkpoint)


JOB_STATE = StateCodec("deck optimization", 1, _job_data, _job_state)


@dataclass(frozen=True)
class StoredJob:
    """A running optimization as the next process finds it."""

    id: str
    guild_id: int | None
    channel_id: int
    message_id: int | None
    user_id: int
    requester: str
    opponent_file: str | None
    state: JobState
    seconds: float  # work done up to the checkpoint
    started_at: float  # unix time


async def _insert_result(conn: StorageTransaction, result: DeckResult) -> None:
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


class DeckRepository:
    """The results kept (`deck_results`), and the running optimizations (`deck_jobs`: one row per job from its
    start to its end, its checkpoint replaced as it runs)."""

    def __init__(self, db: Storage):
        self.db = db

    async def record_result(self, result: DeckResult) -> None:
        async with self.db.transaction() as conn:
            await _insert_result(conn, result)

    async def best_result(self, guild_id: int, user_id: int) -> DeckResult | None:
        """The member's highest fresh winrate in this server (a tie: the one measured over more games, then the
        first), or None before their first optimization here."""
        row = await self.db.fetch_one(
            "SELECT * FROM deck_results WHERE guild_id = ? AND user_id = ? "
            "ORDER BY winrate DESC, wins + losses + ties DESC, id LIMIT 1",
            (guild_id, user_id),
        )
        return _result(row) if row else None

    async def job_started(self, job: StoredJob) -> None:
        now = utc_now_text()
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO deck_jobs (id, guild_id, channel_id, message_id, user_id, requester, opponent_file, "
                "state_json, seconds, started_at, saved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    job.id,
                    job.guild_id,
                    job.channel_id,
                    job.message_id,
                    job.user_id,
                    job.requester,
                    job.opponent_file,
                    JOB_STATE.to_text(job.state),
                    job.seconds,
                    stored_time(job.started_at),
                    now,
                ),
            )

    async def shown_in(self, job_id: str, message_id: int) -> None:
        """The job's progress message is `message_id` (posted anew after a restart when the old one was deleted)."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE deck_jobs SET message_id = ? WHERE id = ?", (message_id, job_id))

    async def checkpoint(self, job_id: str, state: JobState, seconds: float) -> bool:
        """Replace the job's checkpoint; False if its row is gone (the member's data erased meanwhile)."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE deck_jobs SET state_json = ?, seconds = ?, saved_at = ? WHERE id = ?",
                (JOB_STATE.to_text(state), seconds, utc_now_text(), job_id),
            )
        return changed > 0

    async def job_ended(self, job_id: str, result: DeckResult | None) -> None:
        """The job is over: its row goes, and its result deck's fresh measurement is kept for the member's best
        (a run in a server), unless the member erased their data while it ran (the row is gone then)."""
        async with self.db.transaction() as conn:
            was_running = await conn.execute("DELETE FROM deck_jobs WHERE id = ?", (job_id,))
            if result is None or not was_running:
                return
            await _insert_result(conn, result)

    async def unfinished_jobs(self) -> list[StoredJob]:
        """Every job a process left running, oldest first."""
        rows = await self.db.fetch_all("SELECT * FROM deck_jobs ORDER BY started_at, id")
        return [
            from_row(
                StoredJob,
                row,
                state=JOB_STATE.from_text(row["state_json"]),
                started_at=unix_time(row["started_at"]),
            )
            for row in rows
        ]


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
    (
        Table("deck_results", "deck optimizer results", members=(Owned("user_id"),), order="id"),
        Table(
            "deck_jobs",
            "deck optimizations running (their settings and last checkpoint)",
            members=(Owned("user_id"),),
            order="started_at, id",
        ),
    ),
    profile=_profile,
)


__all__ = ["JOB_STATE", "TABLES", "DeckProfile", "DeckRepository", "DeckResult", "JobState", "StoredJob"]
