"""Ratings of duels: the library's Plackett-Luce numbers on the Elo scale, the provisional rule, the display."""

import pytest
from openskill.models import PlackettLuce

from rules.rating import (
    MODEL_NAME,
    PROVISIONAL_SIGMA,
    Rating,
    RatingChange,
    Result,
    competition_ranks,
    form,
    peak,
    rate_match,
    signed,
)


def library_rate(first: Rating, second: Rating, ranks: list[float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The library called directly, with the scale documented in rules/rating.py (gamma 1: a game narrows the
    deviation by all it tells)."""
    model = PlackettLuce(mu=1500, sigma=225, beta=80, tau=4, gamma=lambda *_: 1.0)
    [[a], [b]] = model.rate(
        [[model.rating(mu=first.mu, sigma=first.sigma)], [model.rating(mu=second.mu, sigma=second.sigma)]],
        ranks=ranks,
    )
    return (a.mu, a.sigma), (b.mu, b.sigma)


def test_a_new_player_is_1500_provisional():
    assert Rating() == Rating(1500.0, 225.0, 0)
    assert Rating().text() == "1500?"
    assert Rating().text_with_deviation() == "1500? ±225"
    assert MODEL_NAME == "openskill-plackett-luce mu=1500 sigma=225 beta=80 tau=4 gamma=1"


def test_the_first_win_between_newcomers_moves_each_by_75():
    # sigma^2 = 225^2 + 4^2 = 50641 (tau first); c = sqrt(2 * 80^2 + 2 * 50641) = 337.76; each moves
    # 50641 / c * 0.5 = 74.966.
    rated = rate_match(Rating(), Rating(), Result.WIN)
    winner, loser = rated.first, rated.second
    assert (winner.after.mu, winner.after.sigma) == pytest.approx((1574.9659, 212.1818), abs=1e-4)
    assert (loser.after.mu, loser.after.sigma) == pytest.approx((1425.0341, 212.1818), abs=1e-4)
    assert (winner.delta, loser.delta) == (75, -75)
    assert (winner.after.games, loser.after.games) == (1, 1)
    assert winner.text() == "1500? → 1575? (+75)"
    assert loser.text() == "1500? → 1425? (-75)"


@pytest.mark.parametrize(("result", "ranks"), [(Result.WIN, [1, 2]), (Result.LOSS, [2, 1]), (Result.DRAW, [1, 1])])
@pytest.mark.parametrize(
    ("first", "second"),
    [
        (Rating(), Rating()),
        (Rating(1512.4, 180.0, 31), Rating(1603.0, 95.5, 80)),
        (Rating(2210.0, 220.0, 3), Rating(1320.0, 60.0, 55)),
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
    rated = rate_match(Rating(1500.0, 100.0, 20), Rating(1500.0, 100.0, 20), Result.DRAW)
    assert rated.first.after.mu == pytest.approx(1500.0) and rated.second.after.mu == pytest.approx(1500.0)
    assert rated.first.after.sigma < 100.0
    assert rated.first.text() == "1500 → 1500 (±0)"


def test_a_draw_against_a_stronger_player_gains():
    rated = rate_match(Rating(1400.0, 150.0, 40), Rating(1700.0, 150.0, 40), Result.DRAW)
    assert rated.first.delta > 0 > rated.second.delta


def test_provisional_while_the_deviation_is_above_130():
    assert PROVISIONAL_SIGMA == 130.0
    assert Rating(1512.0, PROVISIONAL_SIGMA, 11).provisional is False
    assert Rating(1512.0, PROVISIONAL_SIGMA + 0.1, 30).provisional is True
    assert Rating(1512.0, 120.0, 40).text() == "1512"
    assert Rating(1511.5, 64.4, 40).text_with_deviation() == "1512 ±64"  # shown rounded


def test_eleven_games_against_ones_level_make_a_rating_established():
    # Alternating results against an equal: the deviation falls 225 -> 212.2 -> 200.9 -> ... -> 132.3 after ten
    # games and 126.2 after the eleventh, the game that says so.
    me, rival = Rating(), Rating()
    for game in range(11):
        assert me.provisional
        rated = rate_match(me, rival, Result.WIN if game % 2 else Result.LOSS)
        assert rated.first.established_now is (game == 10)
        me, rival = rated.first.after, rated.second.after
    assert me.games == 11 and not me.provisional
    assert me.sigma == pytest.approx(126.2252, abs=1e-4)
    assert not rate_match(me, rival, Result.WIN).first.established_now  # once only


def test_an_established_rating_moves_by_about_ten_points_a_game():
    # Two established equals (deviation 60): sigma^2 = 60^2 + 4^2 = 3616, c = sqrt(2 * 80^2 + 2 * 3616) = 141.53,
    # and the winner gains 3616 / c * 0.5 = 12.77.
    rated = rate_match(Rating(1600.0, 60.0, 40), Rating(1600.0, 60.0, 40), Result.WIN)
    assert rated.first.after.mu == pytest.approx(1612.7743, abs=1e-4)
    assert rated.first.delta == 13 and rated.second.delta == -13


def test_the_change_is_shown_as_the_brief_example():
    change = RatingChange(Rating(1512.3, 90.0, 30), Rating(1527.9, 88.0, 31))
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


def test_ties_share_a_rank_and_the_next_rank_counts_them():
    assert competition_ranks([1712, 1650, 1650, 1600, 1600, 1600, 1400]) == [1, 2, 2, 4, 4, 4, 7]
    assert competition_ranks([]) == []
    with pytest.raises(ValueError, match="highest first"):
        competition_ranks([1500, 1600])


def test_form_counts_the_win_streak_going_on_the_longest_and_the_last_ten():
    W, L, D = Result.WIN, Result.LOSS, Result.DRAW
    newest_first = [W, W, D, W, W, W, L, W, L, L, W, W, W, W]
    played = form(newest_first)
    assert (played.streak, played.best_streak) == (2, 4)  # a draw ends a streak too
    assert played.latest == (W, W, D, W, W, W, L, W, L, L)
    assert form([]) == form([]) and (form([]).streak, form([]).best_streak, form([]).latest) == (0, 0, ())
    assert (form([L, W]).streak, form([L, W]).best_streak) == (0, 1)


def test_the_peak_is_the_highest_established_rating_first_reached():
    ratings = [
        Rating(1740.0, 170.0, 6),  # higher, but provisional
        Rating(1667.0, 128.8, 14),
        Rating(1681.2, 125.4, 15),
        Rating(1680.6, 122.0, 16),  # shows 1681 again: the first stays the peak
        Rating(1650.0, 119.0, 17),
    ]
    assert peak(ratings) == 2
    assert peak(ratings[:1]) is None and peak([]) is None
