"""Tournaments in storage, on both backends: the sign-up, a round stored with its matches, a board's result
recorded in the transaction that ends its match, forfeits unrated, and a deleted channel's tournament cancelled."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from rules.mma.engine import CONCEDE, apply_in_place, claimed_idle, new_game, replay_rng, simple_action
from rules.tournament import Player, Result, Settings, ended_early, new_tournament, record_result, with_next_round
from storage.lifecycle import LifecycleRepository
from storage.member_data import FORMER_MEMBER, FORMER_MEMBER_NAME, LiveGames, MemberDataRepository
from storage.mma import MatchStatus, MmaRepository, NewMatch
from storage.tournament import (
    FieldFull,
    SignupClosed,
    Tournament,
    TournamentConflict,
    TournamentRepository,
    TournamentStatus,
)
from storage.versioned import StaleUpdate

GUILD, CHANNEL = 1300000000000000001, 1300000000000000002
GM = 1300000000000000003
PLAYERS = [1300000000000000010 + n for n in range(4)]


async def signed_up(repo: TournamentRepository) -> Tournament:
    tournament = await repo.create(GUILD, CHANNEL, GM, None, None)
    for number, user_id in enumerate(PLAYERS):
        assert await repo.join(tournament.id, user_id, f"Player {number}", limit=64)
    signed = await repo.get(tournament.id)
    assert signed is not None
    return signed


async def first_round(database) -> tuple[Tournament, list]:
    tournaments, mma = TournamentRepository(database), MmaRepository(database)
    tournament = await signed_up(tournaments)
    players = [Player(id=e.user_id, name=e.name, rating=1500.0) for e in tournament.entrants]
    state = with_next_round(new_tournament(players))
    dealt = []
    for pairing in state.rounds[-1].pairings:
        game, _ = new_game(pairing.challenger % 1000)
        names = (state.player(pairing.challenger).name, state.player(pairing.opponent).name)
        dealt.append(NewMatch((pairing.challenger, pairing.opponent), names, pairing.challenger % 1000, game, []))
    return await mma.start_round(tournament, state, dealt, time.time())


async def test_a_channel_signs_up_one_tournament_at_a_time(database):
    repo = TournamentRepository(database)
    starts = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
    tournament = await repo.create(GUILD, CHANNEL, GM, 4, starts)
    assert (tournament.status, tournament.rounds, tournament.starts_at) == (TournamentStatus.SIGNUP, 4, starts)
    with pytest.raises(TournamentConflict) as refused:
        await repo.create(GUILD, CHANNEL, GM, None, None)
    assert refused.value.tournament.id == tournament.id
    assert await repo.join(tournament.id, PLAYERS[0], "Ann", limit=2)
    assert not await repo.join(tournament.id, PLAYERS[0], "Ann", limit=2)  # a second click changes nothing
    assert await repo.join(tournament.id, PLAYERS[1], "Bob", limit=2)
    with pytest.raises(FieldFull):
        await repo.join(tournament.id, PLAYERS[2], "Cy", limit=2)
    assert await repo.leave(tournament.id, PLAYERS[0])
    assert not await repo.leave(tournament.id, PLAYERS[0])
    opened = await repo.open_in(CHANNEL)
    assert opened is not None and [e.name for e in opened.entrants] == ["Bob"]
    cancelled = await repo.cancel(opened)
    assert cancelled.status is TournamentStatus.CANCELLED and cancelled.ended_at is not None
    with pytest.raises(SignupClosed):
        await repo.join(tournament.id, PLAYERS[2], "Cy", limit=64)
    assert await repo.open_in(CHANNEL) is None
    assert (await repo.create(GUILD, CHANNEL, GM, None, None)).id != tournament.id  # the channel is free again


async def test_a_round_is_stored_with_its_matches_and_a_second_start_is_refused(database):
    tournament, matches = await first_round(database)
    assert tournament.status is TournamentStatus.RUNNING and len(tournament.game.rounds) == 1
    pairings = tournament.game.rounds[0].pairings
    assert [m.player_ids for m in matches] == [(p.challenger, p.opponent) for p in pairings]
    assert all(m.status is MatchStatus.LIVE and m.channel_id == CHANNEL for m in matches)
    repo = TournamentRepository(database)
    assert await repo.match_ids(tournament.id, 1) == {board: m.id for board, m in enumerate(matches, start=1)}
    read_before = replace(tournament, version=0, status=TournamentStatus.SIGNUP, state=None)
    with pytest.raises(StaleUpdate):  # another process started it first
        await MmaRepository(database).start_round(read_before, tournament.game, [], time.time())


async def test_a_played_board_is_recorded_and_rated_and_an_idle_no_show_is_an_unrated_forfeit(database):
    tournament, (first, second) = await first_round(database)
    mma, repo = MmaRepository(database), TournamentRepository(database)
    # Board 1: the challenger concedes after a move: a played game, rated.
    state = first.game
    draw = simple_action(0, "draw")
    apply_in_place(state, draw, replay_rng(state))
    apply_in_place(state, simple_action(0, CONCEDE), replay_rng(state))
    ended = await mma.save_moves(first, state, [], [draw, simple_action(0, CONCEDE)], time.time())
    assert ended.status is MatchStatus.OVER and set(ended.rating_changes) == set(first.player_ids)
    # Board 2: the challenger never moves and the opponent claims the win: a forfeit, not rated.
    claimed, _ = claimed_idle(second.game, 1)
    forfeited = await mma.save_moves(second, claimed, [], [], time.time())
    assert forfeited.status is MatchStatus.OVER and forfeited.rating_changes == {}
    stored = await repo.get(tournament.id)
    assert stored is not None
    assert [p.result for p in stored.game.rounds[0].pairings] == [Result.OPPONENT_WINS, Result.CHALLENGER_FORFEITS]
    assert stored.version == tournament.version + 2
    changes = await repo.rating_changes(tournament.id)
    assert set(changes) == set(first.player_ids)  # the forfeit's players have no rated game
    winner = first.player_ids[1]
    assert changes[winner].after.mu > changes[winner].before.mu and changes[winner].after.games == 1


async def test_a_deleted_channel_cancels_its_tournament(database):
    tournament, _ = await first_round(database)
    ended = await LifecycleRepository(database).end_channel(CHANNEL, time.time())
    assert [t.id for t in ended.tournaments] == [tournament.id]
    assert ended.tournaments[0].status is TournamentStatus.CANCELLED
    assert len(ended) == 2 + 1  # the round's two matches abandoned, and the tournament


async def test_a_member_who_asks_to_be_forgotten_leaves_the_table_as_a_former_member(database):
    tournament, (first, second) = await first_round(database)
    members = MemberDataRepository(database)
    leaving = first.player_ids[0]
    live = await members.live_games(GUILD, leaving)
    assert (live.of("mma_matches"), live.of("mma_tournaments")) == (
        1,
        1,
    )  # its match going on, and the tournament running
    data = await members.export(GUILD, leaving)
    assert [row["tournament_id"] for row in data.rows["mma_tournament_entrants"]] == [tournament.id]
    with pytest.raises(LiveGames):
        await members.forget(GUILD, leaving, data.fingerprint)
    await LifecycleRepository(database).end_channel(CHANNEL, time.time())  # the tournament ends (cancelled)
    data = await members.export(GUILD, leaving)
    await members.forget(GUILD, leaving, data.fingerprint)
    stored = await TournamentRepository(database).get(tournament.id)
    assert stored is not None
    assert leaving not in {player.id for player in stored.game.players}
    (former,) = [player for player in stored.game.players if player.name == FORMER_MEMBER_NAME]
    assert former.id < FORMER_MEMBER and stored.game.rounds[0].pairings[0].challenger == former.id
    assert [e.user_id for e in stored.entrants] == [p for p in PLAYERS if p != leaving]
    # A second member of the same table forgotten stays apart from the first.
    other = second.player_ids[0]
    await members.forget(GUILD, other, (await members.export(GUILD, other)).fingerprint)
    stored = await TournamentRepository(database).get(tournament.id)
    assert stored is not None
    assert sorted(p.id for p in stored.game.players if p.name == FORMER_MEMBER_NAME) == [former.id - 1, former.id]


async def test_a_tournament_ended_early_is_finished_once_and_listed_until_its_podium_is_posted(database):
    tournament, _ = await first_round(database)
    repo = TournamentRepository(database)
    signing_up = await repo.get((await repo.create(GUILD, CHANNEL + 1, GM, None, None)).id)
    assert signing_up is not None
    with pytest.raises(RuntimeError, match="has not started"):
        _ = signing_up.game
    played = tournament.game
    for board in (1, 2):
        played = record_result(played, 1, board, Result.CHALLENGER_WINS)
    ended = await repo.save(tournament, ended_early(played))
    assert ended.status is TournamentStatus.FINISHED and ended.ended_at is not None
    assert ended.version == tournament.version + 1
    with pytest.raises(StaleUpdate):  # read before it ended: a second process finds it ended
        await repo.save(tournament, ended_early(played))
    assert [t.id for t in await repo.open_everywhere()] == [tournament.id, signing_up.id]  # no podium yet
    await repo.set_podium_message(tournament.id, 1300000000000000099)
    assert [t.id for t in await repo.open_everywhere()] == [signing_up.id]
    assert [t.id for t in await repo.finished(GUILD, limit=10)] == [tournament.id]
    assert await repo.finished(GUILD, limit=10, offset=1) == []
    assert (await repo.finished_count(GUILD), await repo.finished_count(GUILD + 1)) == (1, 0)


async def test_a_withdrawal_is_stored_with_the_concession_of_the_game_going_on(database):
    tournament, (first, second) = await first_round(database)
    mma, repo = MmaRepository(database), TournamentRepository(database)
    leaving = first.player_ids[0]
    state = first.game
    apply_in_place(state, simple_action(0, CONCEDE), replay_rng(state))
    await mma.save_moves(first, state, [], [simple_action(0, CONCEDE)], time.time(), withdrawing=leaving)
    stored = await repo.get(tournament.id)
    assert stored is not None and stored.version == tournament.version + 1  # one save: the result and the withdrawal
    assert stored.game.rounds[0].pairings[0].result is Result.CHALLENGER_FORFEITS  # no move was made
    assert stored.game.player(leaving).withdrawn
    # The last board of the last round: the tournament is over, and a withdrawal with it changes nothing more.
    last = second.game
    apply_in_place(last, simple_action(0, CONCEDE), replay_rng(last))
    await repo.save(stored, stored.game.model_copy(update={"settings": Settings(rounds=1)}))  # a one-round event
    await mma.save_moves(second, last, [], [simple_action(0, CONCEDE)], time.time(), withdrawing=second.player_ids[0])
    ended = await repo.get(tournament.id)
    assert ended is not None and ended.status is TournamentStatus.FINISHED
    assert not ended.game.player(second.player_ids[0]).withdrawn


async def test_a_start_that_read_the_field_before_a_join_is_stale(database):
    repo = TournamentRepository(database)
    read_at_start = await signed_up(repo)
    assert await repo.join(read_at_start.id, 1300000000000000050, "Late", limit=64)
    players = [Player(id=e.user_id, name=e.name, rating=1500.0) for e in read_at_start.entrants]
    with pytest.raises(StaleUpdate):  # the late member would be signed up but left out of the field
        await MmaRepository(database).start_round(read_at_start, with_next_round(new_tournament(players)), [], 0.0)
    assert not await repo.leave(read_at_start.id, 1300000000000000051)  # no one to take off: nothing moves
    again = await repo.get(read_at_start.id)
    assert again is not None and again.version == read_at_start.version + 1 and len(again.entrants) == 5
