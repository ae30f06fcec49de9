"""Ratings of duels: the library's Plackett-Luce numbers on Arena's scale, the provisional rule, the display."""

import pytest
from openskill.models import PlackettLuce

from rules.rating import (
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    Rating,
    RatingChange,
    Result,
    rate_match,
    signed,
)


def library_rate(first: Rating, second: Rating, ranks: list[float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The library called directly, with the scale documented in rules/rating.py."""
    model = PlackettLuce(mu=1500, sigma=500, beta=250, tau=5)
    [[a], [b]] = model.rate(
        [[model.rating(mu=first.mu, sigma=first.sigma)], [model.rating(mu=second.mu, sigma=second.sigma)]],
        ranks=ranks,
    )
    return (a.mu, a.sigma), (b.mu, b.sigma)


def test_a_new_player_is_1500_provisional():
    assert Rating() == Rating(1500.0, 500.0, 0)
    assert Rating().text() == "1500?"


def test_the_first_win_between_newcomers_moves_each_by_158():
    rated = rate_match(Rating(), Rating(), Result.WIN)
    winner, loser = rated.first, rated.second
    assert (winner.after.mu, winner.after.sigma) == pytest.approx((1658.1234, 483.9541), abs=1e-4)
    assert (loser.after.mu, loser.after.sigma) == pytest.approx((1341.8766, 483.9541), abs=1e-4)
    assert (winner.delta, loser.delta) == (158, -158)
    assert (winner.after.games, loser.after.games) == (1, 1)
    assert winner.text() == "1500? → 1658? (+158)"
    assert loser.text() == "1500? → 1342? (-158)"


@pytest.mark.parametrize(("result", "ranks"), [(Result.WIN, [1, 2]), (Result.LOSS, [2, 1]), (Result.DRAW, [1, 1])])
@pytest.mark.parametrize(
    ("first", "second"),
    [
        (Rating(), Rating()),
        (Rating(1512.4, 180.0, 31), Rating(1603.0, 95.5, 80)),
        (Rating(2210.0, 420.0, 3), Rating(1320.0, 140.0, 55)),
    ],
)
def test_every_result_is_the_librarys_own_numbers(first, second, result, ranks):
    rated = rate_match(first, second, result)
    expected_first, expected_second = library_rate(first, second, ranks)
    assert (rated.first.after.mu, rated.first.after.sigma) == pytest.approx(expected_first, rel=1e-12)
    assert (rated.second.after.mu, rated.second.after.sigma) == pytest.approx(expected_second, rel=1e-12)
    assert rated.first.before == first and rated.second.before == second
    assert (rated.first.after.games, rated.second.after.games) == (first.games + 1, second.games + 1)


def test_the_order_of_the_players_does_not_change_their_ratings():
    a, b = Rating(1512.4, 180.0, 31), Rating(1603.0, 95.5, 80)
    forward = rate_match(a, b, Result.WIN)
    backward = rate_match(b, a, Result.LOSS)
    assert forward.first.after.mu == pytest.approx(backward.second.after.mu, rel=1e-12)
    assert forward.second.after.mu == pytest.approx(backward.first.after.mu, rel=1e-12)


def test_a_draw_between_equals_moves_no_one_and_narrows_both():
    rated = rate_match(Rating(1500.0, 200.0, 20), Rating(1500.0, 200.0, 20), Result.DRAW)
    assert rated.first.after.mu == pytest.approx(1500.0) and rated.second.after.mu == pytest.approx(1500.0)
    assert rated.first.after.sigma < 200.0
    assert rated.first.text() == "1500 → 1500 (±0)"


def test_a_draw_against_a_stronger_player_gains():
    rated = rate_match(Rating(1400.0, 150.0, 40), Rating(1700.0, 150.0, 40), Result.DRAW)
    assert rated.first.delta > 0 > rated.second.delta


def test_provisional_until_enough_games_and_a_narrow_enough_deviation():
    assert Rating(1512.0, PROVISIONAL_SIGMA, PROVISIONAL_GAMES).provisional is False
    assert Rating(1512.0, PROVISIONAL_SIGMA, PROVISIONAL_GAMES - 1).provisional is True
    assert Rating(1512.0, PROVISIONAL_SIGMA + 0.1, PROVISIONAL_GAMES + 20).provisional is True
    assert Rating(1512.0, 120.0, 40).text() == "1512"
    assert Rating(1511.5, 120.0, 40).text() == "1512"  # shown rounded


def test_ten_games_against_ones_level_end_the_provisional_rating():
    me, rival = Rating(), Rating()
    for game in range(PROVISIONAL_GAMES):
        assert me.provisional
        rated = rate_match(me, rival, Result.WIN if game % 2 else Result.LOSS)
        me, rival = rated.first.after, rated.second.after
    assert me.games == PROVISIONAL_GAMES and not me.provisional


def test_the_change_is_shown_as_the_brief_example():
    change = RatingChange(Rating(1512.3, 150.0, 30), Rating(1527.9, 148.0, 31))
    assert change.text() == "1512 → 1528 (+16)"
    assert change.delta == 16


def test_results_seen_from_each_side():
    assert [Result.of_slot(0, 0), Result.of_slot(1, 0), Result.of_slot(0, None)] == [
        Result.WIN,
        Result.LOSS,
        Result.DRAW,
    ]
    assert [r.opposite for r in Result] == [Result.LOSS, Result.WIN, Result.DRAW]
    assert [signed(16), signed(-9), signed(0)] == ["+16", "-9", "±0"]
