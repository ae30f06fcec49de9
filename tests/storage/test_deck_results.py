"""/deck on both backends: each optimization's fresh measurement kept, a member's best in a server, and the
running jobs with their checkpoints."""

from __future__ import annotations

import random

from rules.deck.cards import random_deck, set_list
from rules.deck.optimize import OptimizeSettings, Score, Search
from storage.deck import DeckRepository, DeckResult, JobState, StoredJob
from storage.member_data import MemberDataRepository

GUILD, OTHER_GUILD, ALICE, BOB = 1, 2, 10, 20


def result(guild: int, user: int, seed: int, wins: int, losses: int, ties: int = 0, opponent: str | None = None):
    return DeckResult(guild, user, seed, 100, 60, 1000, opponent, Score(wins, losses, ties))


async def test_the_best_result_is_the_highest_fresh_winrate_of_the_member_in_the_server(database):
    repo = DeckRepository(database)
    assert await repo.best_result(GUILD, ALICE) is None
    await repo.record_result(result(GUILD, ALICE, 1, 6_000, 4_000))
    await repo.record_result(result(GUILD, ALICE, 2, 7_000, 2_000, 1_000, "opp.csv"))  # 70%
    await repo.record_result(result(GUILD, ALICE, 3, 5_000, 5_000))
    await repo.record_result(result(GUILD, BOB, 4, 9_000, 1_000))  # another member's
    await repo.record_result(result(OTHER_GUILD, ALICE, 5, 9_500, 500))  # another server's
    best = await repo.best_result(GUILD, ALICE)
    assert best is not None
    assert (best.seed, best.score, best.opponent_file, best.iterations, best.iterations_done, best.games) == (
        2,
        Score(7_000, 2_000, 1_000),
        "opp.csv",
        100,
        60,
        1000,
    )
    assert best.finished_at.endswith("Z") and best.score.winrate == 0.7


async def test_a_tie_goes_to_the_result_measured_over_more_games_then_the_first(database):
    repo = DeckRepository(database)
    await repo.record_result(result(GUILD, ALICE, 1, 500, 500))
    await repo.record_result(result(GUILD, ALICE, 2, 5_000, 5_000))
    await repo.record_result(result(GUILD, ALICE, 3, 5_000, 5_000))
    best = await repo.best_result(GUILD, ALICE)
    assert best is not None and best.seed == 2


def stored_job(job_id: str, guild: int | None, user: int, started_at: float = 1_800_000_000.0) -> StoredJob:
    opponent = random_deck(set_list(), random.Random(3))
    settings = OptimizeSettings(iterations=500, games=100, seed=2**63 - 1, opponent=opponent)
    return StoredJob(job_id, guild, 77, 88, user, "Al_ice", "opp.csv", JobState(settings, None), 0.0, started_at)


async def test_a_running_job_is_stored_with_its_checkpoint_and_read_back_as_it_was(database):
    repo = DeckRepository(database)
    job = stored_job("0a0b0c0d", GUILD, ALICE)
    await repo.job_started(job)
    search = Search(job.state.settings)
    for _ in range(7):
        search.step()
    checkpoint = search.checkpoint()
    assert await repo.checkpoint(job.id, JobState(job.state.settings, checkpoint), 1.5)
    await repo.shown_in(job.id, 99)
    (back,) = await repo.unfinished_jobs()
    assert back == StoredJob(
        "0a0b0c0d", GUILD, 77, 99, ALICE, "Al_ice", "opp.csv", JobState(job.state.settings, checkpoint), 1.5, 1.8e9
    )
    # the job ends: its row goes and its result is kept
    await repo.job_ended(job.id, result(GUILD, ALICE, 1, 6_000, 4_000))
    assert await repo.unfinished_jobs() == []
    best = await repo.best_result(GUILD, ALICE)
    assert best is not None and best.score == Score(6_000, 4_000, 0)


async def test_a_job_whose_row_was_erased_keeps_no_checkpoint_and_no_result(database):
    repo = DeckRepository(database)
    await repo.job_started(stored_job("00000001", GUILD, ALICE))
    await repo.job_started(stored_job("00000002", None, ALICE))  # a direct message's
    members = MemberDataRepository(database)
    data = await members.export(GUILD, ALICE)
    assert [row["id"] for row in data.rows["deck_jobs"]] == ["00000001"]  # in their data, and erased with it
    await members.forget(GUILD, ALICE, data.fingerprint)
    assert [j.id for j in await repo.unfinished_jobs()] == ["00000002"]
    assert not await repo.checkpoint("00000001", stored_job("00000001", GUILD, ALICE).state, 1.0)
    await repo.job_ended("00000001", result(GUILD, ALICE, 1, 6_000, 4_000))  # the member's word wins
    assert await repo.best_result(GUILD, ALICE) is None
