"""MMA Warriors tournaments: the sign-up, the engine's state after every step, and the match each board is played
as (docs/rules/tournament.md).

A tournament is one row, versioned like a match: the sign-up list lives in its own rows (joins and leaves of
different members never wait for each other), and once it starts the engine's whole `TournamentState` is stored
in the row. Each step is stored before the bot acts on it: a round is saved with its matches in one transaction
(`storage.mma.MmaRepository.start_round`), and a board's result in the transaction that ends its match
(`record_match_end`, in storage/mma/ending.py), so after a restart the stored state says what is left to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from rules.rating import Rating, RatingChange
from rules.tournament import Result as BoardResult
from rules.tournament import TournamentState, is_finished, match_result, record_result, renamed, withdraw
from storage.codec import StateCodec
from storage.protocol import Row, Storage, StorageTransaction
from storage.retry import retried_on_conflict
from storage.rows import utc_now_text
from storage.tables import FORMER_MEMBER, FORMER_MEMBER_NAME, Going, InPlay, Kept, Owned, Parent, Table, Tables
from storage.times import stored_time, unix_time
from storage.versioned import save_versioned

TOURNAMENT_STATE = StateCodec(
    "MMA tournament", 1, lambda state: state.model_dump(mode="json"), TournamentState.model_validate
)


class TournamentStatus(StrEnum):
    SIGNUP = "signup"  # members join and leave
    RUNNING = "running"  # rounds are played
    FINISHED = "finished"  # the last round is over: the standings are final
    CANCELLED = "cancelled"  # by its game master, or its channel was deleted


OPEN = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)  # a tournament's statuses before its end


@dataclass(frozen=True)
class Entrant:
    user_id: int
    name: str


@dataclass(frozen=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    created_by: int
    status: TournamentStatus
    rounds: int | None  # asked for; None: what the field needs
    starts_at: datetime | None  # when it starts on its own
    message_id: int | None  # the sign-up message, then the standings
    podium_message_id: int | None
    state: TournamentState | None  # None while signing up
    version: int
    created_at: str
    ended_at: str | None
    entrants: tuple[Entrant, ...] = ()  # the sign-up list, in order of joining (read while signing up)

    @property
    def game(self) -> TournamentState:
        """The engine's state of a tournament that has started."""
        if self.state is None:
            raise RuntimeError(f"tournament {self.id} has not started: it has no state")
        return self.state


class TournamentConflict(Exception):
    """A channel already has a tournament signing up or running."""

    def __init__(self, tournament: Tournament):
        super().__init__(f"channel {tournament.channel_id} has tournament {tournament.id}")
        self.tournament = tournament


class SignupClosed(Exception):
    """The tournament is no longer taking sign-ups (started, cancelled or finished)."""

    def __init__(self, tournament: Tournament):
        super().__init__(f"tournament {tournament.id} is {tournament.status}")
        self.tournament = tournament


class FieldFull(Exception):
    """The tournament has as many players as it takes."""

    def __init__(self, limit: int):
        super().__init__(f"{limit} players at most")
        self.limit = limit


def _tournament(row: Row, entrants: tuple[Entrant, ...] = ()) -> Tournament:
    starts_at = row["starts_at"]
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        created_by=row["created_by"],
        status=TournamentStatus(row["status"]),
        rounds=row["rounds"],
        starts_at=None if starts_at is None else datetime.fromtimestamp(unix_time(starts_at), UTC),
        message_id=row["message_id"],
        podium_message_id=row["podium_message_id"],
        state=None if row["state_json"] is None else TOURNAMENT_STATE.from_text(row["state_json"], row["id"]),
        version=row["version"],
        created_at=row["created_at"],
        ended_at=row["ended_at"],
        entrants=entrants,
    )


async def save_state(
    conn: StorageTransaction, tournament: Tournament, state: TournamentState, *, status: TournamentStatus
) -> Tournament:
    """The tournament's state saved (and its status, finished once the engine says so) if nobody saved since
    `tournament` was read; StaleUpdate otherwise."""
    ended = is_finished(state) and status is TournamentStatus.RUNNING
    changes: dict[str, Any] = {
        "state_json": TOURNAMENT_STATE.to_text(state),
        "status": TournamentStatus.FINISHED if ended else status,
    }
    if ended:
        changes["ended_at"] = utc_now_text()
    row = await save_versioned(
        conn, "mma_tournaments", tournament.id, tournament.version, changes, status=tournament.status
    )
    return _tournament(row)


async def add_board_match(
    conn: StorageTransaction, tournament_id: int, round_number: int, board: int, match_id: int
) -> None:
    """The match a board of a round is played as, stored with the round (storage.mma's start_round)."""
    await conn.execute(
        "INSERT INTO mma_tournament_games (tournament_id, round, board, match_id) VALUES (?, ?, ?, ?)",
        (tournament_id, round_number, board, match_id),
    )


async def record_match_end(
    conn: StorageTransaction, match_id: int, winner: int | None, *, played: bool, withdrawing: int | None = None
) -> BoardResult | None:
    """In the transaction that ends match `match_id`: the result of the board it was played for, recorded in its
    running tournament (None: the match is no tournament's, or its tournament was cancelled); and, for a match a
    player ended by withdrawing (`withdrawing`), their withdrawal with it, so neither is stored without the other."""
    game = await conn.fetch_one(
        "SELECT tournament_id, round, board FROM mma_tournament_games WHERE match_id = ?", (match_id,)
    )
    if game is None:
        return None
    row = await conn.fetch_locked("SELECT * FROM mma_tournaments WHERE id = ?", (game["tournament_id"],))
    if row is None or row["status"] != TournamentStatus.RUNNING:
        return None
    tournament = _tournament(row)
    result = match_result(winner, played=played)
    state = record_result(tournament.game, game["round"], game["board"], result)
    if withdrawing is not None and not is_finished(state):  # the last board of the last round: nothing is left
        state = withdraw(state, withdrawing)
    await save_state(conn, tournament, state, status=TournamentStatus.RUNNING)
    return result


async def _lock_signing_up(conn: StorageTransaction, tournament_id: int) -> None:
    """Hold the tournament's row until the transaction ends; SignupClosed once it is no longer signing up."""
    row = await conn.fetch_locked("SELECT * FROM mma_tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        raise LookupError(f"no tournament {tournament_id}")
    if row["status"] != TournamentStatus.SIGNUP:
        raise SignupClosed(_tournament(row))


async def _field_changed(conn: StorageTransaction, tournament_id: int) -> None:
    """A join or a leave moves the tournament's version on: a start that read the field before it is a stale
    save, and reads the field again (cogs.mma.tournaments.rounds.begin)."""
    await conn.execute("UPDATE mma_tournaments SET version = version + 1 WHERE id = ?", (tournament_id,))


class TournamentRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def _entrants(self, tournament_id: int) -> tuple[Entrant, ...]:
        rows = await self.db.fetch_all(
            "SELECT user_id, name FROM mma_tournament_entrants WHERE tournament_id = ? ORDER BY joined_at, user_id",
            (tournament_id,),
        )
        return tuple(Entrant(row["user_id"], row["name"]) for row in rows)

    async def get(self, tournament_id: int) -> Tournament | None:
        row = await self.db.fetch_one("SELECT * FROM mma_tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row, await self._entrants(tournament_id))

    async def open_in(self, channel_id: int) -> Tournament | None:
        """The channel's tournament signing up or running, if any."""
        row = await self.db.fetch_one(
            "SELECT * FROM mma_tournaments WHERE channel_id = ? AND status IN (?, ?)",
            (channel_id, *OPEN),
        )
        return None if row is None else _tournament(row, await self._entrants(row["id"]))

    async def open_everywhere(self) -> list[Tournament]:
        """Every tournament signing up or running, and every finished one whose podium was never posted (Discord
        refused it, or the process stopped first), oldest first: what a process resumes when it starts."""
        rows = await self.db.fetch_all(
            "SELECT * FROM mma_tournaments WHERE status IN (?, ?) OR (status = ? AND podium_message_id IS NULL) "
            "ORDER BY id",
            (*OPEN, TournamentStatus.FINISHED),
        )
        return [_tournament(row, await self._entrants(row["id"])) for row in rows]

    @retried_on_conflict
    async def create(
        self, guild_id: int, channel_id: int, created_by: int, rounds: int | None, starts_at: datetime | None
    ) -> Tournament:
        """A tournament signing up in the channel; TournamentConflict if the channel has one open."""
        async with self.db.transaction() as conn:
            await conn.lock("mma tournament channel", channel_id)
            open_row = await conn.fetch_one(
                "SELECT * FROM mma_tournaments WHERE channel_id = ? AND status IN (?, ?)",
                (channel_id, *OPEN),
            )
            if open_row is not None:
                raise TournamentConflict(_tournament(open_row))
            row = await conn.fetch_required(
                "INSERT INTO mma_tournaments (guild_id, channel_id, created_by, status, rounds, starts_at, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    created_by,
                    TournamentStatus.SIGNUP,
                    rounds,
                    None if starts_at is None else stored_time(starts_at.timestamp()),
                    utc_now_text(),
                ),
            )
            return _tournament(row)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE mma_tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def set_podium_message(self, tournament_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE mma_tournaments SET podium_message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def join(self, tournament_id: int, user_id: int, name: str, *, limit: int) -> bool:
        """Sign a member up; False if they already were. SignupClosed once it has started or ended, FieldFull
        when `limit` players are in."""
        async with self.db.transaction() as conn:
            await _lock_signing_up(conn, tournament_id)
            if await conn.fetch_one(
                "SELECT 1 AS present FROM mma_tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            ):
                return False
            entered = await conn.fetch_required(
                "SELECT count(*) AS n FROM mma_tournament_entrants WHERE tournament_id = ?", (tournament_id,)
            )
            if entered["n"] >= limit:
                raise FieldFull(limit)
            await conn.execute(
                "INSERT INTO mma_tournament_entrants (tournament_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
                (tournament_id, user_id, name, utc_now_text()),
            )
            await _field_changed(conn, tournament_id)
            return True

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Take a member off the sign-up list; False if they were not on it. SignupClosed once it has started."""
        async with self.db.transaction() as conn:
            await _lock_signing_up(conn, tournament_id)
            removed = await conn.execute(
                "DELETE FROM mma_tournament_entrants WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
            )
            if removed:
                await _field_changed(conn, tournament_id)
            return removed > 0

    async def tournament_of(self, match_id: int) -> int | None:
        """The tournament a match is a board of, if any."""
        row = await self.db.fetch_one("SELECT tournament_id FROM mma_tournament_games WHERE match_id = ?", (match_id,))
        return None if row is None else row["tournament_id"]

    async def clear_start(self, tournament_id: int) -> None:
        """Its start time passed without enough players: from now on its game master starts it."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE mma_tournaments SET starts_at = NULL WHERE id = ?", (tournament_id,))

    async def save(self, tournament: Tournament, state: TournamentState) -> Tournament:
        """A change the engine made outside a match (a withdrawal) saved; StaleUpdate if someone saved first."""
        async with self.db.transaction() as conn:
            return await save_state(conn, tournament, state, status=tournament.status)

    async def cancel(self, tournament: Tournament) -> Tournament:
        """Cancelled by its game master; StaleUpdate if it changed since it was read. Its matches going on stay
        ordinary member matches."""
        async with self.db.transaction() as conn:
            row = await save_versioned(
                conn,
                "mma_tournaments",
                tournament.id,
                tournament.version,
                {"status": TournamentStatus.CANCELLED, "ended_at": utc_now_text()},
                status=tournament.status,
            )
            return _tournament(row)

    async def end_channel(self, channel_id: int) -> list[Tournament]:
        """The channel was deleted: its open tournament is cancelled (its rows kept)."""
        async with self.db.transaction() as conn:
            rows = await conn.fetch_all(
                "UPDATE mma_tournaments SET status = ?, ended_at = ?, version = version + 1 "
                "WHERE channel_id = ? AND status IN (?, ?) RETURNING *",
                (
                    TournamentStatus.CANCELLED,
                    utc_now_text(),
                    channel_id,
                    TournamentStatus.SIGNUP,
                    TournamentStatus.RUNNING,
                ),
            )
        return [_tournament(row) for row in rows]

    async def match_ids(self, tournament_id: int, round_number: int) -> dict[int, int]:
        """Board -> match id of one round."""
        rows = await self.db.fetch_all(
            "SELECT board, match_id FROM mma_tournament_games WHERE tournament_id = ? AND round = ? ORDER BY board",
            (tournament_id, round_number),
        )
        return {row["board"]: row["match_id"] for row in rows}

    async def rating_changes(self, tournament_id: int) -> dict[int, RatingChange]:
        """Each player's rating change over the tournament: before their first rated game of it, after their
        last. Players with no rated game in it (byes and forfeits only) are left out."""
        rows = await self.db.fetch_all(
            "SELECT c.user_id, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after, c.games_after "
            "FROM mma_rating_changes c JOIN mma_tournament_games g ON g.match_id = c.match_id "
            "WHERE g.tournament_id = ? ORDER BY g.round, c.match_id",
            (tournament_id,),
        )
        changes: dict[int, RatingChange] = {}
        for row in rows:
            after = Rating(row["mu_after"], row["sigma_after"], row["games_after"])
            first = changes.get(row["user_id"])
            before = first.before if first else Rating(row["mu_before"], row["sigma_before"], row["games_after"] - 1)
            changes[row["user_id"]] = RatingChange(before, after)
        return changes

    async def finished(self, guild_id: int, *, limit: int, offset: int = 0) -> list[Tournament]:
        """A page of the server's finished tournaments, newest first."""
        rows = await self.db.fetch_all(
            "SELECT * FROM mma_tournaments WHERE guild_id = ? AND status = ? ORDER BY ended_at DESC, id DESC "
            "LIMIT ? OFFSET ?",
            (guild_id, TournamentStatus.FINISHED, limit, offset),
        )
        return [_tournament(row) for row in rows]

    async def finished_count(self, guild_id: int) -> int:
        row = await self.db.fetch_one(
            "SELECT count(*) AS tournaments FROM mma_tournaments WHERE guild_id = ? AND status = ?",
            (guild_id, TournamentStatus.FINISHED),
        )
        return 0 if row is None else row["tournaments"]


async def _forget_in_tournaments(conn: StorageTransaction, guild_id: int, user_id: int) -> None:
    """In every tournament the member played, they become a former member: their games and place stay for the
    others. Each gets an id of its own below FORMER_MEMBER, so two forgotten players of one table stay apart.
    Run before their sign-ups are erased: those say which tournaments name them."""
    rows = await conn.fetch_all(
        "SELECT t.id, t.state_json FROM mma_tournaments t JOIN mma_tournament_entrants e ON e.tournament_id = t.id "
        "WHERE t.guild_id = ? AND e.user_id = ? AND t.state_json IS NOT NULL ORDER BY t.id",
        (guild_id, user_id),
    )
    for row in rows:
        state = TOURNAMENT_STATE.from_text(row["state_json"], row["id"])
        former = min([FORMER_MEMBER, *(player.id for player in state.players)]) - 1
        state = renamed(state, user_id, former, FORMER_MEMBER_NAME)
        await conn.execute(
            "UPDATE mma_tournaments SET state_json = ? WHERE id = ?", (TOURNAMENT_STATE.to_text(state), row["id"])
        )


# A tournament stays with its opener as a former member, and with its players renamed in its stored state; a
# sign-up is its member's. A member signed up for a tournament that is not over waits for its end to erase
# their data. Its message ids and state are the server's, not the opener's, so their copy leaves them out.
_TOURNAMENTS = Table(
    "mma_tournaments",
    "MMA tournaments opened",
    members=(Kept("created_by"),),
    columns="id, guild_id, channel_id, created_by, status, rounds, starts_at, created_at, ended_at",
    order="id",
    in_play=InPlay(
        "status IN (?, ?)",
        OPEN,
        Going(
            "MMA tournament",
            "MMA tournaments",
            member="id IN (SELECT tournament_id FROM mma_tournament_entrants WHERE user_id = ?)",
            advice="a tournament's Leave button while it signs up, or its end once it runs",
        ),
    ),
    forget_first=_forget_in_tournaments,
)
TABLES = Tables(
    "MMA tournaments",
    (
        Table(
            "mma_tournament_entrants",
            "MMA tournaments entered",
            server=None,
            parent=Parent("tournament_id", _TOURNAMENTS),
            members=(Owned("user_id"),),
            order="tournament_id",
        ),
        _TOURNAMENTS,
        Table(
            "mma_tournament_games",
            server=None,
            parent=Parent("tournament_id", _TOURNAMENTS),
            references=("mma_matches",),
        ),
    ),
)


__all__ = [
    "OPEN",
    "TABLES",
    "TOURNAMENT_STATE",
    "Entrant",
    "FieldFull",
    "SignupClosed",
    "Tournament",
    "TournamentConflict",
    "TournamentRepository",
    "TournamentStatus",
    "add_board_match",
    "record_match_end",
    "save_state",
]
