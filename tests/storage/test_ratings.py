"""MMA ratings on both backends (tests/storage/conftest.py): a match is rated once in the transaction given,
whatever the retries and concurrent ends; the leaderboard, history and record against each opponent read it."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from rules.contract import Tally
from rules.mma.state import EndReason
from rules.rating import MODEL_NAME, Rating, Result, rate_match
from storage.ratings import HeadToHead, RatingRepository
from storage.times import stored_time

GUILD, OTHER_GUILD = 10, 11
ANN, BEN, CAL, DOT = 101, 102, 103, 104
JUDGES, CONCEDED, HEALTH = EndReason.JUDGES, EndReason.CONCEDED, EndReason.HEALTH_DEPLETED


async def finished_match(database, players: tuple[int, int], guild: int = GUILD) -> int:
    """A match row between two members, as storage/mma/matches.py keeps one that ended (the changes reference it)."""
    async with database.transaction() as conn:
        row = await conn.fetch_required(
            "INSERT INTO mma_matches (guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
            "status, seed, last_move_at) VALUES (?, 20, ?, 'a', ?, 'b', 'over', 1, ?) RETURNING id",
            (guild, *players, stored_time(0)),
        )
    return row["id"]


async def table(database, name: str) -> list[tuple]:
    rows = await database.fetch_all(f"SELECT * FROM {name} ORDER BY 1, 2")
    return [tuple(row) for row in rows]


async def play(repo: RatingRepository, database, players, winner, reason=HEALTH, at=1000.0, guild=GUILD):
    match_id = await finished_match(database, players, guild)
    return match_id, await repo.rate(guild, match_id, players, winner, reason, at)


async def test_a_match_is_rated_in_the_transaction_given_with_the_rules_numbers(database):
    repo = RatingRepository(database)
    match_id = await finished_match(database, (ANN, BEN))
    async with database.transaction() as conn:
        rated = await repo.rate_match(conn, GUILD, match_id, (ANN, BEN), 1, CONCEDED, 1700000000.5)

    expected = rate_match(Rating(), Rating(), Result.LOSS)
    assert rated == expected
    assert rated.first.text() == "1500? → 1425? (-75)" and rated.second.text() == "1500? → 1575? (+75)"
    assert await repo.rating(GUILD, ANN) == expected.first.after
    assert await repo.rating(GUILD, BEN) == expected.second.after
    assert await repo.rating(OTHER_GUILD, ANN) == Rating()  # per server
    changes = await database.fetch_all(
        "SELECT user_id, opponent_id, result, reason, games_after, rated_at FROM mma_rating_changes ORDER BY user_id"
    )
    assert [tuple(row) for row in changes] == [
        (ANN, BEN, "loss", CONCEDED, 1, stored_time(1700000000.5)),
        (BEN, ANN, "win", CONCEDED, 1, stored_time(1700000000.5)),
    ]


async def test_rating_the_same_match_again_changes_nothing(database):
    repo = RatingRepository(database)
    match_id, first = await play(repo, database, (ANN, BEN), 0)
    ratings, changes = await table(database, "mma_ratings"), await table(database, "mma_rating_changes")

    again = await repo.rate(GUILD, match_id, (ANN, BEN), 0, HEALTH, 2000.0)
    async with database.transaction() as conn:  # and inside a later transaction, players in the other order
        swapped = await repo.rate_match(conn, GUILD, match_id, (BEN, ANN), 1, HEALTH, 3000.0)

    assert again == first
    assert (swapped.first, swapped.second) == (first.second, first.first)
    assert await table(database, "mma_ratings") == ratings
    assert await table(database, "mma_rating_changes") == changes
    assert (await repo.rating(GUILD, ANN)).games == 1
    assert await repo.match_changes(match_id) == {ANN: first.first, BEN: first.second}
    assert await repo.match_changes(match_id + 1) == {}


async def test_a_rating_is_undone_with_the_transaction_that_ends_the_match(database):
    repo = RatingRepository(database)
    match_id = await finished_match(database, (ANN, BEN))
    with pytest.raises(RuntimeError, match="the save failed"):
        async with database.transaction() as conn:
            await repo.rate_match(conn, GUILD, match_id, (ANN, BEN), 0, HEALTH, 1000.0)
            raise RuntimeError("the save failed")
    assert await table(database, "mma_ratings") == []
    assert await table(database, "mma_rating_changes") == []
    assert (await repo.rate(GUILD, match_id, (ANN, BEN), 0, HEALTH, 1000.0)).first.after.games == 1


async def test_concurrent_ratings_of_one_match_rate_it_once(database):
    repo = RatingRepository(database)
    match_id = await finished_match(database, (ANN, BEN))
    results = await asyncio.gather(*(repo.rate(GUILD, match_id, (ANN, BEN), 0, HEALTH, 1000.0) for _ in range(10)))
    assert all(result == results[0] for result in results)
    assert len(await table(database, "mma_rating_changes")) == 2
    assert (await repo.rating(GUILD, ANN)).games == 1


async def test_matches_ending_at_once_each_start_from_the_rating_the_last_one_left(database):
    """Twelve matches of one member end together: each is rated from the rating the one before left (the
    member's lock), so none is lost and the history chains."""
    repo = RatingRepository(database)
    opponents = [200 + i for i in range(12)]
    matches = [await finished_match(database, (ANN, rival)) for rival in opponents]
    await asyncio.gather(
        *(repo.rate(GUILD, match_id, (ANN, rival), 0, HEALTH, 1000.0) for match_id, rival in zip(matches, opponents))
    )
    ann = await repo.rating(GUILD, ANN)
    assert ann.games == 12
    history = sorted(await repo.history(GUILD, ANN), key=lambda game: game.change.after.games)
    assert [game.change.after.games for game in history] == list(range(1, 13))
    for earlier, later in itertools.pairwise(history):
        assert later.change.before == earlier.change.after
    assert history[-1].change.after == ann
    assert history[0].change.before == Rating()


async def test_the_leaderboard_ranks_everyone_established_and_provisional_apart(database):
    repo = RatingRepository(database)
    for game in range(12):  # Ann and Ben: twelve games (established after eleven), Ann wins eight
        await play(repo, database, (ANN, BEN), 0 if game % 3 else 1, at=1000.0 + game)
    await play(repo, database, (CAL, DOT), 0, at=2000.0)
    await play(repo, database, (DOT, CAL), None, reason=JUDGES, at=2001.0)
    await play(repo, database, (CAL, ANN), 1, at=500.0, guild=OTHER_GUILD)

    board = await repo.leaderboard(GUILD)

    assert [(m.user_id, m.rating.games) for m in board.established] == [(ANN, 12), (BEN, 12)]
    assert [(m.user_id, m.rating.games) for m in board.provisional] == [(CAL, 2), (DOT, 2)]
    assert not any(m.rating.provisional for m in board.established)
    assert all(m.rating.provisional for m in board.provisional)
    assert board.established[0].rating.mu > board.established[1].rating.mu
    assert board.established[0].rating == await repo.rating(GUILD, ANN)
    assert board.established[0].updated_at == 1011.0
    other = await repo.leaderboard(OTHER_GUILD)
    assert (other.established, [m.user_id for m in other.provisional]) == ([], [ANN, CAL])
    assert [m.rank for m in board.established] == [1, 2] and [m.rank for m in board.provisional] == [1, 2]
    assert board.everyone == board.established + board.provisional
    assert board.standing(DOT) == board.provisional[1] and board.standing(999) is None
    assert board.of_kind(board.provisional[1]) == board.provisional


async def test_history_is_newest_first_with_opponent_result_reason_date_and_change(database):
    repo = RatingRepository(database)
    first_id, first = await play(repo, database, (ANN, BEN), 0, at=1000.0)
    second_id, second = await play(repo, database, (CAL, ANN), None, reason=JUDGES, at=2000.0)
    third_id, third = await play(repo, database, (ANN, BEN), 1, reason=CONCEDED, at=3000.0)

    history = await repo.history(GUILD, ANN)

    assert [(g.match_id, g.opponent_id, g.result, g.reason, g.rated_at) for g in history] == [
        (third_id, BEN, Result.LOSS, CONCEDED, 3000.0),
        (second_id, CAL, Result.DRAW, JUDGES, 2000.0),
        (first_id, BEN, Result.WIN, HEALTH, 1000.0),
    ]
    assert [g.change for g in history] == [third.first, second.second, first.first]
    assert history[2].change.text() == "1500? → 1575? (+75)"
    assert await repo.history_count(GUILD, ANN) == 3
    page = await repo.history(GUILD, ANN, limit=2, offset=1)
    assert [g.match_id for g in page] == [second_id, first_id]
    assert await repo.history(GUILD, DOT) == [] and await repo.history_count(GUILD, DOT) == 0
    with pytest.raises(ValueError, match="needs its length"):
        await repo.history(GUILD, ANN, offset=2)


async def test_the_head_to_heads_count_rated_matches_against_each_opponent(database):
    repo = RatingRepository(database)
    await play(repo, database, (ANN, BEN), 0, at=1000.0)
    await play(repo, database, (BEN, ANN), 1, at=1100.0)
    await play(repo, database, (ANN, BEN), 1, at=1200.0)
    await play(repo, database, (ANN, CAL), None, reason=JUDGES, at=1300.0)
    await play(repo, database, (ANN, DOT), 0, at=900.0, guild=OTHER_GUILD)

    assert await repo.head_to_heads(GUILD, ANN) == [
        HeadToHead(BEN, Tally(wins=2, losses=1, draws=0), last_played=1200.0),
        HeadToHead(CAL, Tally(wins=0, losses=0, draws=1), last_played=1300.0),
    ]
    assert (await repo.head_to_heads(GUILD, BEN))[0] == HeadToHead(ANN, Tally(1, 2, 0), 1200.0)
    assert (await repo.head_to_heads(GUILD, ANN))[0].tally.played == 3


async def test_a_member_is_never_rated_against_themselves(database):
    repo = RatingRepository(database)
    match_id = await finished_match(database, (ANN, BEN))
    with pytest.raises(ValueError, match="against themselves"):
        await repo.rate(GUILD, match_id, (ANN, ANN), 0, HEALTH, 1000.0)
    assert await table(database, "mma_ratings") == []


async def test_ratings_of_an_earlier_model_are_recomputed_from_the_matches_in_order_once(database):
    repo = RatingRepository(database)
    assert await repo.recompute(500.0) is None  # nothing rated: nothing to do, and no transaction for it
    assert await database.fetch_all("SELECT * FROM mma_rating_models") == []
    await play(repo, database, (ANN, BEN), 0, at=1000.0)
    await play(repo, database, (BEN, CAL), None, reason=JUDGES, at=1100.0)
    await play(repo, database, (CAL, ANN), 1, at=1200.0)
    await play(repo, database, (DOT, ANN), 0, at=1300.0)
    await play(repo, database, (ANN, BEN), 1, at=900.0, guild=OTHER_GUILD)
    ratings, changes = await table(database, "mma_ratings"), await table(database, "mma_rating_changes")
    # As an earlier model left them: other numbers, the same matches and results. Dot has since erased their data:
    # their rows are gone, Ann's change from their match stays.
    async with database.transaction() as conn:
        await conn.execute("UPDATE mma_ratings SET mu = mu * 3 - 3000, sigma = sigma + 200")
        await conn.execute(
            "UPDATE mma_rating_changes SET mu_before = mu_before + 7, sigma_before = 400, mu_after = 1, sigma_after = 2"
        )
        await conn.execute("DELETE FROM mma_ratings WHERE user_id = ?", (DOT,))
        await conn.execute("DELETE FROM mma_rating_changes WHERE user_id = ?", (DOT,))

    assert await repo.recompute(5000.0) == 5

    assert await table(database, "mma_ratings") == [row for row in ratings if row[1] != DOT]
    assert await table(database, "mma_rating_changes") == [row for row in changes if row[1] != DOT]
    assert [tuple(row) for row in await database.fetch_all("SELECT * FROM mma_rating_models")] == [
        (MODEL_NAME, stored_time(5000.0), 5)
    ]
    assert await repo.recompute(6000.0) is None  # once for a model
    assert (await repo.history(GUILD, ANN))[0].change.before == (await repo.history(GUILD, ANN))[1].change.after
