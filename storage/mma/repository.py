"""MmaRepository: what the MMA cog asks of storage, each through the module that writes the table."""

from __future__ import annotations

from dataclasses import replace

from rules.mma.engine import outcome
from rules.mma.state import Action, GameState
from rules.tournament import TournamentState
from storage.mma import matches, moves, results
from storage.mma.ending import end_match
from storage.mma.matches import Match, MatchStatus, NewMatch
from storage.mma.results import FighterUse, FinishedMatch, MatchTallies
from storage.protocol import Storage
from storage.ratings import RatingRepository
from storage.tournament import Tournament, TournamentStatus, add_board_match, save_state


class MmaRepository:
    def __init__(self, db: Storage):
        self.db = db
        self.ratings = RatingRepository(db)

    async def get(self, match_id: int) -> Match | None:
        row = await self.db.fetch_one("SELECT * FROM mma_matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        match = matches.match_of(row)
        if match.status == MatchStatus.OVER and not match.vs_ai:
            match = replace(match, rating_changes=await self.ratings.match_changes(match.id))
        return match

    async def live_between_members(self) -> list[Match]:
        """Every live match between two members (their boards wait for an idle claim to open)."""
        rows = await self.db.fetch_all(
            "SELECT * FROM mma_matches WHERE status = ? AND player1_id IS NOT NULL ORDER BY id", (MatchStatus.LIVE,)
        )
        return [matches.match_of(row) for row in rows]

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
            new = NewMatch(players, names, seed, state, feed)
            return await matches.insert_unless_busy(conn, guild_id, channel_id, new, now, expire_before=expire_before)

    async def set_message(self, match_id: int, message_id: int) -> None:
        await matches.set_message(self.db, match_id, message_id)

    async def set_ping(self, match_id: int, message_id: int | None) -> None:
        await matches.set_ping(self.db, match_id, message_id)

    async def delete(self, match_id: int) -> None:
        """Remove a match whose message could not be posted."""
        await matches.delete(self.db, match_id)

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
        async with self.db.transaction() as conn:
            return await matches.answer(conn, match, status, now, state, feed or [])

    async def start_round(
        self, tournament: Tournament, state: TournamentState, dealt: list[NewMatch], now: float
    ) -> tuple[Tournament, list[Match]]:
        """A tournament's next round stored with its matches, one per board in order, in one transaction, if
        nobody saved the tournament since it was read (StaleUpdate otherwise: another process started it).
        A tournament's match is played beside any other match its players have going in the channel."""
        round_number = state.rounds[-1].number
        async with self.db.transaction() as conn:
            saved = await save_state(conn, tournament, state, status=TournamentStatus.RUNNING)
            started: list[Match] = []
            for board, match in enumerate(dealt, start=1):
                record = await matches.insert(conn, tournament.guild_id, tournament.channel_id, match, now)
                await add_board_match(conn, tournament.id, round_number, board, record.id)
                started.append(record)
            return saved, started

    async def save_moves(
        self,
        match: Match,
        state: GameState,
        feed: list[str],
        moves_played: list[Action],
        now: float,
        *,
        withdrawing: int | None = None,
    ) -> Match:
        """Save the state after `moves_played` (numbered from the state's move count before them) in one
        transaction, if nobody saved since `match` was read; a finished match ends there too (end_match)."""
        async with self.db.transaction() as conn:
            saved = await matches.save_state(conn, match, state, feed, now)
            await moves.append(conn, match.id, state.moves - len(moves_played), moves_played, now)
            ended = outcome(state)
            if ended is None:
                return saved
            return await end_match(conn, self.ratings, saved, state, ended, now, withdrawing=withdrawing)

    async def moves(self, match_id: int) -> list[Action]:
        return await moves.of_match(self.db, match_id)

    async def end_channel(self, channel_id: int, now: float) -> list[Match]:
        """The channel was deleted: its live matches are abandoned (not rated: RULINGS 8) and its pending
        challenges expire. Returns them as they are now; a move saved meanwhile finds the version moved on."""
        return await matches.end_channel(self.db, channel_id, now)

    # --- tallies and history -------------------------------------------------------------------------

    async def tallies(self, guild_id: int, user_id: int) -> MatchTallies:
        return await results.tallies(self.db, guild_id, user_id)

    async def favourite_fighters(self, guild_id: int, user_id: int, limit: int = 3) -> list[FighterUse]:
        return await results.favourite_fighters(self.db, guild_id, user_id, limit)

    async def finished(self, guild_id: int, user_id: int, *, limit: int, offset: int = 0) -> list[FinishedMatch]:
        """A page of the member's history here, newest first, each with its rating change where rated."""
        return await results.history(self.db, guild_id, user_id, limit=limit, offset=offset)

    async def finished_count(self, guild_id: int, user_id: int) -> int:
        return await results.history_count(self.db, guild_id, user_id)
