"""The clicks on a match's messages, and the moves among them, through the one driver (`cogs.common.turns`):
the driver loads the match once, checks the place, the retired board and the version, runs the engine, saves
and calls the next player; the classes here say what is MMA's about each step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.common import UserError
from cogs.common.components import redrawn, require_here
from cogs.common.turns import GameClick, TurnMove
from cogs.mma.matches import boards, hand_render, notes, pings, render
from rules.mma.ai import played_move
from rules.mma.engine import IDLE, action_problem, claimed_idle, idle_claim_problem, idle_minutes_left
from rules.mma.state import CONCEDE, DRAW, REPLACE_PHASE, Action, Event, GameState
from rules.text import plural
from storage.mma import Match, MatchStatus

if TYPE_CHECKING:
    from cogs.mma.matches.desk import MatchDesk

FEED_KEEP = 40  # feed lines stored per match; the message shows the newest that fit

Choice = Callable[[GameState, int], Action]  # what the click asks of the engine, given the state and the slot


class MatchMessageClick(GameClick[Match]):
    """A click on one of a match's messages (its board, a hand view, a challenge), from the match's channel."""

    what = "match"

    def __init__(self, desk: MatchDesk, interaction: discord.Interaction, match_id: int, version: int | None):
        super().__init__(match_id, version)
        self.desk, self.interaction = desk, interaction

    async def load(self) -> Match | None:
        return await self.desk.repo.get(self.game_id)

    def check_place(self, interaction: discord.Interaction, match: Match) -> None:
        require_here(interaction, "match", match, channel=True)

    def is_retired(self, interaction: discord.Interaction, match: Match) -> bool:
        return boards.is_retired(interaction, match)

    async def show_retired(self, interaction: discord.Interaction, match: Match) -> None:
        await boards.show_retired(interaction, match)


class PlayerClick(MatchMessageClick):
    """A click only the players of a dealt match may make."""

    def check_place(self, interaction: discord.Interaction, match: Match) -> None:
        super().check_place(interaction, match)
        self.slot(match)

    def slot(self, match: Match) -> int:
        """The clicker's corner in the match; a refusal for anyone else."""
        if match.state is None:
            raise UserError("This challenge was never accepted.")
        slot = match.slot_of(self.interaction.user.id)
        if slot is None:
            raise UserError(
                f"You are not in this match: it is {render.called(match, 0)} against {render.called(match, 1)}."
            )
        return slot


@dataclass(frozen=True)
class Played:
    """What the engine made of a click: the new state, the actions for the move log, what happened."""

    state: GameState
    actions: list[Action]
    events: list[Event]


async def save_played(desk: MatchDesk, match: Match, played: Played, *, withdrawing: int | None = None) -> Match:
    """What the engine made of a move saved with its lines in the feed (the newest FEED_KEEP kept); `withdrawing`:
    a tournament player whose withdrawal ends the match (storage.mma.MmaRepository.save_moves)."""
    feed = [*match.feed, *notes.feed_lines(played.events, render.both_called(match), played.state)]
    return await desk.repo.save_moves(
        match, played.state, feed[-FEED_KEEP:], played.actions, desk.clock(), withdrawing=withdrawing
    )


class MatchMove(PlayerClick, TurnMove[Match, Played]):
    """A click that changes a live match, by one of its players."""

    async def show_stale(self, interaction: discord.Interaction, match: Match) -> None:
        # The board is behind the stored match (a double click, or a move saved before the board could show it):
        # bring it up to date, even when the match has ended since, then say what happened.
        await interaction.response.edit_message(**boards.edit_setting_claim_timer(self.desk, match))
        await interaction.followup.send(redrawn("match"), ephemeral=True)

    async def save(self, match: Match, played: Played) -> Match:
        return await save_played(self.desk, match, played)

    async def call_next(self, before: Match, saved: Match) -> None:
        await pings.call_next(self.desk, saved, pings.waiting_for(before), self.interaction)
        await self.desk.hands.refresh(
            saved.id, lambda s: hand_render.hand_message(saved, s, note=notes.MOVED), skip=self.interaction
        )
        if saved.status is MatchStatus.OVER:
            await self.desk.match_ended(saved)


class CardMove(MatchMove):
    """A player's action (`choice`) from the board's buttons or from their hand (`from_hand`)."""

    def __init__(
        self,
        desk: MatchDesk,
        interaction: discord.Interaction,
        match_id: int,
        version: int | None,
        choice: Choice,
        *,
        from_hand: bool,
    ):
        super().__init__(desk, interaction, match_id, version)
        self.choice, self.from_hand = choice, from_hand

    def action(self, match: Match) -> Action:
        return self.choice(match.game, self.slot(match))

    async def show_stale(self, interaction: discord.Interaction, match: Match) -> None:
        if not self.from_hand:
            await super().show_stale(interaction, match)
            return
        slot = self.slot(match)
        if await self.made_just_before(match):  # a double click: the first click played it, once
            note = notes.card_note(self.action(match))
        else:
            self.refuse_unless_live(match)
            note = "⌛ That hand was out of date, so nothing was played. Here it is now."
        content, embed, view = hand_render.hand_message(match, slot, note=note)
        await interaction.response.edit_message(content=content, embed=embed, view=view)
        self.desk.hands.shown(match.id, slot, interaction)

    async def made_just_before(self, match: Match) -> bool:
        """Whether the one save after the clicked moment made this very move (a double click): the move log
        ends with it, followed only by the AI's answer. Between members nobody else moves on your turn but by a
        concession, which is logged after it, or an idle claim, which logs nothing and is told apart here."""
        if self.version is None or match.version != self.version + 1 or match.game.reason == IDLE:
            return False
        slot = self.slot(match)
        moves = await self.desk.repo.moves(match.id)
        while moves and match.vs_ai and moves[-1].player != slot:
            moves.pop()  # the AI's answer, saved with the move
        return bool(moves) and moves[-1] == self.action(match)

    @staticmethod
    def refuse_unless_live(match: Match) -> None:
        if match.status != MatchStatus.LIVE:
            raise UserError("This match is over." if match.status == MatchStatus.OVER else "This match is not running.")

    def check(self, match: Match) -> None:
        self.refuse_unless_live(match)
        problem = action_problem(match.game, self.action(match))
        if problem is not None:
            raise UserError(notes.explain(match, self.slot(match), problem))

    def play(self, match: Match) -> Played:
        state, actions, events = played_move(match.game, self.action(match), 1 if match.vs_ai else None)
        return Played(state, actions, events)

    async def show_played(self, interaction: discord.Interaction, before: Match, saved: Match, played: Played) -> None:
        desk, slot, action, events = self.desk, self.slot(saved), self.action(before), played.events
        if self.from_hand:
            if action.kind == CONCEDE:
                await interaction.response.edit_message(content="🏳️ You conceded.", embed=None, view=None)
                desk.hands.forget(saved.id, slot)  # that message now says so: nothing to redraw there
            else:
                content, embed, view = hand_render.hand_message(saved, slot, note=notes.hand_note(slot, action, events))
                await interaction.response.edit_message(content=content, embed=embed, view=view)
                desk.hands.shown(saved.id, slot, interaction)
            await boards.redraw(desk, saved, interaction)
            return
        await interaction.response.edit_message(**boards.edit_setting_claim_timer(desk, saved))
        if action.kind == DRAW:
            note = notes.draw_note(events[0])
            if saved.game.phase == REPLACE_PHASE and saved.game.replacing == slot:  # bled out this turn
                note += " Now pick your next fighter from **My hand**."
            await interaction.followup.send(note, ephemeral=True)


class IdleClaim(MatchMove):
    """A player kept waiting by the other member claims the win (`idle_claim_problem`)."""

    def check(self, match: Match) -> None:
        if match.status != MatchStatus.LIVE:
            raise UserError("This match is over.")
        slot = self.slot(match)
        problem = idle_claim_problem(match.game, slot, against_ai=match.vs_ai)
        if problem is not None:
            raise UserError(problem)
        left = idle_minutes_left(self.desk.clock() - match.last_move_at)
        if left:
            raise UserError(
                f"{render.called(match, 1 - slot)} still has {plural(left, 'minute')} to move "
                f"before you can claim the win."
            )

    def play(self, match: Match) -> Played:
        state, events = claimed_idle(match.game, self.slot(match))
        return Played(state, [], events)

    async def show_played(self, interaction: discord.Interaction, before: Match, saved: Match, played: Played) -> None:
        await interaction.response.edit_message(**boards.edit_setting_claim_timer(self.desk, saved))
