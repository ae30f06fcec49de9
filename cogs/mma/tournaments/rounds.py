"""The rounds of a Swiss tournament of MMA Warriors (docs/rules/tournament.md), driven from what is stored.

Every step is stored before the bot acts on it, and `advance` does whatever the stored tournament says is left:
pair the next round once every board has a result (its matches stored in the same transaction), post the boards
not yet posted, redraw the standings, post the podium. It runs after every board's match ends, after a
withdrawal, and for every running tournament when the bot starts, so a restart, even a kill mid-round, loses
nothing; a process that finds another one paired the round first (a stale save) shows what that one stored.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs.common import UserError, mention, run_engine
from cogs.common.bot import still_in_server_of
from cogs.common.posts import done_or_logged
from cogs.common.web_links import tournament_path, with_page_link
from cogs.mma.matches import boards, notes
from cogs.mma.tournaments import render as shown
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
from storage.errors import StorageOutage
from storage.mma import Match, MatchStatus, NewMatch
from storage.tournament import (
    Tournament,
    TournamentStatus,
)
from storage.versioned import StaleUpdate

if TYPE_CHECKING:
    from cogs.mma.tournaments.desk import TournamentDesk

log = logging.getLogger("arena.mma")

START_ATTEMPTS = 3  # a start tried again on the field as it is, after a join or a leave came first


def schedule_start(desk: TournamentDesk, tournament: Tournament) -> None:
    if tournament.starts_at is None:
        return
    delay = tournament.starts_at.timestamp() - desk.clock()
    desk.starts.set(tournament.id, delay, lambda: start_on_time(desk, tournament.id))


async def start_on_time(desk: TournamentDesk, tournament_id: int) -> None:
    """The start time came: the tournament starts with the players in, or, short of players, waits for its game
    master (who is told in the channel, once)."""
    tournament = await desk.repo.get(tournament_id)
    if tournament is None or tournament.status is not TournamentStatus.SIGNUP:
        return
    try:
        started = await begin(desk, tournament)
    except (UserError, RuleInputError) as refused:
        await desk.repo.clear_start(tournament.id)
        text = (
            f"🏆 Tournament #{tournament.id} could not start at its time: {refused} "
            f"{mention(tournament.created_by)} can start it with `/mma tournament start` or cancel it."
        )
    else:
        if started.state is None:  # its game master cancelled it as it started
            return
        text = started_text(started)
    await done_or_logged(desk.channel(tournament).send(text), "announce tournament %s", tournament.id)


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


async def begin(desk: TournamentDesk, tournament: Tournament) -> Tournament:
    """The field fixed (members who left the server since joining dropped), each with their rating now, and
    round 1 paired and posted."""
    async with desk.locks[tournament.id]:
        for _ in range(START_ATTEMPTS):
            here = await still_in_server_of(desk.bot, tournament.guild_id, (e.user_id for e in tournament.entrants))
            present = [e for e in tournament.entrants if e.user_id in here]
            if len(present) < MIN_PLAYERS:
                raise UserError(too_few(tournament, len(present)))
            ratings = await desk.ratings.ratings(tournament.guild_id, [e.user_id for e in present])
            players = [Player(id=e.user_id, name=e.name, rating=ratings[e.user_id].mu) for e in present]
            desk.starts.cancel(tournament.id)
            tournament = await pair_round(desk, tournament, new_tournament(players, tournament.rounds))
            if tournament.status is not TournamentStatus.SIGNUP:
                break
            # A member joined or left as it started: it starts with the field as it is now.
        else:
            raise UserError(f"Members kept joining and leaving as tournament #{tournament.id} started: start it again.")
    await advance(desk, tournament.id)
    return tournament


async def pair_round(desk: TournamentDesk, tournament: Tournament, state: TournamentState) -> Tournament:
    """The next round paired on `state` and stored with a dealt match per board; what another process stored
    first, if it did."""
    try:
        paired = await run_engine(desk.bot, with_next_round, state)
    except RuleInputError as unpaired:  # every pairing left would be a rematch, or a second bye
        log.info("tournament %s ends early: %s", tournament.id, unpaired)
        try:
            return await desk.repo.save(tournament, ended_early(state))
        except StaleUpdate:
            return await desk.repo.get(tournament.id) or tournament
    dealt: list[NewMatch] = []
    for pairing in paired.rounds[-1].pairings:
        seed = desk.matches.seed_or_new(None)
        game, feed = notes.dealt(seed, (mention(pairing.challenger), mention(pairing.opponent)))
        players = (pairing.challenger, pairing.opponent)
        names = (paired.player(pairing.challenger).name, paired.player(pairing.opponent).name)
        dealt.append(NewMatch(players, names, seed, game, feed))
    try:
        saved, _ = await desk.matches.repo.start_round(tournament, paired, dealt, desk.clock())
    except StaleUpdate:
        again = await desk.repo.get(tournament.id)
        if again is None:
            raise
        return again
    return saved


async def advance(desk: TournamentDesk, tournament_id: int) -> None:
    """Do what the stored tournament says is left (see the module's docstring); safe to run any number of times."""
    async with desk.locks[tournament_id]:
        tournament = await desk.repo.get(tournament_id)
        if tournament is None or tournament.state is None or tournament.status is TournamentStatus.SIGNUP:
            return
        if tournament.status is TournamentStatus.RUNNING:
            state = tournament.game
            if state.rounds and state.rounds[-1].complete and not is_finished(state):
                tournament = await without_leavers(desk, tournament)
                if tournament.status is TournamentStatus.RUNNING:
                    tournament = await pair_round(desk, tournament, tournament.game)
        if tournament.status is TournamentStatus.RUNNING:
            await post_boards(desk, tournament)
        await show_standings(desk, tournament)
        if tournament.status is TournamentStatus.FINISHED and tournament.podium_message_id is None:
            await post_podium(desk, tournament)


async def without_leavers(desk: TournamentDesk, tournament: Tournament) -> Tournament:
    """Before a round is paired: players who left the server since the last one are withdrawn
    (docs/rules/tournament.md, ruling 4)."""
    state = tournament.game
    here = await still_in_server_of(desk.bot, tournament.guild_id, (player.id for player in state.active))
    for player in state.active:
        if player.id not in here:
            state = withdraw(state, player.id)
            log.info("tournament %s: player %s left the server and is withdrawn", tournament.id, player.id)
    if state == tournament.game:
        return tournament
    try:
        return await desk.repo.save(tournament, state)
    except StaleUpdate:
        return await desk.repo.get(tournament.id) or tournament


async def post_boards(desk: TournamentDesk, tournament: Tournament) -> None:
    """Post each board of the latest round whose match has no message yet: the one message that pings its two
    players. A board Discord refuses is logged and posted again by the next `advance` (or the next start)."""
    latest = tournament.game.rounds[-1]
    channel = desk.channel(tournament)
    for board, match_id in (await desk.repo.match_ids(tournament.id, latest.number)).items():
        record = await desk.matches.repo.get(match_id)
        if record is None or record.message_id is not None or record.status is not MatchStatus.LIVE:
            continue
        pairing = latest.pairings[board - 1]
        embed, view = boards.board_setting_claim_timer(desk.matches, record)
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
            await desk.matches.repo.set_message(match_id, sent.id)


async def standings_of(desk: TournamentDesk, tournament: Tournament) -> discord.Embed:
    """The standings as they are, with the latest round's boards and the matches they are played as."""
    latest = tournament.game.rounds[-1].number if tournament.game.rounds else 0
    return shown.standings_embed(tournament, await desk.repo.match_ids(tournament.id, latest))


async def show_standings(desk: TournamentDesk, tournament: Tournament) -> None:
    """Redraw the tournament's message as its live standings; post it again if it is gone."""
    embed, view = await standings_of(desk, tournament), shown.standings_view(tournament)
    view = (
        await with_page_link(desk.bot, tournament.guild_id, view, tournament_path(tournament.guild_id, tournament.id))
        or view
    )
    channel = desk.channel(tournament)
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
    await desk.repo.set_message(tournament.id, sent.id)


async def post_podium(desk: TournamentDesk, tournament: Tournament) -> None:
    changes = await desk.repo.rating_changes(tournament.id)
    podium = shown.podium_embed(tournament, changes)
    sent = await done_or_logged(
        desk.channel(tournament).send(embed=podium), "post tournament %s's podium", tournament.id
    )
    if sent is not None:  # else the next start posts it
        await desk.repo.set_podium_message(tournament.id, sent.id)


async def match_ended(desk: TournamentDesk, record: Match) -> None:
    """After a match ended: if it was a tournament's board, the tournament moves on."""
    tournament_id = await desk.repo.tournament_of(record.id)
    if tournament_id is not None:
        await advanced_or_logged(desk, tournament_id)


async def advanced_or_logged(desk: TournamentDesk, tournament_id: int) -> None:
    """`advance` where nobody waits for its answer (a board's end, a start-up): a failure is logged with its
    traceback, and the tournament moves on at its next result or the next start, from what is stored."""
    try:
        await advance(desk, tournament_id)
    except Exception:
        log.exception("tournament %s could not move on; it will from its stored state", tournament_id)


async def resume(desk: TournamentDesk) -> None:
    """When the bot starts: timers of tournaments that start on their own, and every running tournament (and
    finished one without its podium) moved on as far as its stored state says (a round to pair, boards to post, a
    podium to show). In an outage, a board's next result moves its tournament on."""
    try:
        tournaments = await desk.repo.open_everywhere()
    except StorageOutage:
        log.warning("could not resume the tournaments; a board's next result moves its tournament on")
        return
    for tournament in tournaments:
        if not desk.bot.serves_guild(tournament.guild_id):
            continue
        if tournament.status is TournamentStatus.SIGNUP:
            schedule_start(desk, tournament)
        else:
            await advanced_or_logged(desk, tournament.id)
