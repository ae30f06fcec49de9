"""What a tournament's messages show: the sign-up list, the live standings with the round's boards, each board's
call to its two players, the podium, and the list of finished tournaments. Players are named by mention where
Discord renders mentions (field values, descriptions, which never ping in an embed) and by their escaped name
elsewhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import discord

from cogs.common import COLOR_INFO, COLOR_VICTORY, EmbedLimits, lines_within, mention
from cogs.common.embeds import MEDALS
from cogs.mma.items import tournament_button
from rules.rating import Rating, RatingChange
from rules.text import plural
from rules.tournament import MIN_PLAYERS, Pairing, Result, Standing, default_rounds, is_finished, podium, standings
from storage.tournament import Tournament, TournamentStatus

MAX_PLAYERS = 64  # a field larger than this is refused: every round's pairing grows with its cube
NAME_LIMIT = 32  # Discord's display names are at most 32 characters

RESULT_SHOWN = {
    Result.CHALLENGER_WINS: "1–0",
    Result.OPPONENT_WINS: "0–1",
    Result.DRAW: "½–½",
    Result.OPPONENT_FORFEITS: "+/− (forfeit)",
    Result.CHALLENGER_FORFEITS: "−/+ (forfeit)",
    Result.BOTH_FORFEIT: "−/− (both forfeit)",
}


def points_text(points: float) -> str:
    """`2½`, `½`, `3`: points as chess tables write them."""
    whole, half = int(points), points % 1 >= 0.5
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


def title(tournament: Tournament) -> str:
    return f"🏆 MMA Warriors Swiss tournament #{tournament.id}"


def rounds_text(tournament: Tournament, players: int) -> str:
    if tournament.state is not None:
        return str(tournament.state.settings.rounds)
    if tournament.rounds is not None:
        return str(tournament.rounds)
    return f"{default_rounds(max(players, MIN_PLAYERS))} (set by the field: about log2 of the players, at least 3)"


def signup_embed(tournament: Tournament, ratings: Mapping[int, Rating]) -> discord.Embed:
    """The sign-up message: who is in, with their ratings, and how and when it starts."""
    entrants = tournament.entrants
    embed = discord.Embed(title=title(tournament), color=COLOR_INFO)
    if tournament.status is TournamentStatus.CANCELLED:
        embed.description = "❌ This tournament was cancelled."
    else:
        starts = (
            f"on its own {discord.utils.format_dt(tournament.starts_at, 'R')} "
            f"({discord.utils.format_dt(tournament.starts_at, 'f')}) with {MIN_PLAYERS} players or more, or "
            if tournament.starts_at is not None
            else ""
        )
        embed.description = (
            f"Sign-up is open: press **Join** to play, **Leave** to take your name off. It starts {starts}when "
            f"{mention(tournament.created_by)} runs `/mma tournament start` (at least {MIN_PLAYERS} players, at "
            f"most {MAX_PLAYERS}). Every round pairs players on the same score, nobody meets the same opponent "
            "twice, and every game is a rated member match here."
        )
    lines = [
        f"{number}. {mention(entrant.user_id)} · {ratings.get(entrant.user_id, Rating()).text()}"
        for number, entrant in enumerate(entrants, start=1)
    ]
    embed.add_field(
        name=f"Players ({len(entrants)})",
        value=lines_within(lines, EmbedLimits.FIELD_VALUE) or "Nobody yet.",
        inline=False,
    )
    embed.add_field(name="Rounds", value=rounds_text(tournament, len(entrants)), inline=True)
    embed.add_field(name="System", value="Swiss · tiebreaks Buchholz, Sonneborn-Berger, rating", inline=True)
    return embed


def signup_view(tournament: Tournament) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if tournament.status is TournamentStatus.SIGNUP:
        view.add_item(tournament_button(tournament.id, "join", label="Join", style=discord.ButtonStyle.success))
        view.add_item(tournament_button(tournament.id, "leave", label="Leave"))
    return view


def standing_line(standing: Standing) -> str:
    player = standing.player
    withdrawn = " · withdrawn" if player.withdrawn else ""
    return (
        f"{standing.rank}. {mention(player.id)} **{points_text(standing.points)}** · "
        f"Bh {points_text(standing.buchholz)} · SB {standing.sonneborn_berger:g} · {round(player.rating)}{withdrawn}"
    )


def board_line(board: int, pairing: Pairing, match_id: int | None) -> str:
    if pairing.result is not None:
        shown = RESULT_SHOWN[pairing.result]
    elif match_id is not None:
        shown = f"playing, match #{match_id}"
    else:
        shown = "about to start"
    return f"{board}. {mention(pairing.challenger)} vs {mention(pairing.opponent)}: {shown}"


def standings_embed(tournament: Tournament, match_ids: Mapping[int, int]) -> discord.Embed:
    """The live standings (the sign-up message, once started): the table and the latest round's boards
    (`match_ids`: board -> the match it is played as)."""
    state = tournament.game
    finished = tournament.status is TournamentStatus.FINISHED or is_finished(state)
    embed = discord.Embed(title=title(tournament), color=COLOR_VICTORY if finished else COLOR_INFO)
    latest = state.rounds[-1] if state.rounds else None
    if tournament.status is TournamentStatus.CANCELLED:
        embed.description = "❌ Cancelled by its game master; the games already played keep their ratings."
    elif finished:
        embed.description = f"🏁 Final standings after {plural(len(state.rounds), 'round')}."
        if state.ended_early:
            embed.description += " No pairing without a rematch was left for the rounds after."
    elif latest is not None:
        played = sum(pairing.result is not None for pairing in latest.pairings)
        embed.description = (
            f"Round {latest.number} of {state.settings.rounds}: {played} of {len(latest.pairings)} boards "
            "finished. The next round is paired when every board has a result."
        )
    embed.add_field(
        name="Standings",
        value=lines_within((standing_line(s) for s in standings(state)), EmbedLimits.FIELD_VALUE),
        inline=False,
    )
    if latest is not None:
        boards = [board_line(board, pairing, match_ids.get(board)) for board, pairing in enumerate(latest.pairings, 1)]
        if latest.bye is not None:
            boards.append(f"Bye (one point): {mention(latest.bye)}")
        embed.add_field(
            name=f"Round {latest.number}", value=lines_within(boards, EmbedLimits.FIELD_VALUE), inline=False
        )
    embed.set_footer(text="Bh: Buchholz · SB: Sonneborn-Berger · the last figure is the rating at entry")
    return embed


def standings_view(tournament: Tournament) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(tournament_button(tournament.id, "table", label="Crosstable", emoji="🖼️"))
    return view


def board_call(tournament: Tournament, round_number: int, board: int, pairing: Pairing) -> str:
    """The words above a board's match when it is posted: the one message that pings its two players."""
    return (
        f"🏆 Tournament #{tournament.id}, round {round_number}, board {board}: {mention(pairing.challenger)} "
        f"(moves first) vs {mention(pairing.opponent)}. A player who keeps the other waiting 15 minutes can be "
        "claimed against; with no move made that is a forfeit."
    )


def podium_embed(tournament: Tournament, changes: Mapping[int, RatingChange]) -> discord.Embed:
    """The podium at the end, with every player's rating change over the event."""
    state = tournament.game
    table = standings(state)
    embed = discord.Embed(title=f"{title(tournament)}: the podium", color=COLOR_VICTORY)
    places = [
        f"{MEDALS[min(s.rank, len(MEDALS)) - 1]} {mention(s.player.id)}: {points_text(s.points)} points"
        for s in podium(state)
    ]
    embed.description = lines_within(places, EmbedLimits.DESCRIPTION)
    lines = [f"{s.rank}. {mention(s.player.id)}: {change_text(changes.get(s.player.id))}" for s in table]
    embed.add_field(
        name="Rating change over the tournament", value=lines_within(lines, EmbedLimits.FIELD_VALUE), inline=False
    )
    return embed


def change_text(change: RatingChange | None) -> str:
    return "not rated (byes and forfeits only)" if change is None else change.text()


def history_embed(tournaments: Sequence[Tournament], total: int) -> discord.Embed:
    """The newest finished tournaments (`total` in all)."""
    embed = discord.Embed(title="🏆 Finished MMA Warriors tournaments here", color=COLOR_INFO)
    if not tournaments:
        embed.description = (
            "No tournament has finished here yet; a game master opens one with `/mma tournament create`."
        )
        return embed
    lines: list[str] = []
    for tournament in tournaments:
        state = tournament.game
        winners = " and ".join(mention(s.player.id) for s in standings(state) if s.rank == 1)
        ended = datetime.fromisoformat(tournament.ended_at) if tournament.ended_at else None
        when = discord.utils.format_dt(ended, "d") if ended else ""
        lines.append(
            f"**#{tournament.id}** {when}: {len(state.players)} players, {plural(len(state.rounds), 'round')}; "
            f"won by {winners}"
        )
    embed.description = lines_within(lines, EmbedLimits.DESCRIPTION)
    newest = f"the newest {len(tournaments)} of {total} · " if total > len(tournaments) else ""
    embed.set_footer(text=f"{newest}/mma tournament crosstable shows one's table again")
    return embed
