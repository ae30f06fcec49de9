"""Starting matches: a challenge to a member (answered with Accept or Decline), a match against the AI, and a
rematch; a member with a match going in the channel is offered it again instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.common import UserError, mention, run_engine
from cogs.common.bot import channel_id, guild_id
from cogs.common.turns import TurnMove
from cogs.mma.matches import boards, notes, pings, render
from cogs.mma.matches.moves import MatchMessageClick
from rules.mma.engine import IDLE_SECONDS
from rules.mma.state import GameState
from storage.mma import Match, MatchConflict, MatchStatus

if TYPE_CHECKING:
    from cogs.mma.matches.desk import MatchDesk

AI_NAME = "AI"


async def start_challenge(
    desk: MatchDesk,
    interaction: discord.Interaction,
    opponent_id: int,
    opponent_name: str,
    opponent_is_bot: bool,
    seed: int | None = None,
) -> None:
    if opponent_id == interaction.user.id:
        raise UserError("You cannot challenge yourself; `/mma ai` gives you a sparring partner.")
    if opponent_is_bot:
        raise UserError("Bots cannot accept challenges; use `/mma ai` to fight the AI.")
    players = (interaction.user.id, opponent_id)
    match = await create(desk, interaction, players, (notes.display_name(interaction.user), opponent_name), seed)
    if match is None:
        return
    content, embed = render.challenge_message(match)
    # The challenge is a new message, so its mention notifies: the challenged member, and only them.
    await boards.post(
        desk,
        interaction,
        match,
        content=content,
        embed=embed,
        view=render.challenge_buttons(match),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent_id)]),
    )


async def start_ai_match(desk: MatchDesk, interaction: discord.Interaction, seed: int | None = None) -> None:
    names = (notes.display_name(interaction.user), AI_NAME)
    match = await create(desk, interaction, (interaction.user.id, None), names, seed)
    if match is None:
        return
    embed, view = boards.board_setting_claim_timer(desk, match)
    await boards.post(desk, interaction, match, embed=embed, view=view)


async def start_rematch(desk: MatchDesk, interaction: discord.Interaction, match: Match) -> None:
    slot = match.slot_of(interaction.user.id)
    if slot is None:
        raise UserError(
            "Only the players of this match can start its rematch; `/mma challenge` or `/mma ai` starts your own."
        )
    other = match.player_ids[1 - slot]
    if other is None:  # the AI
        await start_ai_match(desk, interaction)
    else:
        await start_challenge(desk, interaction, other, match.names[1 - slot], False)


async def create(
    desk: MatchDesk,
    interaction: discord.Interaction,
    players: tuple[int, int | None],
    names: tuple[str, str],
    seed: int | None,
) -> Match | None:
    """A new match (against the AI: dealt at once) or challenge. None when the member already has a match
    going here: it is offered again instead."""
    seed = desk.seed_or_new(seed)
    state, feed = None, []
    if players[1] is None:
        called = (render.player_called(players[0], names[0]), render.player_called(players[1], names[1]))
        state, feed = await run_engine(desk.bot, notes.dealt, seed, called)
    now = desk.clock()
    try:
        return await desk.repo.create(
            guild_id(interaction),
            channel_id(interaction),
            players,
            names,
            seed,
            now,
            state=state,
            feed=feed,
            expire_before=now - IDLE_SECONDS,
        )
    except MatchConflict as conflict:
        if conflict.user_id == interaction.user.id and conflict.match.status == MatchStatus.LIVE:
            await boards.offer_again(desk, interaction, conflict.match)
            return None
        raise UserError(conflict_text(conflict, interaction.user.id)) from None


def conflict_text(conflict: MatchConflict, user_id: int) -> str:
    """Why a member's new match is refused: they, or their opponent, have one waiting or going here."""
    who = "You already have" if conflict.user_id == user_id else f"{mention(conflict.user_id)} already has"
    if conflict.match.status == MatchStatus.PENDING:  # Accept or Decline settles it; Decline also withdraws it
        kind, settle = "a challenge waiting", "accept or decline it first (it lapses on its own too)"
    else:
        kind, settle = "a match going", "finish or concede it first"
    return f"{who} {kind} in this channel (match #{conflict.match.id}); {settle}, or play in another channel."


@dataclass(frozen=True)
class Answer:
    """What an answered challenge becomes: its status, and the dealt match and its feed when it goes live."""

    status: MatchStatus
    state: GameState | None
    feed: list[str]


class ChallengeAnswer(MatchMessageClick, TurnMove[Match, Answer]):
    """Accept or Decline on a challenge: the challenged member answers, the challenger may withdraw it; a challenge
    left unanswered too long lapses instead."""

    def __init__(self, desk: MatchDesk, interaction: discord.Interaction, match_id: int, version: int, accept: bool):
        super().__init__(desk, interaction, match_id, version)
        self.accept, self.now = accept, desk.clock()

    def is_stale(self, match: Match) -> bool:
        return match.status != MatchStatus.PENDING or self.version != match.version

    async def show_stale(self, interaction: discord.Interaction, match: Match) -> None:
        raise UserError("This challenge has already been answered.")

    def check(self, match: Match) -> None:
        challenger, opponent = match.player_ids
        user = self.interaction.user.id
        if user != opponent and not (user == challenger and not self.accept):
            raise UserError(f"Only {render.called(match, 1)} can answer this challenge.")

    def play(self, match: Match) -> Answer:
        if self.now - match.last_move_at > IDLE_SECONDS:
            return Answer(MatchStatus.EXPIRED, None, [])
        if not self.accept:
            return Answer(MatchStatus.DECLINED, None, [])
        state, feed = notes.dealt(match.seed, render.both_called(match))
        return Answer(MatchStatus.LIVE, state, feed)

    async def save(self, match: Match, played: Answer) -> Match:
        return await self.desk.repo.answer_challenge(
            match, played.status, self.now, state=played.state, feed=played.feed
        )

    async def show_played(self, interaction: discord.Interaction, before: Match, saved: Match, played: Answer) -> None:
        if saved.status == MatchStatus.LIVE:
            embed, view = boards.board_setting_claim_timer(self.desk, saved)
            await interaction.response.edit_message(content=None, embed=embed, view=view)
            return
        content, embed = render.challenge_message(saved)
        if saved.status == MatchStatus.DECLINED and interaction.user.id == saved.player_ids[0]:
            embed.description = f"{render.called(saved, 0)} withdrew the challenge."
        await interaction.response.edit_message(content=content, embed=embed, view=None)

    async def call_next(self, before: Match, saved: Match) -> None:
        await pings.call_next(self.desk, saved, None, self.interaction)  # a challenge waited for no move
