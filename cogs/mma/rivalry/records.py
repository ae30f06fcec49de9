"""/mma stats, leaderboard, history and replay: the work behind the commands that read ratings and past matches,
and the clicks on their buttons (`cogs.mma.rivalry.items`). The cog's commands call into here."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.common import PlainLimits, UserError, as_written, defer_thinking, plain_text, run_engine
from cogs.common.bot import guild_id
from cogs.common.uploads import MAX_CHOICES
from cogs.common.web_links import match_path, member_path, server_path, with_page_link
from cogs.mma.matches.notes import display_name
from cogs.mma.rivalry.items import (
    FIRST,
    HISTORY_REPLAY,
    LAST,
    REPLAY_RANGE,
    REPLAY_TURN,
    HistoryButton,
    LeaderboardButton,
    ReplayButton,
    RivalrySelect,
)
from cogs.mma.rivalry.render import (
    CHART_FILE,
    HISTORY_PAGE,
    add_rating,
    history_message,
    leaderboard_message,
    leaderboard_pages,
    match_choice_label,
    page_count,
    stats_embed,
)
from cogs.mma.rivalry.replay_render import replay_message
from rules.mma.replay import ReplayIndex, ReplayStep, replay_index, replay_match
from rules.mma.state import EndReason
from rules.rating_chart import ChartGame, rating_chart_png
from rules.text import plural
from storage.mma import Match, MatchStatus

if TYPE_CHECKING:
    from cogs.mma.rivalry.desk import RivalryDesk

NOT_PLAYED = {
    MatchStatus.PENDING: "is a challenge not yet answered",
    MatchStatus.DECLINED: "was declined, so it was never played",
    MatchStatus.EXPIRED: "was a challenge that lapsed, so it was never played",
}


async def stats(desk: RivalryDesk, interaction: discord.Interaction, member: discord.abc.User, name: str) -> None:
    """The member's tallies and favourite fighters; their rating as a chess site's profile shows it (deviation,
    rank, peak, streaks, latest results) with its history as a chart; and their rated tally against each
    opponent."""
    here = guild_id(interaction)
    matches, ratings = desk.matches, desk.ratings
    tallies = await matches.tallies(here, member.id)
    favourites = await matches.favourite_fighters(here, member.id)
    rating = await ratings.rating(here, member.id)
    board = await ratings.leaderboard(here)
    against = await ratings.head_to_heads(here, member.id)
    changes = await ratings.history(here, member.id)
    embed = add_rating(stats_embed(name, tallies, favourites), rating, board, member.id, changes, against)
    link = (
        await with_page_link(desk.bot, here, None, member_path(here, member.id), of_member=member.id)
        or discord.utils.MISSING
    )
    if not changes:
        await interaction.response.send_message(embed=embed, view=link)
        return
    await defer_thinking(interaction, ephemeral=False)  # matplotlib's first chart can outlast 3 s
    # The image is not markdown: the display name goes in as it reads, without the escapes `name` carries.
    title = f"{member.display_name[:40]}: MMA Warriors rating"
    games = [ChartGame(game.change, game.result, game.rated_at) for game in reversed(changes)]
    png = await run_engine(desk.bot, rating_chart_png, games, title)
    await interaction.followup.send(embed=embed, file=discord.File(io.BytesIO(png), CHART_FILE), view=link)


async def leaderboard_page(desk: RivalryDesk, interaction: discord.Interaction, page: int):
    """A page of the leaderboard of the interaction's server, with the standing of the member who asked; a page
    past the end shows the last one."""
    board = await desk.ratings.leaderboard(guild_id(interaction))
    page = min(page, leaderboard_pages(board) - 1)
    embed, view = leaderboard_message(board, page, interaction.user.id, display_name(interaction.user))
    return embed, await with_page_link(desk.bot, guild_id(interaction), view, server_path(guild_id(interaction)))


async def leaderboard(desk: RivalryDesk, interaction: discord.Interaction) -> None:
    embed, view = await leaderboard_page(desk, interaction, 0)
    if view is None:
        await interaction.response.send_message(embed=embed)
    else:
        await interaction.response.send_message(embed=embed, view=view)


async def history_page(desk: RivalryDesk, interaction: discord.Interaction, member_id: int, page: int):
    """A page of the member's history in the interaction's server; a page past the end shows the last one."""
    here, matches = guild_id(interaction), desk.matches
    total = await matches.finished_count(here, member_id)
    page = min(page, page_count(total) - 1)
    shown = await matches.finished(here, member_id, limit=HISTORY_PAGE, offset=page * HISTORY_PAGE)
    return history_message(member_id, shown, page, total)


async def history(desk: RivalryDesk, interaction: discord.Interaction, member_id: int) -> None:
    embed, view = await history_page(desk, interaction, member_id, 0)
    if view is None:
        await interaction.response.send_message(embed=embed)
    else:
        await interaction.response.send_message(embed=embed, view=view)


async def finished_match(desk: RivalryDesk, interaction: discord.Interaction, match_id: int) -> Match:
    """A finished match of the interaction's server; a specific refusal for any other."""
    match = await desk.matches.get(match_id)
    if match is None:
        raise UserError(f"There is no match #{match_id}.")
    if match.guild_id != interaction.guild_id:
        raise UserError(f"Match #{match_id} was played in another server: it can only be replayed there.")
    if match.status == MatchStatus.LIVE:
        raise UserError(f"Match #{match_id} is still being played: its replay opens once it is over.")
    if match.status != MatchStatus.OVER:
        raise UserError(f"Match #{match_id} {NOT_PLAYED[match.status]}: there is nothing to replay.")
    return match


async def replay_steps(desk: RivalryDesk, match: Match) -> list[ReplayStep]:
    """The match rebuilt from its seed and stored moves (the AI asked again on each of its moves)."""
    moves = await desk.matches.moves(match.id)
    claimed_by = match.winner_slot if match.result_reason == EndReason.IDLE else None
    return await run_engine(
        desk.bot, replay_match, match.seed, moves, ai_player=1 if match.vs_ai else None, claimed_by=claimed_by
    )


def chosen_step(match: Match, index: ReplayIndex, component: ReplayButton | RivalrySelect) -> int:
    """The step a replay's button or jump leads to; a refusal for one the match does not have."""
    last = len(index.turns) - 1
    if isinstance(component, RivalrySelect) and component.action in (REPLAY_TURN, REPLAY_RANGE):
        return turn_step(match, index, component.chosen)
    if isinstance(component, RivalrySelect):
        number = component.chosen
    else:
        wanted = {FIRST: 0, LAST: last}.get(component.step)
        number = int(component.step) if wanted is None else wanted
    if number > last:
        raise UserError(f"Match #{match.id} has {last} steps: there is no step {number}.")
    return number


def turn_step(match: Match, index: ReplayIndex, turn: int) -> int:
    if not 1 <= turn <= index.last_turn:
        raise UserError(f"Match #{match.id} has {plural(index.last_turn, 'turn')}: there is no turn {turn}.")
    return index.turn_start(turn)


async def replay(desk: RivalryDesk, interaction: discord.Interaction, match_id: int, turn: int | None = None) -> None:
    """The replay, the viewer's own (ephemeral), from the deal or from the start of `turn`."""
    match = await finished_match(desk, interaction, match_id)
    steps = await replay_steps(desk, match)
    index = replay_index(steps)
    number = 0 if turn is None else turn_step(match, index, turn)
    embed, view = replay_message(match, steps, index, number)
    view = await with_page_link(desk.bot, match.guild_id, view, match_path(match.guild_id, match.id)) or view
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def match_choices(
    desk: RivalryDesk, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete of /mma replay's match: the member's recent finished matches here, newest first, those whose
    words hold what is typed: a number (with or without its #) is the start of a match's, other text is looked
    for in the choice's words (an opponent's name, Win, a day)."""
    repo = desk.matches
    recent = await repo.finished(guild_id(interaction), interaction.user.id, limit=MAX_CHOICES)
    typed = str(current).strip().removeprefix("#").casefold()
    choices: list[app_commands.Choice[int]] = []
    for finished in recent:
        match = await repo.get(finished.match_id)
        if match is None:  # cannot happen: finished matches are never deleted
            continue
        opponent = as_written(match.names[1 - (match.slot_of(interaction.user.id) or 0)])
        label = plain_text(match_choice_label(finished, opponent), PlainLimits.CHOICE_NAME)
        if str(finished.match_id).startswith(typed) if typed.isdecimal() else typed in label.casefold():
            choices.append(app_commands.Choice(name=label, value=finished.match_id))
    return choices


async def on_component(
    desk: RivalryDesk,
    interaction: discord.Interaction,
    component: LeaderboardButton | HistoryButton | ReplayButton | RivalrySelect,
) -> None:
    """A page turned by anyone (the message is public, and the page shows what the command shows anyone; the
    leaderboard: with the standing of the member who turned it); a match opened from a history as the clicker's
    own replay; a replay moved by its viewer."""
    if isinstance(component, LeaderboardButton):
        embed, view = await leaderboard_page(desk, interaction, component.page)
        await interaction.response.edit_message(embed=embed, view=view)
        return
    if isinstance(component, HistoryButton):
        embed, view = await history_page(desk, interaction, component.numeric_id, component.page)
        await interaction.response.edit_message(embed=embed, view=view)
        return
    if isinstance(component, RivalrySelect) and component.action == HISTORY_REPLAY:
        await replay(desk, interaction, component.chosen)
        return
    match = await finished_match(desk, interaction, component.numeric_id)
    steps = await replay_steps(desk, match)
    index = replay_index(steps)
    embed, view = replay_message(match, steps, index, chosen_step(match, index, component))
    view = await with_page_link(desk.bot, match.guild_id, view, match_path(match.guild_id, match.id)) or view
    if interaction.message is not None and interaction.message.flags.ephemeral:
        await interaction.response.edit_message(embed=embed, view=view)
    else:  # a replay posted for everyone before replays were private: the clicker gets one of their own
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
