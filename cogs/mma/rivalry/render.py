"""What /mma shows of ratings and past matches: the leaderboard by rating, the rating part of /mma stats and a
member's match history, within Discord's limits (the replay of a finished match: `replay_render`)."""

from __future__ import annotations

import datetime

import discord

from cogs.common import (
    COLOR_INFO,
    EmbedLimits,
    bold,
    clip,
    fit_embed,
    lines_within,
    mention,
)
from cogs.common.embeds import MEDALS
from cogs.mma.rivalry.items import (
    HISTORY_REPLAY,
    history_button,
    leaderboard_button,
    rivalry_select,
)
from rules.rating import PROVISIONAL_SIGMA, Rating, Result, form, peak
from rules.text import Mark, noun_for, plain, plural
from storage.mma import FighterUse, FinishedMatch, MatchTallies, ended_words
from storage.ratings import HeadToHead, Leaderboard, RatedGame, RatedMember

HISTORY_PAGE = 10  # matches a history page lists
LEADERBOARD_PAGE = 15  # members a leaderboard page lists
NO_ESTABLISHED = (
    f"No established ratings yet: a rating is provisional (`?`) until its deviation is {PROVISIONAL_SIGMA:g} or "
    "less, after about 12 rated games."
)
PROVISIONAL_HEAD = f"**Provisional** (`?`, ranked apart until the deviation is {PROVISIONAL_SIGMA:g} or less)"
CHART_FILE = "rating.png"
OPEN_REPLAY = "Open a match of this page as your own replay"
RESULT_WORDS = {Result.WIN: "Win", Result.LOSS: "Loss", Result.DRAW: "Draw", None: "Abandoned"}  # None: RULINGS 8
RESULT_LETTERS = {Result.WIN: "**W**", Result.LOSS: "L", Result.DRAW: "D"}


def stats_embed(name: str, tallies: MatchTallies, favourites: list[FighterUse]) -> discord.Embed:
    embed = discord.Embed(title=f"📊 {name}: MMA Warriors record in this server", color=COLOR_INFO)
    overall, members, ai = tallies.overall, tallies.against_members, tallies.against_ai
    if overall.played == 0:
        embed.description = "No finished matches yet. Start one with `/mma challenge` or `/mma ai`."
        return fit_embed(embed)
    rate = overall.wins / overall.played
    embed.description = (
        f"**{overall.wins:,}** {noun_for(overall.wins, 'win')} · **{overall.losses:,}** "
        f"{noun_for(overall.losses, 'loss', 'losses')} · **{overall.draws:,}** {noun_for(overall.draws, 'draw')} "
        f"({rate:.0%} won)\n"
        f"against players {members.wins}–{members.losses}, "
        f"against the AI {ai.wins}–{ai.losses}"
    )
    lines = [f"**{f.fighter}**: {plural(f.matches, 'match', 'matches')}, {f.wins} won" for f in favourites]
    embed.add_field(name="Favourite fighters", value="\n".join(lines) or "—", inline=False)
    return fit_embed(embed)


def place(rank: int) -> str:
    """A rank as the leaderboard shows it: the top three with their medal, then the number."""
    return f"{MEDALS[rank - 1]} **#{rank}**" if rank <= len(MEDALS) else f"**#{rank}**"


def standing_text(member: RatedMember) -> str:
    """`1712 ±61 · 40 games`: a member's rating with its deviation, and how many rated games made it."""
    return f"**{member.rating.text()}** ±{member.rating.deviation} · {plural(member.rating.games, 'game')}"


def _rated_line(member: RatedMember) -> str:
    return f"{place(member.rank)} {mention(member.user_id)}: {standing_text(member)}"


def leaderboard_pages(board: Leaderboard) -> int:
    return max(1, -(-len(board.everyone) // LEADERBOARD_PAGE))


def rank_text(board: Leaderboard, member: RatedMember, strong: Mark = plain) -> str:
    """`#3 of 12 established`, or `#2 of 5 provisional`: the rank among those ranked with the member."""
    kind = "provisional" if member.rating.provisional else "established"
    return f"{strong(f'#{member.rank}')} of {len(board.of_kind(member))} {kind}"


def your_standing(board: Leaderboard, user_id: int) -> str:
    """Where a member stands: their rank among the established (or apart, among the provisional), and rating."""
    member = board.standing(user_id)
    if member is None:
        return "No rated matches here yet: matches between members (`/mma challenge`) are rated."
    return f"{rank_text(board, member, bold)} · {standing_text(member)}"


def leaderboard_message(
    board: Leaderboard, page: int, asker_id: int, asker_name: str
) -> tuple[discord.Embed, discord.ui.View | None]:
    """A page of every rated member (`page` from 0): the established ranked, then the provisional ranked apart,
    ties sharing a rank; the member who asked (or turned the page) sees their own standing on every page."""
    embed = discord.Embed(title="🏆 MMA Warriors leaderboard", color=COLOR_INFO)
    everyone = board.everyone
    if not everyone:
        embed.description = (
            "No rated matches in this server yet: ratings come from matches between members (`/mma challenge`)."
        )
        return fit_embed(embed), None
    pages = leaderboard_pages(board)
    first = page * LEADERBOARD_PAGE
    shown = everyone[first : first + LEADERBOARD_PAGE]
    lines: list[str] = []
    if page == 0 and not board.established:
        lines.append(NO_ESTABLISHED)
    for index, member in enumerate(shown, start=first):
        if index == len(board.established):
            lines += ["", PROVISIONAL_HEAD]
        lines.append(_rated_line(member))
    embed.description = lines_within(lines, EmbedLimits.DESCRIPTION)
    embed.add_field(name=f"📍 {asker_name}", value=your_standing(board, asker_id), inline=False)
    embed.set_footer(
        text=f"page {page + 1} of {pages} · {plural(len(everyone), 'rated member')} · "
        "rated by matches between members (not against the AI) · ? marks a provisional rating"
    )
    if pages == 1:
        return fit_embed(embed), None
    view = discord.ui.View(timeout=None)
    view.add_item(leaderboard_button(max(page - 1, 0), label="◀ Higher", disabled=page == 0))
    view.add_item(leaderboard_button(page + 1, label="Lower ▶", disabled=page + 1 >= pages))
    return fit_embed(embed), view


def rating_field(rating: Rating, board: Leaderboard, user_id: int) -> str:
    """The rating with its deviation, the rank in the server and the rated games behind it."""
    member = board.standing(user_id)
    if member is None:
        return f"**{rating.text_with_deviation()}**: no rated matches yet (matches between members are rated)"
    text = f"**{rating.text_with_deviation()}** · {rank_text(board, member)} · {plural(rating.games, 'rated game')}"
    if rating.provisional:
        text += f"\nprovisional until its deviation is {PROVISIONAL_SIGMA:g} or less (about 12 rated games)"
    return text


def head_to_head_line(against: HeadToHead) -> str:
    tally = against.tally
    return f"{mention(against.opponent_id)}: {tally.wins} W · {tally.losses} L · {tally.draws} D"


def discord_day(when: float) -> str:
    """A unix time's day as Discord's timestamp markup, shown in each reader's own format (embeds, content)."""
    return discord.utils.format_dt(datetime.datetime.fromtimestamp(when, datetime.UTC), "d")


def peak_field(games: list[RatedGame]) -> str:
    """The highest established rating and the day it was first reached."""
    oldest_first = games[::-1]
    at = peak([game.change.after for game in oldest_first])
    if at is None:
        return "none yet: the highest rating once established"
    return f"**{oldest_first[at].change.after.text()}** on {discord_day(oldest_first[at].rated_at)}"


def add_rating(
    embed: discord.Embed,
    rating: Rating,
    board: Leaderboard,
    user_id: int,
    games: list[RatedGame],
    against: list[HeadToHead],
) -> discord.Embed:
    """The rating part of /mma stats, as a chess site's profile has it (rating ± deviation, rank, peak, streaks,
    the latest results; `games` newest first), and the rated tally against each opponent; the chart once there
    is a rated match."""
    embed.add_field(name="Rating", value=rating_field(rating, board, user_id), inline=False)
    if games:
        played = form([game.result for game in games])
        embed.add_field(name="Peak", value=peak_field(games), inline=True)
        embed.add_field(
            name="Win streak", value=f"**{played.streak}** now · best **{played.best_streak}**", inline=True
        )
        embed.add_field(
            name=f"Last {len(played.latest)} rated, newest first",
            value=" ".join(RESULT_LETTERS[result] for result in played.latest),
            inline=False,
        )
    if against:
        embed.add_field(
            name="Against members (rated)",
            value=lines_within((head_to_head_line(r) for r in against), EmbedLimits.FIELD_VALUE),
            inline=False,
        )
    if games:
        embed.set_image(url=f"attachment://{CHART_FILE}")
    return fit_embed(embed)


def day(timestamp: float) -> str:
    """A unix time's day (UTC), for plain text where a Discord timestamp does not render (options, choices)."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).date().isoformat()


def history_line(match: FinishedMatch) -> str:
    opponent = "the AI" if match.opponent_id is None else mention(match.opponent_id)
    when = discord_day(match.finished_at)
    if match.result is None:  # RULINGS 8
        return f"`#{match.match_id}` {when} vs {opponent}: **Abandoned**: its channel was deleted · not rated"
    change = match.change.text() if match.change is not None else "not rated"
    ended = f"**{RESULT_WORDS[match.result]}** ({ended_words(match.reason)})"
    return f"`#{match.match_id}` {when} vs {opponent}: {ended} · {change}"


def _replay_option(match: FinishedMatch) -> discord.SelectOption:
    """A line of the history as an option of the page's select (plain text: no mention, no markdown)."""
    return discord.SelectOption(
        label=f"#{match.match_id} · {RESULT_WORDS[match.result]} · {day(match.finished_at)}",
        value=str(match.match_id),
        description=clip(ended_words(match.reason), 100),
    )


def match_choice_label(match: FinishedMatch, opponent: str) -> str:
    """An autocomplete choice for a member's finished match; `opponent` as written (plain text)."""
    when = day(match.finished_at)
    return f"#{match.match_id} · {RESULT_WORDS[match.result]} vs {opponent} · {when} · {ended_words(match.reason)}"


def page_count(total: int) -> int:
    return max(1, -(-total // HISTORY_PAGE))


def history_message(
    member_id: int, matches: list[FinishedMatch], page: int, total: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """A page of a member's finished matches, newest first (`page` from 0), with Newer and Older buttons."""
    embed = discord.Embed(title="📜 MMA Warriors match history", color=COLOR_INFO)
    if total == 0:
        embed.description = f"{mention(member_id)} has no finished matches in this server yet."
        return fit_embed(embed), None
    head = f"{mention(member_id)}: {plural(total, 'finished match', 'finished matches')}, newest first"
    embed.description = head + "\n\n" + lines_within(map(history_line, matches), EmbedLimits.DESCRIPTION - 200)
    pages = page_count(total)
    embed.set_footer(text=f"page {page + 1} of {pages} · rating change where rated (members only)")
    view = discord.ui.View(timeout=None)
    view.add_item(history_button(member_id, max(page - 1, 0), label="◀ Newer", disabled=page == 0))
    view.add_item(history_button(member_id, page + 1, label="Older ▶", disabled=page + 1 >= pages))
    view.add_item(rivalry_select(member_id, 0, HISTORY_REPLAY, [_replay_option(m) for m in matches], OPEN_REPLAY))
    return fit_embed(embed), view
