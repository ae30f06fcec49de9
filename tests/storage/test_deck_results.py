"""/deck results on both backends: each optimization's fresh measurement kept, and a member's best in a server."""

from __future__ import annotations

from rules.deck.optimize import Score
from storage.deck import DeckRepository, DeckResult

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
