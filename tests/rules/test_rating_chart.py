"""A member's rating chart, read off the matplotlib Figure: drawn for Discord's dark theme, the games on the x
axis ending at the last one, wins and losses marked (hollow while provisional), the peak, a faint deviation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D

from rules.dark_theme import BACKGROUND, TEXT
from rules.rating import Rating, Result, rate_match
from rules.rating_chart import ChartGame, rating_chart_png, rating_figure, rating_points

ROOT = Path(__file__).resolve().parents[2]
ESTABLISHED_AFTER = 14  # games of `a_season` (against newcomers, who tell less) until the rating is established


def xs(line: Line2D) -> list[float]:
    return np.asarray(line.get_xdata()).tolist()


def ys(line: Line2D) -> list[float]:
    return np.asarray(line.get_ydata()).tolist()


DAY = 86400
JAN_1_2026 = 1767225600


def a_season(games: int) -> list[ChartGame]:
    """A member's games, oldest first, a day apart from 1 January 2026: wins on even games, losses on odd ones,
    against a newcomer each time."""
    me, season = Rating(), []
    for game in range(games):
        result = Result.WIN if game % 2 == 0 else Result.LOSS
        change = rate_match(me, Rating(), result).first
        season.append(ChartGame(change, result, JAN_1_2026 + game * DAY))
        me = change.after
    return season


def lines_labelled(axes, label: str) -> list[Line2D]:
    return [line for line in axes.get_lines() if line.get_label() == label]


def test_the_points_are_the_rating_before_the_first_game_then_after_each():
    season = a_season(3)
    assert rating_points(season) == [Rating(), *(game.change.after for game in season)]
    assert rating_points([]) == [Rating()]


def test_the_chart_is_drawn_for_discords_dark_theme_and_a_phone():
    figure = rating_figure(a_season(4), "Ann: MMA rating")
    axes = figure.axes[0]
    # 1200 x 660 pixels, Discord's dark embed behind it, light text big enough to read shrunk to a phone's width
    assert (figure.get_figwidth() * figure.dpi, figure.get_figheight() * figure.dpi) == (1200, 660)
    assert to_hex(figure.get_facecolor()) == to_hex(axes.get_facecolor()) == BACKGROUND
    assert to_hex(axes.title.get_color()) == TEXT and float(axes.title.get_fontsize()) >= 13
    assert all(float(label.get_fontsize()) >= 10 for label in axes.get_xticklabels() + axes.get_yticklabels())
    assert axes.title.get_text() == "Ann: MMA rating" and axes.title.get_parse_math() is False


def test_the_x_axis_is_the_games_ending_at_the_last_one_with_their_days():
    season = a_season(ESTABLISHED_AFTER + 2)
    axes = rating_figure(season, "Ann").axes[0]
    assert axes.get_xlim() == (0, ESTABLISHED_AFTER + 2)  # not one game past the data
    assert axes.get_xlabel() == "rated games (1 Jan 2026 to 16 Jan 2026)"
    (rating_line,) = lines_labelled(axes, "rating")
    assert xs(rating_line) == list(range(ESTABLISHED_AFTER + 3))
    assert ys(rating_line) == [p.mu for p in rating_points(season)]


def test_wins_and_losses_are_marked_hollow_while_provisional():
    season = a_season(ESTABLISHED_AFTER + 2)  # wins on games 1, 3, 5 ... (even indexes), losses on 2, 4 ...
    points = rating_points(season)
    axes = rating_figure(season, "Ann").axes[0]
    marks = {
        (line.get_marker(), line.get_markerfacecolor() == BACKGROUND): xs(line)
        for line in axes.get_lines()
        if line.get_marker() in ("^", "v")
    }
    games = range(1, ESTABLISHED_AFTER + 3)
    expected = {
        (marker, points[g].provisional): [
            h for h in games if (h % 2 == 1) == (marker == "^") and points[h].provisional == points[g].provisional
        ]
        for g in games
        for marker in ("^", "v")
    }
    assert marks == expected
    assert ("^", True) in marks and ("^", False) in marks  # both kinds are in this season
    legend = axes.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["± deviation", "new player (1500)", "rating", "win", "loss"]


def test_the_peak_is_starred_and_labelled_and_the_rating_now_too():
    season = a_season(5)  # win, loss, win, loss, win
    points = rating_points(season)
    peak = max(points[1:], key=lambda p: p.mu)
    axes = rating_figure(season, "Ann").axes[0]
    (star,) = [line for line in axes.get_lines() if line.get_marker() == "*"]
    assert (xs(star), ys(star)) == ([peak.games], [peak.mu])
    assert [t.get_text() for t in axes.texts] == [f"peak {peak.text()}", points[-1].text()]
    # A peak that is the rating now is said once.
    rising = a_season(1)
    axes = rating_figure(rising, "Ann").axes[0]
    assert [t.get_text() for t in axes.texts] == [f"{rising[0].change.after.text()} · peak"]
    assert not [line for line in axes.get_lines() if line.get_marker() == "*"]


def test_the_deviation_is_a_faint_band_behind_the_line_which_sets_the_scale():
    season = a_season(ESTABLISHED_AFTER + 2)
    points = rating_points(season)
    axes = rating_figure(season, "Ann").axes[0]
    band = axes.collections[0]
    vertices = np.asarray(band.get_paths()[0].vertices)
    assert min(vertices[:, 1]) == min(p.mu - p.sigma for p in points)
    assert max(vertices[:, 1]) == max(p.mu + p.sigma for p in points)
    (rating_line,) = lines_labelled(axes, "rating")
    alpha = band.get_alpha()
    assert alpha is not None and alpha <= 0.2
    assert band.get_zorder() < rating_line.get_zorder()
    low, high = axes.get_ylim()  # fitted to the line, not to the band (which runs off)
    assert low <= min(p.mu for p in points) and high >= max(p.mu for p in points)
    assert high - low < max(p.mu + p.sigma for p in points) - min(p.mu - p.sigma for p in points)


def test_a_member_without_rated_games_gets_one_point_at_1500():
    axes = rating_figure([], "Ben").axes[0]
    (rating_line,) = lines_labelled(axes, "rating")
    assert ys(rating_line) == [1500.0]
    assert [t.get_text() for t in axes.texts] == ["1500?"]


def test_the_chart_is_a_png():
    png = rating_chart_png(a_season(4), "Ann")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000


def test_importing_the_chart_module_does_not_load_matplotlib():
    code = "import sys, rules.rating_chart; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr
