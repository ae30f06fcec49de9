"""MMA Warriors storage: challenges and matches (state saved after every move), the move log, and records."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.mma.cards import CARDS
from rules.mma.state import MAIN_PHASE, OVER, Action, GameState
from storage.codec import StateCodec
from storage.database import StaleUpdate, Storage, StorageTransaction, required, save_versioned


def _match_data(state: GameState) -> dict[str, Any]:
    # `resume` is always the main phase now; it is still written so that the previous release, which requires
    # it, reads the matches this one saves while both serve during a restart. Drop it with a version 2.
    return {**state.to_dict(), "resume": MAIN_PHASE}


MATCH_STATE = StateCodec("MMA match", 1, _match_data, GameState.from_dict)


class MatchStatus(StrEnum):
    PENDING = "pending"  # a challenge not yet answered
    LIVE = "live"
    OVER = "over"
    DECLINED = "declined"
    EXPIRED = "expired"  # a challenge left unanswered


ACTIVE = (MatchStatus.PENDING, MatchStatus.LIVE)


@dataclass(frozen=True)
class MatchRecord:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    player_ids: tuple[int, int | None]  # None: the AI
    names: tuple[str, str]  # display names, escaped when the match was made; the AI's is "AI"
    status: MatchStatus
    seed: int
    state: GameState | None  # None while the challenge is pending
    feed: tuple[str, ...]
    version: int
    last_move_at: float
    winner_slot: int | None
    result_reason: str | None
    ping_message_id: int | None = None  # the message that pinged the player the match waits for

    @property
    def vs_ai(self) -> bool:
        return self.player_ids[1] is None

    @property
    def game(self) -> GameState:
        """The match's state, for a match that has one (every match but a pending challenge)."""
        if self.state is None:
            raise RuntimeError(f"match {self.id} is a challenge not yet accepted: it has no game state")
        return self.state

    def slot_of(self, user_id: int) -> int | None:
        """0 or 1 for a player of this match, None for anyone else."""
        if user_id == self.player_ids[0]:
            return 0
        if self.player_ids[1] is not None and user_id == self.player_ids[1]:
            return 1
        return None


@dataclass(frozen=True)
class Record:
    wins: int
    losses: int
    draws: int
    wins_vs_ai: int
    losses_vs_ai: int

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True)
class FighterUse:
    fighter: str
    matches: int
    wins: int


@dataclass(frozen=True)
class Standing:
    user_id: int
    wins: int
    losses: int
    draws: int


class MatchConflict(Exception):
    """A player already has a challenge or a match going in this channel."""

    def __init__(self, user_id: int, match: MatchRecord):
        super().__init__(f"user {user_id} is busy with match {match.id}")
        self.user_id = user_id
        self.match = match


def _record(row) -> MatchRecord:
    state = MATCH_STATE.from_text(row["state_json"]) if row["state_json"] else None
    return MatchRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        player_ids=(row["player0_id"], row["player1_id"]),
        names=(row["player0_name"], row["player1_name"]),
        status=MatchStatus(row["status"]),
        seed=row["seed"],
        state=state,
        feed=tuple(json.loads(row["feed_json"])),
        version=row["version"],
        last_move_at=row["last_move_at"],
        winner_slot=row["winner_slot"],
        result_reason=row["result_reason"],
        ping_message_id=row["ping_message_id"],
    )


class MmaRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def get(self, match_id: int) -> MatchRecord | None:
        row = await self.db.fetch_one("SELECT * FROM mma_matches WHERE id = ?", (match_id,))
        return _record(row) if row else None

    async def live_between_members(self) -> list[MatchRecord]:
        """Every live match between two members (their boards wait for an idle claim to open)."""
        rows = await self.db.fetch_all(
            "SELECT * FROM mma_matches WHERE status = ? AND player1_id IS NOT NULL ORDER BY id", (MatchStatus.LIVE,)
        )
        return [_record(row) for row in rows]

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        players: tuple[int, int | None],
        names: tuple[str, str],
        seed: int,
        now: float,
        *,
        state: GameState | None,
        feed: list[str],
        expire_before: float,
    ) -> MatchRecord:
        """A pending challenge (state None) or a live match against the AI (state given).

        Refused with MatchConflict when either human already has an active match in the channel;
        challenges left unanswered since `expire_before` expire first and do not count.
        """
        async with self.db.transaction() as conn:
            # No row or constraint can say "this member has no other match here", so the channel's new matches
            # are made one at a time; moves, and other channels, never wait for this.
            await conn.lock("mma channel", channel_id)
            await conn.execute(
                "UPDATE mma_matches SET status = 'expired' WHERE channel_id = ? AND status = 'pending' "
                "AND last_move_at < ?",
                (channel_id, expire_before),
            )
            for user_id in players:
                if user_id is None:
                    continue
                busy = await conn.fetch_one(
                    "SELECT * FROM mma_matches WHERE channel_id = ? AND status IN ('pending', 'live') "
                    "AND (player0_id = ? OR player1_id = ?) ORDER BY id LIMIT 1",
                    (channel_id, user_id, user_id),
                )
                if busy is not None:
                    raise MatchConflict(user_id, _record(busy))
            return _record(
                await conn.fetch_one(
                    "INSERT INTO mma_matches (guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
                    "status, seed, state_json, feed_json, last_move_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "RETURNING *",
                    (
                        guild_id,
                        channel_id,
                        players[0],
                        names[0],
                        players[1],
                        names[1],
                        MatchStatus.PENDING if state is None else MatchStatus.LIVE,
                        seed,
                        MATCH_STATE.to_text(state) if state else None,
                        json.dumps(feed),
                        now,
                    ),
                )
            )

    async def set_message(self, match_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE mma_matches SET message_id = ? WHERE id = ?", (message_id, match_id))

    async def set_ping(self, match_id: int, message_id: int | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE mma_matches SET ping_message_id = ? WHERE id = ?", (message_id, match_id))

    async def delete(self, match_id: int) -> None:
        """Remove a match whose message could not be posted."""
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM mma_matches WHERE id = ?", (match_id,))

    async def answer_challenge(
        self,
        match: MatchRecord,
        status: MatchStatus,
        now: float,
        *,
        state: GameState | None = None,
        feed: list[str] | None = None,
    ) -> MatchRecord:
        """Pending -> live (with the dealt state), declined or expired; StaleUpdate if it was answered already."""
        if status not in (MatchStatus.LIVE, MatchStatus.DECLINED, MatchStatus.EXPIRED):
            raise ValueError(f"a challenge cannot become {status!r}")
        changes = {
            "status": status,
            "state_json": MATCH_STATE.to_text(state) if state else None,
            "feed_json": json.dumps(feed or []),
            "last_move_at": now,
        }
        async with self.db.transaction() as conn:
            row = await save_versioned(
                conn, "mma_matches", match.id, match.version, changes, status=MatchStatus.PENDING
            )
            return _record(row)

    async def save_moves(
        self, match: MatchRecord, state: GameState, feed: list[str], moves: list[Action], now: float
    ) -> MatchRecord:
        """Save the state after `moves` (numbered from the state's move count before them) in one
        transaction, if nobody saved since `match` was read; a finished match also writes the records."""
        over = state.phase == OVER
        changes = {
            "state_json": MATCH_STATE.to_text(state),
            "feed_json": json.dumps(feed),
            "last_move_at": now,
            "status": MatchStatus.OVER if over else MatchStatus.LIVE,
            "winner_slot": None if not over or state.winner < 0 else state.winner,
            "result_reason": state.reason if over else None,
        }
        async with self.db.transaction() as conn:
            row = await save_versioned(conn, "mma_matches", match.id, match.version, changes, status=MatchStatus.LIVE)
            first = state.moves - len(moves)
            await conn.execute_many(
                "INSERT INTO mma_moves (match_id, seq, slot, action_json, made_at) VALUES (?, ?, ?, ?, ?)",
                [
                    (match.id, first + i, action.player, json.dumps(action.to_dict()), now)
                    for i, action in enumerate(moves)
                ],
            )
            if over:
                await self._write_results(conn, match, state, now)
            return _record(row)

    async def _write_results(self, conn: StorageTransaction, match: MatchRecord, state: GameState, now: float) -> None:
        for slot, user_id in enumerate(match.player_ids):
            if user_id is None:
                continue
            outcome = "draw" if state.winner < 0 else "win" if state.winner == slot else "loss"
            await conn.execute(
                "INSERT INTO mma_results (guild_id, user_id, match_id, outcome, opponent_id, reason, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match.guild_id, user_id, match.id, outcome, match.player_ids[1 - slot], state.reason, now),
            )
            await conn.execute_many(
                "INSERT INTO mma_fielded (guild_id, user_id, match_id, fighter, won) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                [
                    (match.guild_id, user_id, match.id, CARDS[f].name, int(outcome == "win"))
                    for f in state.players[slot].fielded
                ],
            )

    async def moves(self, match_id: int) -> list[Action]:
        rows = await self.db.fetch_all("SELECT action_json FROM mma_moves WHERE match_id = ? ORDER BY seq", (match_id,))
        return [Action.from_dict(json.loads(r["action_json"])) for r in rows]

    # --- records ------------------------------------------------------------------------------------

    async def record(self, guild_id: int, user_id: int) -> Record:
        row = await self.db.fetch_one(
            "SELECT "
            "coalesce(sum(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END), 0) AS wins, "
            "coalesce(sum(CASE WHEN outcome = 'loss' THEN 1 ELSE 0 END), 0) AS losses, "
            "coalesce(sum(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END), 0) AS draws, "
            "coalesce(sum(CASE WHEN outcome = 'win' AND opponent_id IS NULL THEN 1 ELSE 0 END), 0) AS wins_vs_ai, "
            "coalesce(sum(CASE WHEN outcome = 'loss' AND opponent_id IS NULL THEN 1 ELSE 0 END), 0) AS losses_vs_ai "
            "FROM mma_results WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        row = required(row)  # an aggregate: always one row
        return Record(row["wins"], row["losses"], row["draws"], row["wins_vs_ai"], row["losses_vs_ai"])

    async def favourite_fighters(self, guild_id: int, user_id: int, limit: int = 3) -> list[FighterUse]:
        rows = await self.db.fetch_all(
            "SELECT fighter, count(*) AS matches, sum(won) AS wins FROM mma_fielded WHERE guild_id = ? AND user_id = ? "
            "GROUP BY fighter ORDER BY matches DESC, wins DESC, fighter LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [FighterUse(r["fighter"], r["matches"], r["wins"]) for r in rows]

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[Standing]:
        rows = await self.db.fetch_all(
            "SELECT user_id, sum(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END) AS wins, "
            "sum(CASE WHEN outcome = 'loss' THEN 1 ELSE 0 END) AS losses, "
            "sum(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END) AS draws FROM mma_results WHERE guild_id = ? GROUP BY user_id "
            "ORDER BY wins DESC, losses ASC, draws DESC, min(finished_at) LIMIT ?",
            (guild_id, limit),
        )
        return [Standing(r["user_id"], r["wins"], r["losses"], r["draws"]) for r in rows]


__all__ = [
    "ACTIVE",
    "MATCH_STATE",
    "FighterUse",
    "MatchConflict",
    "MatchRecord",
    "MatchStatus",
    "MmaRepository",
    "Record",
    "StaleUpdate",
    "Standing",
]
