"""The rounds of a Swiss tournament of MMA Warriors (docs/rules/tournament.md), driven from what is stored.

Every step is stored before the bot acts on it, and `advance` does whatever the stored tournament says is left:
pair the next round once every board has a result (its matches stored in the same transaction), post the boards
not yet posted, redraw the standings, post the podium. It runs after every board's match ends, after a
withdrawal, and for every running tournament when the bot starts, so a restart, even a kill mid-round, loses
nothing; a process that finds another one paired the round first (a stale save) shows what that one stored.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import TYPE_CHECKING

import discord

from cogs.common import UserError, mention, run_engine
from cogs.common.posts import done_or_logged
from cogs.common.timers import Timers
from cogs.common.web_links import tournament_path, with_page_link
from cogs.mma import boards, notes
from cogs.mma import tournament_render as shown
from rules.errors import RuleInputError
from rules.text import plural
from rules.tournament import (
    MIN_PLAYERS,
    Player,
    TournamentState,
    ended_early,
    is_finished,
    new_tournament,
    with_next_round,
    withdraw,
)
from storage.mma import DealtMatch, Match, MatchStatus
from storage.ratings import RatingRepository
from storage.tournament import (
    Tournament,
    TournamentRepository,
    TournamentStatus,
)
from storage.versioned import StaleUpdate

if TYPE_CHECKING:
    from cogs.mma.cog import Mma

log = logging.getLogger("arena.mma")

START_ATTEMPTS = 3  # a start tried again on the field as it is, after a join or a leave came first
UNKNOWN_MEMBER = 10007  # Discord's error code: the user is not a member of the server


class TournamentDesk(Timers[int]):
    """What a process keeps about tournaments between clicks, none of it state: the timers of tournaments that
    start on their own (set again from storage at start-up; its game master can still start one by hand), and
    one lock per tournament so this process advances each one a step at a time."""

    def __init__(self) -> None:
        super().__init__("start tournament %s at its time")
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)


def channel_of(cog: Mma, tournament: Tournament) -> discord.PartialMessageable:
    return cog.bot.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)


def repo(cog: Mma) -> TournamentRepository:
    return TournamentRepository(cog.bot.db)


async def is_member(cog: Mma, guild: int, user_id: int) -> bool:
    """Whether the user is still in the server (asked of Discord: the bot does not receive member lists). An
    answer other than "unknown member" counts as still there."""
    try:
        await cog.bot.http.get_member(guild, user_id)
    except discord.NotFound as missing:
        return missing.code != UNKNOWN_MEMBER
    except discord.HTTPException:
        return True
    return True


def schedule_start(cog: Mma, tournament: Tournament) -> None:
    if tournament.starts_at is None:
        return
    delay = tournament.starts_at.timestamp() - cog.clock()
    cog.tournaments.set(tournament.id, delay, lambda: start_on_time(cog, tournament.id))


async def start_on_time(cog: Mma, tournament_id: int) -> None:
    """The start time came: the tournament starts with the players in, or, short of players, waits for its game
    master (who is told in the channel, once)."""
    tournament = await repo(cog).get(tournament_id)
    if tournament is None or tournament.status is not TournamentStatus.SIGNUP:
        return
    try:
        started = await begin(cog, tournament)
    except (UserError, RuleInputError) as refused:
        await repo(cog).clear_start(tournament.id)
        text = (
            f"🏆 Tournament #{tournament.id} could not start at its time: {refused} "
            f"{mention(tournament.created_by)} can start it with `/mma tournament start` or cancel it."
        )
    else:
        if started.state is None:  # its game master cancelled it as it started
            return
        text = started_text(started)
    await done_or_logged(channel_of(cog, tournament).send(text), "announce tournament %s", tournament.id)


def started_text(tournament: Tournament) -> str:
    state = tournament.game
    return (
        f"🏆 Tournament #{tournament.id} has started: {len(state.players)} players, {plural(state.settings.rounds, 'round')}. "
        "Round 1's boards are posted below; each pings its two players."
    )


def too_few(tournament: Tournament, present: int) -> str:
    """Why a tournament cannot start with `present` of its entrants (the others left the server)."""
    left = len(tournament.entrants) - present
    gone = f" ({left} of those who joined have left the server)" if left else ""
    return f"Tournament #{tournament.id} needs at least {MIN_PLAYERS} players to start; {present} joined{gone}."


async def begin(cog: Mma, tournament: Tournament) -> Tournament:
    """The field fixed (members who left the server since joining dropped), each with their rating now, and
    round 1 paired and posted."""
    async with cog.tournaments.locks[tournament.id]:
        for _ in range(START_ATTEMPTS):
            present = [e for e in tournament.entrants if await is_member(cog, tournament.guild_id, e.user_id)]
            if len(present) < MIN_PLAYERS:
                raise UserError(too_few(tournament, len(present)))
            ratings = await RatingRepository(cog.bot.db).ratings(tournament.guild_id, [e.user_id for e in present])
            players = [Player(id=e.user_id, name=e.name, rating=ratings[e.user_id].mu) for e in present]
            cog.tournaments.cancel(tournament.id)
            tournament = await pair_round(cog, tournament, new_tournament(players, tournament.rounds))
            if tournament.status is not TournamentStatus.SIGNUP:
                break
            # A member joined or left as it started: it starts with the field as it is now.
        else:
            raise UserError(f"Members kept joining and leaving as tournament #{tournament.id} started: start it again.")
    await advance(cog, tournament.id)
    return tournament


async def pair_round(cog: Mma, tournament: Tournament, state: TournamentState) -> Tournament:
    """The next round paired on `state` and stored with a dealt match per board; what another process stored
    first, if it did."""
    try:
        paired = await run_engine(cog.bot, with_next_round, state)
    except RuleInputError as unpaired:  # every pairing left would be a rematch, or a second bye
        log.info("tournament %s ends early: %s", tournament.id, unpaired)
        try:
            return await repo(cog).save(tournament, ended_early(state))
        except StaleUpdate:
            return await repo(cog).get(tournament.id) or tournament
    dealt: list[DealtMatch] = []
    for pairing in paired.rounds[-1].pairings:
        seed = cog.seed_or_new(None)
        game, feed = notes.dealt(seed, (mention(pairing.challenger), mention(pairing.opponent)))
        players = (pairing.challenger, pairing.opponent)
        names = (paired.player(pairing.challenger).name, paired.player(pairing.opponent).name)
        dealt.append(DealtMatch(players, names, seed, game, feed))
    try:
        saved, _ = await cog.repo.start_round(tournament, paired, dealt, cog.clock())
    except StaleUpdate:
        again = await repo(cog).get(tournament.id)
        if again is None:
            raise
        return again
    return saved


async def advance(cog: Mma, tournament_id: int) -> None:
    """Do what the stored tournament says is left (see the module's docstring); safe to run any number of times."""
    async with cog.tournaments.locks[tournament_id]:
        tournament = await repo(cog).get(tournament_id)
        if tournament is None or tournament.state is None or tournament.status is TournamentStatus.SIGNUP:
            return
        if tournament.status is TournamentStatus.RUNNING:
            state = tournament.game
            if state.rounds and state.rounds[-1].complete and not is_finished(state):
                tournament = await without_leavers(cog, tournament)
                if tournament.status is TournamentStatus.RUNNING:
                    tournament = await pair_round(cog, tournament, tournament.game)
        if tournament.status is TournamentStatus.RUNNING:
            await post_boards(cog, tournament)
        await show_standings(cog, tournament)
        if tournament.status is TournamentStatus.FINISHED and tournament.podium_message_id is None:
            await post_podium(cog, tournament)


async def without_leavers(cog: Mma, tournament: Tournament) -> Tournament:
    """Before a round is paired: players who left the server since the last one are withdrawn (rulings 4)."""
    state = tournament.game
    for player in state.active:
        if not await is_member(cog, tournament.guild_id, player.id):
            state = withdraw(state, player.id)
            log.info("tournament %s: player %s left the server and is withdrawn", tournament.id, player.id)
    if state == tournament.game:
        return tournament
    try:
        return await repo(cog).save(tournament, state)
    except StaleUpdate:
        return await repo(cog).get(tournament.id) or tournament


async def post_boards(cog: Mma, tournament: Tournament) -> None:
    """Post each board of the latest round whose match has no message yet: the one message that pings its two
    players. A board Discord refuses is logged and posted again by the next `advance` (or the next start)."""
    latest = tournament.game.rounds[-1]
    channel = channel_of(cog, tournament)
    for board, match_id in (await repo(cog).match_ids(tournament.id, latest.number)).items():
        record = await cog.repo.get(match_id)
        if record is None or record.message_id is not None or record.status is not MatchStatus.LIVE:
            continue
        pairing = latest.pairings[board - 1]
        embed, view = boards.board(cog, record)
        players = [discord.Object(pairing.challenger), discord.Object(pairing.opponent)]
        sent = await done_or_logged(
            channel.send(
                shown.board_call(tournament, latest.number, board, pairing),
                embed=embed,
                view=view,
                allowed_mentions=discord.AllowedMentions(users=players),
            ),
            "post board %s of tournament %s",
            board,
            tournament.id,
        )
        if sent is not None:  # else the next step, or the next start, posts it
            await cog.repo.set_message(match_id, sent.id)


async def standings_of(cog: Mma, tournament: Tournament) -> discord.Embed:
    """The standings as they are, with the latest round's boards and the matches they are played as."""
    latest = tournament.game.rounds[-1].number if tournament.game.rounds else 0
    return shown.standings_embed(tournament, await repo(cog).match_ids(tournament.id, latest))


async def show_standings(cog: Mma, tournament: Tournament) -> None:
    """Redraw the tournament's message as its live standings; post it again if it is gone."""
    embed, view = await standings_of(cog, tournament), shown.standings_view(tournament)
    view = (
        await with_page_link(cog.bot, tournament.guild_id, view, tournament_path(tournament.guild_id, tournament.id))
        or view
    )
    channel = channel_of(cog, tournament)
    try:
        if tournament.message_id is not None:
            try:
                await channel.get_partial_message(tournament.message_id).edit(content=None, embed=embed, view=view)
                return
            except discord.NotFound:
                log.info("tournament %s lost its standings message; posting it again", tournament.id)
        sent = await channel.send(embed=embed, view=view)
    except discord.HTTPException as refused:
        log.warning("could not show tournament %s's standings: %s", tournament.id, refused.text or refused.status)
        return
    await repo(cog).set_message(tournament.id, sent.id)


async def post_podium(cog: Mma, tournament: Tournament) -> None:
    changes = await repo(cog).rating_changes(tournament.id)
    podium = shown.podium_embed(tournament, changes)
    sent = await done_or_logged(
        channel_of(cog, tournament).send(embed=podium), "post tournament %s's podium", tournament.id
    )
    if sent is not None:  # else the next start posts it
        await repo(cog).set_podium_message(tournament.id, sent.id)


async def match_ended(cog: Mma, record: Match) -> None:
    """After a match ended: if it was a tournament's board, the tournament moves on."""
    tournament_id = await repo(cog).tournament_of(record.id)
    if tournament_id is not None:
        await advanced_or_logged(cog, tournament_id)


async def advanced_or_logged(cog: Mma, tournament_id: int) -> None:
    """`advance` where nobody waits for its answer (a board's end, a start-up): a failure is logged with its
    traceback, and the tournament moves on at its next result or the next start, from what is stored."""
    try:
        await advance(cog, tournament_id)
    except Exception:
        log.exception("tournament %s could not move on; it will from its stored state", tournament_id)


async def resume(cog: Mma) -> None:
    """When the bot starts: timers of tournaments that start on their own, and every running tournament (and
    finished one without its podium) moved on as far as its stored state says (a round to pair, boards to post, a
    podium to show)."""
    for tournament in await repo(cog).open_everywhere():
        if not cog.bot.serves_guild(tournament.guild_id):
            continue
        if tournament.status is TournamentStatus.SIGNUP:
            schedule_start(cog, tournament)
        else:
            await advanced_or_logged(cog, tournament.id)
