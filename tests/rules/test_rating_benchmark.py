"""`python -m benchmarks.ratings`: deterministic given its seed, and the ratings meet the targets it measures (the
figures in docs/rules/mma.md), while the scale Arena used before misses them."""

from benchmarks.ratings import CURRENT, FORMER, main, ranks, simulate, spearman


def test_spearman_ranks_ties_by_their_mean_rank():
    assert ranks([10.0, 30.0, 20.0, 20.0]) == [0.0, 3.0, 1.5, 1.5]
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == -1.0
    assert spearman([1, 2, 3], [5, 5, 5]) == 0.0


def test_the_ratings_meet_the_targets_and_the_former_scale_does_not():
    seasons = {"seasons": 60, "players": 6, "matches": 120, "seed": 0, "spread": "even"}
    current = simulate(CURRENT, **seasons)
    assert current == simulate(CURRENT, **seasons)  # the same seed, the same seasons
    assert current.meets_targets()
    assert round(current.slope, 2) == 0.97 and round(current.spearman, 3) == 0.975
    assert (current.median_change, current.games_median, current.games_p90, current.never) == (10, 13, 16, 0)
    former = simulate(FORMER, **seasons)
    assert not former.meets_targets() and round(former.slope, 2) == 2.80 and former.median_change == 38


def test_the_command_prints_both_spreads_and_says_ok(capsys):
    assert main(["--seasons", "10"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ratings: 10 seasons of 120 matches between 6 players (Elo 1200-1900), seed 0\n")
    assert out.count("Arena (Elo scale)") == 2 and out.count("before (defaults x 60)") == 2
    assert "established after <= 15 games: ok" in out
