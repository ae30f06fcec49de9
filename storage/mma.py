"""MMA Warriors storage: challenges and matches (state saved after every move), the move log, and each member's
tallies of results."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rules.contract import Tally
from rules.mma.cards import CARDS
from rules.mma.engine import moves_made, outcome
from rules.mma.state import Action, EndReason, GameState, MatchOutcome
from rules.rating import Rating, RatingChange, Result
from rules.tournament import TournamentState
from storage.codec import StateCodec
from storage.protocol import Row, Storage, StorageTransaction
from storage.ratings import RatingRepository
from storage.rows import required
from storage.times import stored_time, unix_time
from storage.tournament import Tournament, TournamentStatus, record_match_end, save_state
from storage.versioned import StaleUpdate, save_versioned


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


class MatchConflict(Exception):
    """A player already has a challenge or a match going in this channel."""

    def __init__(self, user_id: int, match: Match):
        super().__init__(f"user {user_id} is busy with match {match.id}")
        self.user_id = user_id
        self.match = match


def _match(row: Row) -> Match:
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


async def _insert_match(
    conn: StorageTransaction,
    guild_id: int,
    channel_id: int,
    players: tuple[int, int | None],
    names: tuple[str, str],
    seed: int,
    now: float,
    *,
    state: GameState | None,
    feed: list[str],
) -> Match:
    """A new match row: a pending challenge (state None) or a live match, dealt."""
    row = await conn.fetch_required(
        "INSERT INTO mma_matches (guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
        "status, seed, state_json, feed_json, last_move_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
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
            stored_time(now),
        ),
    )
    return _match(row)


@dataclass(frozen=True)
class DealtMatch:
    """A tournament board's match between two members, dealt at once: nobody answers a challenge."""

    players: tuple[int, int]  # the challenger (player 0) and the opponent
    names: tuple[str, str]
    seed: int
    state: GameState
    feed: list[str]


class MmaRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def get(self, match_id: int) -> Match | None:
        row = await self.db.fetch_one("SELECT * FROM mma_matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        match = _match(row)
        if match.status == MatchStatus.OVER and not match.vs_ai:
            match = replace(match, rating_changes=await RatingRepository(self.db).match_changes(match.id))
        return match

    async def live_between_members(self) -> list[Match]:
        """Every live match between two members (their boards wait for an idle claim to open)."""
        rows = await self.db.fetch_all(
            "SELECT * FROM mma_matches WHERE status = ? AND player1_id IS NOT NULL ORDER BY id", (MatchStatus.LIVE,)
        )
        return [_match(row) for row in rows]

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
    ) -> Match:
        """A pending challenge (state None) or a live match against the AI (state given).

        Refused with MatchConflict when either human already has an active match in the channel;
        challenges left unanswered since `expire_before` expire first and do not count.
        """
        async with self.db.transaction() as conn:
            # No row or constraint can say "this member has no other match here", so the channel's new matches
            # are made one at a time; moves, and other channels, never wait for this.
            await conn.lock("mma channel", channel_id)
            await conn.execute(
                "UPDATE mma_matches SET status = ? WHERE channel_id = ? AND status = ? AND last_move_at < ?",
                (MatchStatus.EXPIRED, channel_id, MatchStatus.PENDING, stored_time(expire_before)),
            )
            for user_id in players:
                if user_id is None:
                    continue
                busy = await conn.fetch_one(
                    "SELECT * FROM mma_matches WHERE channel_id = ? AND status IN (?, ?) "
                    "AND (player0_id = ? OR player1_id = ?) ORDER BY id LIMIT 1",
                    (channel_id, *IN_PLAY, user_id, user_id),
                )
                if busy is not None:
                    raise MatchConflict(user_id, _match(busy))
            return await _insert_match(conn, guild_id, channel_id, players, names, seed, now, state=state, feed=feed)

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
        match: Match,
        status: MatchStatus,
        now: float,
        *,
        state: GameState | None = None,
        feed: list[str] | None = None,
    ) -> Match:
        """Pending -> live (with the dealt state), declined or expired; StaleUpdate if it was answered already."""
        if status not in (MatchStatus.LIVE, MatchStatus.DECLINED, MatchStatus.EXPIRED):
            raise ValueError(f"a challenge cannot become {status!r}")
        changes = {
            "status": status,
            "state_json": MATCH_STATE.to_text(state) if state else None,
            "feed_json": json.dumps(feed or []),
            "last_move_at": stored_time(now),
        }
        async with self.db.transaction() as conn:
            row = await save_versioned(
                conn, "mma_matches", match.id, match.version, changes, status=MatchStatus.PENDING
            )
            return _match(row)

    async def start_round(
        self, tournament: Tournament, state: TournamentState, dealt: list[DealtMatch], now: float
    ) -> tuple[Tournament, list[Match]]:
        """A tournament's next round stored with its matches, one per board in order, in one transaction, if
        nobody saved the tournament since it was read (StaleUpdate otherwise: another process started it).
        A tournament's match is played beside any other match its players have going in the channel."""
        round_number = state.rounds[-1].number
        async with self.db.transaction() as conn:
            saved = await save_state(conn, tournament, state, status=TournamentStatus.RUNNING)
            matches: list[Match] = []
            for board, match in enumerate(dealt, start=1):
                record = await _insert_match(
                    conn,
                    tournament.guild_id,
                    tournament.channel_id,
                    match.players,
                    match.names,
                    match.seed,
                    now,
                    state=match.state,
                    feed=match.feed,
                )
                await conn.execute(
                    "INSERT INTO mma_tournament_games (tournament_id, round, board, match_id) VALUES (?, ?, ?, ?)",
                    (tournament.id, round_number, board, record.id),
                )
                matches.append(record)
            return saved, matches

    async def save_moves(
        self,
        match: Match,
        state: GameState,
        feed: list[str],
        moves: list[Action],
        now: float,
        *,
        withdrawing: int | None = None,
    ) -> Match:
        """Save the state after `moves` (numbered from the state's move count before them) in one
        transaction, if nobody saved since `match` was read; a finished match also writes the results."""
        ended = outcome(state)
        changes = {
            "state_json": MATCH_STATE.to_text(state),
            "feed_json": json.dumps(feed),
            "last_move_at": stored_time(now),
            "status": MatchStatus.LIVE if ended is None else MatchStatus.OVER,
            "winner_slot": None if ended is None else ended.winner,
            "result_reason": None if ended is None else ended.termination.value,
        }
        async with self.db.transaction() as conn:
            row = await save_versioned(conn, "mma_matches", match.id, match.version, changes, status=MatchStatus.LIVE)
            first = state.moves - len(moves)
            await conn.execute_many(
                "INSERT INTO mma_moves (match_id, seq, slot, action_json, made_at) VALUES (?, ?, ?, ?, ?)",
                [
                    (match.id, first + i, action.player, json.dumps(action.to_dict()), stored_time(now))
                    for i, action in enumerate(moves)
                ],
            )
            saved = _match(row)
            if ended is not None:
                await self._write_results(conn, match, state, ended, now)
                # A tournament's board that ended before any move (a no-show claimed against, a concession or a
                # withdrawal first) is a forfeit, not rated (docs/rules/tournament.md, ruling 3).
                board = await record_match_end(
                    conn, match.id, ended.winner, played=moves_made(state) > 0, withdrawing=withdrawing
                )
                if board is None or board.rated:
                    saved = await self._rate(conn, saved, now)
            return saved

    async def _rate(self, conn: StorageTransaction, saved: Match, now: float) -> Match:
        """Rate a match between members in the transaction that ends it (RULINGS 7: never one against the AI).
        The engine's winner already makes a concession or an idle claim a loss for the one who conceded or went
        idle, and a judges' decision its decision."""
        first, second = saved.player_ids
        if second is None:
            return saved
        rated = await RatingRepository(self.db).rate_match(
            conn,
            saved.guild_id,
            saved.id,
            (first, second),
            saved.winner_slot,
            saved.result_reason or "",
            now,
        )
        return replace(saved, rating_changes={first: rated.first, second: rated.second})

    async def _write_results(
        self, conn: StorageTransaction, match: Match, state: GameState, ended: MatchOutcome, now: float
    ) -> None:
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

    async def moves(self, match_id: int) -> list[Action]:
        rows = await self.db.fetch_all("SELECT action_json FROM mma_moves WHERE match_id = ? ORDER BY seq", (match_id,))
        return [Action.from_dict(json.loads(r["action_json"])) for r in rows]

    # --- tallies ------------------------------------------------------------------------------------

    async def tallies(self, guild_id: int, user_id: int) -> MatchTallies:
        rows = await self.db.fetch_all(
            "SELECT opponent_id IS NULL AS vs_ai, outcome, count(*) AS matches FROM mma_results "
            "WHERE guild_id = ? AND user_id = ? GROUP BY opponent_id IS NULL, outcome",
            (guild_id, user_id),
        )
        counts = {(bool(r["vs_ai"]), Result(r["outcome"])): r["matches"] for r in rows}

        def tally(vs_ai: bool) -> Tally:
            return Tally(*(counts.get((vs_ai, result), 0) for result in (Result.WIN, Result.LOSS, Result.DRAW)))

        return MatchTallies(against_members=tally(False), against_ai=tally(True))

    async def favourite_fighters(self, guild_id: int, user_id: int, limit: int = 3) -> list[FighterUse]:
        rows = await self.db.fetch_all(
            "SELECT fighter, count(*) AS matches, sum(won) AS wins FROM mma_fielded WHERE guild_id = ? AND user_id = ? "
            "GROUP BY fighter ORDER BY matches DESC, wins DESC, fighter LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [FighterUse(r["fighter"], r["matches"], r["wins"]) for r in rows]

    async def end_channel(self, channel_id: int, now: float) -> list[Match]:
        """The channel was deleted: its live matches are abandoned (not rated: RULINGS 8) and its pending
        challenges expire. Returns them as they are now; a move saved meanwhile finds the version moved on."""
        async with self.db.transaction() as conn:
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
        return sorted((_match(row) for row in rows), key=lambda match: match.id)

    # A member's history: their finished matches (mma_results) and their abandoned ones (RULINGS 8), which
    # have no result.
    _HISTORY = (
        "SELECT r.match_id, r.opponent_id, r.outcome, r.reason, r.finished_at, c.mu_before, c.sigma_before, "
        "c.mu_after, c.sigma_after, c.games_after FROM mma_results r LEFT JOIN mma_rating_changes c "
        "ON c.match_id = r.match_id AND c.user_id = r.user_id WHERE r.guild_id = ? AND r.user_id = ? "
        "UNION ALL SELECT m.id, CASE WHEN m.player0_id = ? THEN m.player1_id ELSE m.player0_id END, NULL, "
        "m.result_reason, m.last_move_at, NULL, NULL, NULL, NULL, NULL FROM mma_matches m "
        "WHERE m.guild_id = ? AND m.status = ? AND (m.player0_id = ? OR m.player1_id = ?)"
    )

    @staticmethod
    def _history_parameters(guild_id: int, user_id: int) -> tuple[object, ...]:
        return (guild_id, user_id, user_id, guild_id, MatchStatus.ABANDONED, user_id, user_id)

    async def finished(self, guild_id: int, user_id: int, *, limit: int, offset: int = 0) -> list[FinishedMatch]:
        """A page of the member's history here, newest first, each with its rating change where rated."""
        rows = await self.db.fetch_all(
            f"SELECT * FROM ({self._HISTORY}) history ORDER BY finished_at DESC, match_id DESC LIMIT ? OFFSET ?",
            (*self._history_parameters(guild_id, user_id), limit, offset),
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

    async def finished_count(self, guild_id: int, user_id: int) -> int:
        row = await self.db.fetch_one(
            f"SELECT count(*) AS matches FROM ({self._HISTORY}) history",
            self._history_parameters(guild_id, user_id),
        )
        return required(row)["matches"]


__all__ = [
    "CHANNEL_DELETED",
    "IN_PLAY",
    "MATCH_STATE",
    "DealtMatch",
    "FighterUse",
    "FinishedMatch",
    "Match",
    "MatchConflict",
    "MatchStatus",
    "MatchTallies",
    "MmaRepository",
    "StaleUpdate",
]
