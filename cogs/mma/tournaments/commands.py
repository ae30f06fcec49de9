"""/mma tournament: a game master opens a Swiss tournament in a channel, members join with a button, the game
master starts it (or it starts at its time) and can cancel it or remove a no-show; a player can withdraw. The
rounds themselves are `rounds`'; the tables looked back on, `tables`'.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, TypedDict

import discord

from cogs.common import UserError, mention, require_gm
from cogs.common.bot import channel_id, guild_id
from cogs.common.components import require_here
from cogs.common.permissions import in_thread, missing_to_post
from cogs.common.posts import done_or_logged
from cogs.mma.matches import boards, notes
from cogs.mma.matches.moves import Played, save_played
from cogs.mma.tournaments import render as shown
from cogs.mma.tournaments.rounds import (
    advance,
    begin,
    schedule_start,
    show_standings,
    started_text,
    too_few,
)
from cogs.mma.tournaments.tables import show_crosstable
from rules.mma.ai import played_move
from rules.mma.state import CONCEDE, Action
from rules.tournament import MIN_PLAYERS, board_of, withdraw
from storage.mma import MatchStatus
from storage.tournament import (
    FieldFull,
    SignupClosed,
    Tournament,
    TournamentConflict,
    TournamentStatus,
)
from storage.versioned import StaleUpdate

if TYPE_CHECKING:
    from cogs.mma.tournaments.desk import TournamentDesk


class SignupMessage(TypedDict):
    embed: discord.Embed
    view: discord.ui.View


SAVE_ATTEMPTS = 3  # a withdrawal saved again on a tournament another click changed meanwhile


async def open_here(desk: TournamentDesk, interaction: discord.Interaction) -> Tournament:
    tournament = await desk.repo.open_in(channel_id(interaction))
    if tournament is None:
        raise UserError("No tournament is open in this channel; a game master opens one with `/mma tournament create`.")
    return tournament


async def create(
    desk: TournamentDesk, interaction: discord.Interaction, rounds: int | None, starts_in: int | None
) -> None:
    await require_gm(interaction)
    starts_at = None if starts_in is None else datetime.fromtimestamp(desk.clock(), UTC) + timedelta(minutes=starts_in)
    try:
        tournament = await desk.repo.create(
            guild_id(interaction), channel_id(interaction), interaction.user.id, rounds, starts_at
        )
    except TournamentConflict as conflict:
        existing = conflict.tournament
        doing = "signing up" if existing.status is TournamentStatus.SIGNUP else "running"
        raise UserError(
            f"This channel already has tournament #{existing.id} {doing}: one at a time per channel. Finish or "
            "cancel it (`/mma tournament cancel`), or open this one in another channel."
        ) from None
    await interaction.response.send_message(
        embed=shown.signup_embed(tournament, {}), view=shown.signup_view(tournament)
    )
    sent = await interaction.original_response()
    await desk.repo.set_message(tournament.id, sent.id)
    if starts_at is not None:
        schedule_start(desk, replace(tournament, message_id=sent.id))


async def signup_message(desk: TournamentDesk, tournament: Tournament) -> SignupMessage:
    """The sign-up message as stored now: who is in, with their ratings here."""
    entrants = [entrant.user_id for entrant in tournament.entrants]
    ratings = await desk.ratings.ratings(tournament.guild_id, entrants)
    return {"embed": shown.signup_embed(tournament, ratings), "view": shown.signup_view(tournament)}


async def signup_changed(desk: TournamentDesk, interaction: discord.Interaction, tournament_id: int) -> None:
    """Redraw the sign-up message the member clicked on, as stored now."""
    tournament = await desk.repo.get(tournament_id)
    if tournament is None:
        return
    await interaction.response.edit_message(**await signup_message(desk, tournament))


def signup_closed(tournament: Tournament) -> UserError:
    said = {
        TournamentStatus.RUNNING: "has started",
        TournamentStatus.FINISHED: "is over",
        TournamentStatus.CANCELLED: "was cancelled",
        TournamentStatus.SIGNUP: "is signing up",
    }[tournament.status]
    return UserError(f"Sign-up is closed: tournament #{tournament.id} {said}, so nothing was changed.")


async def on_button(desk: TournamentDesk, interaction: discord.Interaction, tournament_id: int, action: str) -> None:
    tournament = await desk.repo.get(tournament_id)
    if tournament is None:
        raise UserError("This tournament no longer exists.")
    require_here(interaction, "tournament", tournament, channel=True)
    if action == "table":
        await show_crosstable(desk, interaction, tournament, ephemeral=True)
        return
    user = interaction.user
    try:
        if action == "join":
            if user.bot:
                raise UserError("Bots cannot play in tournaments.")
            if not await desk.repo.join(tournament.id, user.id, notes.display_name(user), limit=shown.MAX_PLAYERS):
                raise UserError(f"You are already in tournament #{tournament.id}; **Leave** takes your name off.")
        elif not await desk.repo.leave(tournament.id, user.id):
            raise UserError(f"You are not signed up for tournament #{tournament.id}; **Join** puts your name down.")
    except SignupClosed as closed:
        raise signup_closed(closed.tournament) from None
    except FieldFull as full:
        raise UserError(f"Tournament #{tournament.id} is full: {full.limit} players at most.") from None
    await signup_changed(desk, interaction, tournament.id)


async def start(desk: TournamentDesk, interaction: discord.Interaction) -> None:
    await require_gm(interaction)
    tournament = await open_here(desk, interaction)
    if tournament.status is not TournamentStatus.SIGNUP:
        raise UserError(f"Tournament #{tournament.id} is already running.")
    if len(tournament.entrants) < MIN_PLAYERS:
        raise UserError(too_few(tournament, len(tournament.entrants)))
    # The rounds are posted by the bot itself, not as answers: it must be able to post here.
    missing = missing_to_post(interaction.app_permissions, in_thread=in_thread(interaction), embeds=True)
    if missing:
        raise UserError(
            f"Tournament #{tournament.id} did not start: the bot posts each round's boards here itself and needs "
            f"{' and '.join(missing)} in this channel. Give it {'them' if len(missing) > 1 else 'that'}, then "
            "start again."
        )
    await interaction.response.defer(thinking=True)
    started = await begin(desk, tournament)
    if started.state is None:  # its game master cancelled it as it started
        raise UserError(f"Tournament #{started.id} was cancelled meanwhile; nothing was started.")
    await interaction.followup.send(started_text(started))


async def leave_tournament(
    desk: TournamentDesk, interaction: discord.Interaction, user_id: int, *, by_gm: bool
) -> None:
    """A player withdraws (or a game master removes them): before the start their name comes off the list; once
    it runs, their game going on is conceded (a forfeit if no move was made) and they are not paired again."""
    tournament = await open_here(desk, interaction)
    who = mention(user_id)
    if tournament.status is TournamentStatus.SIGNUP:
        if not await desk.repo.leave(tournament.id, user_id):
            raise UserError(f"{who} is not signed up for tournament #{tournament.id}.")
        await refresh_signup(desk, tournament.id)
        await interaction.response.send_message(f"{who} is off tournament #{tournament.id}'s list.")
        return
    player = next((p for p in tournament.game.players if p.id == user_id), None)
    if player is None:
        raise UserError(f"{who} is not playing in tournament #{tournament.id}.")
    if player.withdrawn:
        raise UserError(f"{who} has already withdrawn from tournament #{tournament.id}.")
    await interaction.response.defer(thinking=True)
    # With a game going on, its concession and the withdrawal are stored together; without one, alone.
    withdrawn = await concede_board(desk, tournament, user_id)
    for _ in range(0 if withdrawn else SAVE_ATTEMPTS):
        current = await desk.repo.get(tournament.id)
        if current is None or current.status is not TournamentStatus.RUNNING:
            break
        try:
            await desk.repo.save(current, withdraw(current.game, user_id))
            break
        except StaleUpdate:
            continue
    await advance(desk, tournament.id)
    by = f", removed by {mention(interaction.user.id)}" if by_gm else ""
    await interaction.followup.send(
        f"{who} has withdrawn from tournament #{tournament.id}{by}: their points stand and they are not paired again."
    )


async def concede_board(desk: TournamentDesk, tournament: Tournament, user_id: int) -> bool:
    """The player's match of the current round, if it is going on, conceded on their behalf and their withdrawal
    stored with it (True); False when they have no game going on."""
    seat = board_of(tournament.game, user_id)
    if seat is None or seat[1].result is not None:
        return False
    board, _ = seat
    match_id = (await desk.repo.match_ids(tournament.id, tournament.game.rounds[-1].number)).get(board)
    for _ in range(SAVE_ATTEMPTS):
        record = await desk.matches.repo.get(match_id) if match_id is not None else None
        slot = record.slot_of(user_id) if record is not None else None
        if record is None or slot is None or record.status is not MatchStatus.LIVE:
            return False
        try:
            conceded = Played(*played_move(record.game, Action(slot, CONCEDE), None))
            saved = await save_played(desk.matches, record, conceded, withdrawing=user_id)
        except StaleUpdate:
            continue
        await boards.redraw(desk.matches, saved)
        return True
    return False


async def refresh_signup(desk: TournamentDesk, tournament_id: int) -> None:
    tournament = await desk.repo.get(tournament_id)
    if tournament is None or tournament.message_id is None:
        return
    message = desk.channel(tournament).get_partial_message(tournament.message_id)
    edit = message.edit(**await signup_message(desk, tournament))
    await done_or_logged(edit, "redraw tournament %s's sign-up", tournament.id)


async def cancel(desk: TournamentDesk, interaction: discord.Interaction) -> None:
    await require_gm(interaction)
    tournament = await open_here(desk, interaction)
    try:
        cancelled = await desk.repo.cancel(tournament)
    except StaleUpdate:
        raise UserError("The tournament changed as you cancelled it, so nothing was changed; try again.") from None
    desk.starts.cancel(tournament.id)
    if cancelled.state is None:
        await refresh_signup(desk, cancelled.id)
    else:
        await show_standings(desk, cancelled)
    await interaction.response.send_message(
        f"❌ Tournament #{cancelled.id} was cancelled by {mention(interaction.user.id)}. Matches going on stay "
        "ordinary rated matches."
    )
