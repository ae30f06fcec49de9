"""A member's rating chart: the ratings after each rated game, their deviation, provisional points hollow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from matplotlib.lines import Line2D

from rules.rating import Rating, RatingChange, Result, rate_match
from rules.rating_chart import rating_chart_png, rating_figure, rating_points

ROOT = Path(__file__).resolve().parents[2]
ESTABLISHED_AFTER = 14  # games of `a_season` (against newcomers, who tell less) until the rating is established


def xs(line: Line2D) -> list[float]:
    return np.asarray(line.get_xdata()).tolist()


def ys(line: Line2D) -> list[float]:
    return np.asarray(line.get_ydata()).tolist()


def a_season(games: int) -> list[RatingChange]:
    """A member's changes, oldest first: wins on even games, losses on odd ones, against a newcomer each time."""
    me, changes = Rating(), []
    for game in range(games):
        change = rate_match(me, Rating(), Result.WIN if game % 2 == 0 else Result.LOSS).first
        changes.append(change)
        me = change.after
    return changes


def test_the_points_are_the_rating_before_the_first_game_then_after_each():
    changes = a_season(3)
    assert rating_points(changes) == [Rating(), changes[0].after, changes[1].after, changes[2].after]
    assert rating_points([]) == [Rating()]


def test_the_chart_draws_each_rating_with_its_deviation_and_hollow_provisional_points():
    changes = a_season(ESTABLISHED_AFTER + 2)
    points = rating_points(changes)
    axes = rating_figure(changes, "Ann: MMA rating").axes[0]

    rating_line, provisional, established = axes.get_lines()[1:]  # the first is the new player's 1500
    assert xs(rating_line) == list(range(ESTABLISHED_AFTER + 3))
    assert ys(rating_line) == [p.mu for p in points]
    assert xs(provisional) == list(range(ESTABLISHED_AFTER))  # 0..13 games: provisional
    assert provisional.get_markerfacecolor() == "white"
    assert xs(established) == [ESTABLISHED_AFTER, ESTABLISHED_AFTER + 1, ESTABLISHED_AFTER + 2]
    assert ys(axes.get_lines()[0]) == [1500.0, 1500.0]
    band = np.asarray(axes.collections[0].get_paths()[0].vertices)
    assert min(band[:, 1]) == min(p.mu - p.sigma for p in points)
    assert max(band[:, 1]) == max(p.mu + p.sigma for p in points)
    assert [t.get_text() for t in axes.texts] == [points[-1].text()]
    assert axes.get_title() == "Ann: MMA rating"
    legend = axes.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["± deviation", "new player", "rating", "provisional"]


def test_a_member_without_rated_games_gets_one_point_at_1500():
    axes = rating_figure([], "Ben").axes[0]
    assert ys(axes.get_lines()[1]) == [1500.0]
    assert [t.get_text() for t in axes.texts] == ["1500?"]


def test_the_chart_is_a_png():
    png = rating_chart_png(a_season(4), "Ann")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000


def test_importing_the_chart_module_does_not_load_matplotlib():
    code = "import sys, rules.rating_chart; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr
