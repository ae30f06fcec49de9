"""A member's rating history as a PNG for Discord (matplotlib's Agg canvas: no display, safe off the main thread).

Drawn for Discord's dark theme and for a phone: the embed's own dark grey behind it, light text, 1200 × 660
pixels with fonts that stay readable when Discord shrinks the image to a phone's width.

- The x axis is the rated games, from 0 (before the first) to the last game, where it ends; its label gives the
  days of the first and the last game.
- The line is the rating after each game; each game's point is marked by its result (a green ▲ a win, a red ▼
  a loss, a grey ● a draw), hollow while the rating was provisional, as the `?` marks it in text.
- The band is the rating plus or minus its deviation (sigma), faint behind the line; the y axis is fitted to
  the line, so a wide early deviation runs off the chart rather than flattening the line.
- The dashed line is a new player's 1500 (when it is in view); the peak is starred and labelled, and so is the
  rating now.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.chart_fonts import drawable, use_chart_fonts
from rules.dark_theme import BACKGROUND, GRID, LOSS, MUTED, TEXT, WIN
from rules.rating import START_MU, Rating, RatingChange, Result

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

LINE = "#5c9cff"
PEAK = "#fee75c"
RESULT_STYLE = {  # marker, colour, legend
    Result.WIN: ("^", WIN, "win"),
    Result.LOSS: ("v", LOSS, "loss"),
    Result.DRAW: ("o", MUTED, "draw"),
}
SIZE_INCHES, DPI = (6.0, 3.3), 200


@dataclass(frozen=True)
class ChartGame:
    """One rated game of a member: the change it made, the member's result and when it was rated (unix time)."""

    change: RatingChange
    result: Result
    played_at: float


def rating_points(games: Sequence[ChartGame]) -> list[Rating]:
    """The ratings to chart from a member's games, oldest first: before the first game, then after each.
    No games: a new player's rating alone."""
    if not games:
        return [Rating()]
    return [games[0].change.before, *(game.change.after for game in games)]


def _day(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).strftime("%-d %b %Y")


def _style(figure: Figure, axes: Axes) -> None:
    figure.set_facecolor(BACKGROUND)
    axes.set_facecolor(BACKGROUND)
    axes.tick_params(colors=TEXT, labelsize=10)  # pyright: ignore[reportUnknownMemberType]
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    for side in ("bottom", "left"):
        axes.spines[side].set_color(MUTED)
    axes.grid(color=GRID, linewidth=0.8)  # pyright: ignore[reportUnknownMemberType]
    axes.set_axisbelow(True)


def rating_figure(games: Sequence[ChartGame], title: str) -> Figure:
    """The chart as a matplotlib Figure (on an Agg canvas); `games` oldest first."""
    # imported here: matplotlib costs a noticeable fraction of a second to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    use_chart_fonts()
    points = rating_points(games)
    xs = [point.games for point in points]
    mus = [point.mu for point in points]
    # The ignores below: matplotlib's stubs leave the **kwargs of its drawing calls untyped.
    figure = Figure(figsize=SIZE_INCHES, dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    _style(figure, axes)

    low, high = min(mus), max(mus)
    margin = max(40.0, 0.2 * (high - low))
    axes.set_ylim(low - margin, high + margin)  # fitted to the line: the band may run off
    first, last = xs[0], xs[-1]
    if last > first:
        axes.set_xlim(first, last)  # the axis ends at the last game
    else:
        axes.set_xlim(first, first + 1)  # no games yet: the start alone
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))

    axes.fill_between(  # pyright: ignore[reportUnknownMemberType]
        xs,
        [p.mu - p.sigma for p in points],
        [p.mu + p.sigma for p in points],
        color=LINE,
        alpha=0.13,
        linewidth=0,
        label="± deviation",
        zorder=1,
    )
    if low - margin < START_MU < high + margin:
        axes.axhline(START_MU, color=MUTED, linestyle="--", linewidth=1, label="new player (1500)", zorder=2)  # pyright: ignore[reportUnknownMemberType]
    axes.plot(xs, mus, color=LINE, linewidth=2.2, label="rating", zorder=3, clip_on=False)  # pyright: ignore[reportUnknownMemberType]
    for result, (marker, colour, words) in RESULT_STYLE.items():
        named = False  # the legend names each result once, from its first set of points
        for provisional in (False, True):
            chosen = [
                p
                for p, game in zip(points[1:], games, strict=True)
                if game.result == result and p.provisional == provisional
            ]
            if chosen:
                axes.plot(  # pyright: ignore[reportUnknownMemberType]
                    [p.games for p in chosen],
                    [p.mu for p in chosen],
                    linestyle="none",
                    marker=marker,
                    markersize=6,
                    markeredgewidth=1.4,
                    markerfacecolor=BACKGROUND if provisional else colour,
                    markeredgecolor=colour,
                    label=None if named else words,
                    zorder=5,
                    clip_on=False,
                )
                named = True

    now = points[-1]
    peak = max(points[1:], key=lambda p: p.mu, default=None)
    if peak is not None and peak is not now:
        axes.plot(  # pyright: ignore[reportUnknownMemberType]
            [peak.games], [peak.mu], linestyle="none", marker="*", markersize=20, color=PEAK, zorder=4, clip_on=False
        )
        axes.annotate(  # pyright: ignore[reportUnknownMemberType]
            f"peak {peak.text()}", (peak.games, peak.mu), textcoords="offset points", xytext=(0, 11),
            ha="center", fontsize=10, color=PEAK,
        )  # fmt: skip
    now_words = now.text() + (" · peak" if peak is now else "")
    axes.annotate(  # pyright: ignore[reportUnknownMemberType]
        now_words, (now.games, now.mu), textcoords="offset points", xytext=(-4 if last > first else 4, -16 if peak is not now else 9),
        ha="right" if last > first else "left", fontsize=11, color=PEAK if peak is now else TEXT, fontweight="bold",
    )  # fmt: skip

    days = f" ({_day(games[0].played_at)} to {_day(games[-1].played_at)})" if games else ""
    axes.set_xlabel(f"rated games{days}", color=TEXT, fontsize=10)  # pyright: ignore[reportUnknownMemberType]
    axes.set_ylabel("rating", color=TEXT, fontsize=10)  # pyright: ignore[reportUnknownMemberType]
    # parse_math=False: the title holds a member's name, drawn as typed ("$_$ cash" is no formula)
    axes.set_title(drawable(title), fontsize=13, color=TEXT, parse_math=False)  # pyright: ignore[reportUnknownMemberType]
    legend = axes.legend(loc="best", fontsize=8, facecolor=BACKGROUND, edgecolor=GRID, labelcolor=TEXT, ncols=2)  # pyright: ignore[reportUnknownMemberType]
    legend.set_zorder(6)  # above the points
    return figure


def rating_chart_png(games: Sequence[ChartGame], title: str) -> bytes:
    """The chart as PNG bytes; `games` oldest first."""
    out = io.BytesIO()
    rating_figure(games, title).savefig(out, format="png")  # pyright: ignore[reportUnknownMemberType]
    return out.getvalue()


__all__ = ["ChartGame", "rating_chart_png", "rating_figure", "rating_points"]
