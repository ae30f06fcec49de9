"""mma_matches: a challenge, then a match whose state is saved after every move. This module alone writes the
table; the transaction that ends a match writes its result with it (storage/mma/ending.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.mma.engine import outcome
from rules.mma.state import EndReason, GameState
from rules.rating import RatingChange
from storage.codec import StateCodec
from storage.protocol import Row, Storage, StorageTransaction
from storage.times import stored_time, unix_time
from storage.versioned import save_versioned


def _without_resume(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2: version 1 also stored `resume`, always the main phase, which nothing reads."""
    return {key: value for key, value in data.items() if key != "resume"}


# How a match ended, as versions 1 and 2 kept it: the words of the end screens (migration 0022 turns the
# columns that kept them into the codes).
_END_WORDS = {
    "Health depleted": EndReason.HEALTH_DEPLETED,
    "No fighters in hand": EndReason.NO_FIGHTERS,
    "Deck Out": EndReason.DECK_OUT,
    "Judges' decision": EndReason.JUDGES,
    "Conceded": EndReason.CONCEDED,
    "Opponent idle": EndReason.IDLE,
}


def _with_end_codes(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 -> 3: a finished match keeps how it ended as EndReason's code, not the words shown for it."""
    reason = data.get("reason")
    return {**data, "reason": _END_WORDS[reason].value} if isinstance(reason, str) and reason in _END_WORDS else data


MATCH_STATE = StateCodec(
    "MMA match", 3, GameState.to_dict, GameState.from_dict, upgrades={1: _without_resume, 2: _with_end_codes}
)


class MatchStatus(StrEnum):
    PENDING = "pending"  # a challenge not yet answered
    LIVE = "live"
    OVER = "over"
    DECLINED = "declined"
    EXPIRED = "expired"  # a challenge left unanswered (or whose channel was deleted)
    ABANDONED = "abandoned"  # a live match whose channel was deleted: not rated (RULINGS 8)


IN_PLAY = (MatchStatus.PENDING, MatchStatus.LIVE)  # a challenge or a match going on: its players are busy
CHANNEL_DELETED = "channel_deleted"  # the result_reason of an abandoned match


def ended_words(reason: str) -> str:
    """The words of how a match ended, from its stored code: the engine's ending, or its channel deleted."""
    return "channel deleted" if reason == CHANNEL_DELETED else EndReason(reason).label


@dataclass(frozen=True)
class Match:
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
    last_move_at: float  # unix time (stored as text: storage/times.py)
    winner_slot: int | None
    result_reason: str | None
    ping_message_id: int | None = None  # the message that pinged the player the match waits for
    # A finished match between members: each member's rating change (RatingRepository.match_changes), by user id.
    rating_changes: Mapping[int, RatingChange] = field(default_factory=dict[int, RatingChange], compare=False)

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


class MatchConflict(Exception):
    """A player already has a challenge or a match going in this channel."""

    def __init__(self, user_id: int, match: Match):
        super().__init__(f"user {user_id} is busy with match {match.id}")
        self.user_id = user_id
        self.match = match


@dataclass(frozen=True)
class NewMatch:
    """A match to store: a pending challenge (`state` None), or a match dealt at once (against the AI, or a
    tournament's board, which nobody answers)."""

    players: tuple[int, int | None]  # the challenger (player 0) and the opponent (None: the AI)
    names: tuple[str, str]
    seed: int
    state: GameState | None
    feed: list[str]


def match_of(row: Row) -> Match:
    state = MATCH_STATE.from_text(row["state_json"], row["id"]) if row["state_json"] else None
    return Match(
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
        last_move_at=unix_time(row["last_move_at"]),
        winner_slot=row["winner_slot"],
        result_reason=row["result_reason"],
        ping_message_id=row["ping_message_id"],
    )


async def insert(conn: StorageTransaction, guild_id: int, channel_id: int, new: NewMatch, now: float) -> Match:
    """A new match row: a pending challenge (state None) or a live match, dealt."""
    row = await conn.fetch_required(
        "INSERT INTO mma_matches (guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
        "status, seed, state_json, feed_json, last_move_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
        (
            guild_id,
            channel_id,
            new.players[0],
            new.names[0],
            new.players[1],
            new.names[1],
            MatchStatus.PENDING if new.state is None else MatchStatus.LIVE,
            new.seed,
            MATCH_STATE.to_text(new.state) if new.state else None,
            json.dumps(new.feed),
            stored_time(now),
        ),
    )
    return match_of(row)


async def insert_unless_busy(
    conn: StorageTransaction, guild_id: int, channel_id: int, new: NewMatch, now: float, *, expire_before: float
) -> Match:
    """`insert`, refused with MatchConflict when either human already has an active match in the channel;
    challenges left unanswered since `expire_before` expire first and do not count."""
    # No row or constraint can say "this member has no other match here", so the channel's new matches are made
    # one at a time; moves, and other channels, never wait for this.
    await conn.lock("mma channel", channel_id)
    await conn.execute(
        "UPDATE mma_matches SET status = ? WHERE channel_id = ? AND status = ? AND last_move_at < ?",
        (MatchStatus.EXPIRED, channel_id, MatchStatus.PENDING, stored_time(expire_before)),
    )
    for user_id in new.players:
        if user_id is None:
            continue
        busy = await conn.fetch_one(
            "SELECT * FROM mma_matches WHERE channel_id = ? AND status IN (?, ?) "
            "AND (player0_id = ? OR player1_id = ?) ORDER BY id LIMIT 1",
            (channel_id, *IN_PLAY, user_id, user_id),
        )
        if busy is not None:
            raise MatchConflict(user_id, match_of(busy))
    return await insert(conn, guild_id, channel_id, new, now)


async def answer(
    conn: StorageTransaction, match: Match, status: MatchStatus, now: float, state: GameState | None, feed: list[str]
) -> Match:
    """Pending -> live (with the dealt state), declined or expired; StaleUpdate if it was answered already."""
    if status not in (MatchStatus.LIVE, MatchStatus.DECLINED, MatchStatus.EXPIRED):
        raise ValueError(f"a challenge cannot become {status!r}")
    changes = {
        "status": status,
        "state_json": MATCH_STATE.to_text(state) if state else None,
        "feed_json": json.dumps(feed),
        "last_move_at": stored_time(now),
    }
    return match_of(
        await save_versioned(conn, "mma_matches", match.id, match.version, changes, status=MatchStatus.PENDING)
    )


async def save_state(conn: StorageTransaction, match: Match, state: GameState, feed: list[str], now: float) -> Match:
    """The live match's state after its moves, over once the engine says so, if nobody saved since `match` was
    read (StaleUpdate otherwise)."""
    ended = outcome(state)
    changes = {
        "state_json": MATCH_STATE.to_text(state),
        "feed_json": json.dumps(feed),
        "last_move_at": stored_time(now),
        "status": MatchStatus.LIVE if ended is None else MatchStatus.OVER,
        "winner_slot": None if ended is None else ended.winner,
        "result_reason": None if ended is None else ended.termination.value,
    }
    return match_of(
        await save_versioned(conn, "mma_matches", match.id, match.version, changes, status=MatchStatus.LIVE)
    )


async def set_message(db: Storage, match_id: int, message_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute("UPDATE mma_matches SET message_id = ? WHERE id = ?", (message_id, match_id))


async def set_ping(db: Storage, match_id: int, message_id: int | None) -> None:
    async with db.transaction() as conn:
        await conn.execute("UPDATE mma_matches SET ping_message_id = ? WHERE id = ?", (message_id, match_id))


async def delete(db: Storage, match_id: int) -> None:
    """Remove a match whose message could not be posted."""
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM mma_matches WHERE id = ?", (match_id,))


async def end_channel(db: Storage, channel_id: int, now: float) -> list[Match]:
    """The channel was deleted: its live matches are abandoned (not rated: RULINGS 8) and its pending challenges
    expire. Returns them as they are now; a move saved meanwhile finds the version moved on."""
    async with db.transaction() as conn:
        await conn.lock("mma channel", channel_id)
        rows = await conn.fetch_all(
            "UPDATE mma_matches SET status = CASE WHEN status = ? THEN ? ELSE ? END, result_reason = CASE "
            "WHEN status = ? THEN ? END, last_move_at = ?, version = version + 1 "
            "WHERE channel_id = ? AND status IN (?, ?) RETURNING *",
            (
                MatchStatus.LIVE,
                MatchStatus.ABANDONED,
                MatchStatus.EXPIRED,
                MatchStatus.LIVE,
                CHANNEL_DELETED,
                stored_time(now),
                channel_id,
                MatchStatus.LIVE,
                MatchStatus.PENDING,
            ),
        )
    return sorted((match_of(row) for row in rows), key=lambda match: match.id)
