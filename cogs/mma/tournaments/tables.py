"""A tournament's table looked back on: the server's finished tournaments, and any tournament's standings with
its crosstable as a picture."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from cogs.common import UserError, as_written, run_engine
from cogs.common.bot import channel_id, guild_id
from cogs.mma.tournaments import render as shown
from cogs.mma.tournaments.rounds import standings_of
from rules.tournament.chart import crosstable_png
from storage.tournament import Tournament

if TYPE_CHECKING:
    from cogs.mma.tournaments.desk import TournamentDesk

HISTORY_SHOWN = 10  # the newest finished tournaments listed


async def history(desk: TournamentDesk, interaction: discord.Interaction) -> None:
    guild = guild_id(interaction)
    tournaments = await desk.repo.finished(guild, limit=HISTORY_SHOWN)
    total = await desk.repo.finished_count(guild)
    await interaction.response.send_message(embed=shown.history_embed(tournaments, total), ephemeral=True)


async def crosstable(desk: TournamentDesk, interaction: discord.Interaction, tournament_id: int | None) -> None:
    if tournament_id is None:
        tournament = await desk.repo.open_in(channel_id(interaction))
        if tournament is None:
            latest = await desk.repo.finished(guild_id(interaction), limit=1)
            tournament = latest[0] if latest else None
        if tournament is None:
            raise UserError(
                "No tournament has been played here yet; a game master opens one with `/mma tournament create`."
            )
    else:
        tournament = await desk.repo.get(tournament_id)
        if tournament is None or tournament.guild_id != guild_id(interaction):
            raise UserError(f"This server has no tournament #{tournament_id}; `/mma tournament history` lists them.")
    await show_crosstable(desk, interaction, tournament, ephemeral=False)


async def show_crosstable(
    desk: TournamentDesk, interaction: discord.Interaction, tournament: Tournament, *, ephemeral: bool
) -> None:
    if tournament.state is None:
        raise UserError(f"Tournament #{tournament.id} has not started: there is no table yet.")
    await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    title = f"MMA Warriors tournament #{tournament.id}"
    state = tournament.game  # the picture is no markdown: the names as written, not as the embeds escape them
    drawn = state.model_copy(
        update={"players": tuple(p.model_copy(update={"name": as_written(p.name)}) for p in state.players)}
    )
    png = await run_engine(desk.bot, crosstable_png, drawn, title)
    embed = await standings_of(desk, tournament)
    name = f"tournament-{tournament.id}.png"
    embed.set_image(url=f"attachment://{name}")
    await interaction.followup.send(embed=embed, file=discord.File(io.BytesIO(png), filename=name), ephemeral=ephemeral)
