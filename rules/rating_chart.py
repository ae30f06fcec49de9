"""A member's rating history as a small PNG (matplotlib's Agg canvas: no display, safe off the main thread).

The line is the rating after each rated game (game 0: before the first), the band around it the rating plus
or minus its deviation (sigma), the dashed line a new player's 1500. Points of a provisional rating are
hollow, as the `?` marks them in text.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.rating import START_MU, Rating, RatingChange

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_LINE = "#2b7bb9"


def rating_points(changes: Sequence[RatingChange]) -> list[Rating]:
    """The ratings to chart from a member's changes, oldest first: before the first game, then after each.
    No changes: a new player's rating alone."""
    if not changes:
        return [Rating()]
    return [changes[0].before, *(change.after for change in changes)]


def rating_figure(changes: Sequence[RatingChange], title: str) -> Figure:
    """The chart as a matplotlib Figure (on an Agg canvas); `changes` oldest first."""
    # imported here: matplotlib costs a noticeable fraction of a second to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    points = rating_points(changes)
    games = [point.games for point in points]
    mus = [point.mu for point in points]
    # The ignores below: matplotlib's stubs leave the **kwargs of its drawing calls untyped.
    figure = Figure(figsize=(6, 3), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.fill_between(  # pyright: ignore[reportUnknownMemberType]
        games,
        [p.mu - p.sigma for p in points],
        [p.mu + p.sigma for p in points],
        color=_LINE,
        alpha=0.15,
        linewidth=0,
        label="± deviation",
    )
    axes.axhline(START_MU, color="#999999", linestyle="--", linewidth=1, label="new player")  # pyright: ignore[reportUnknownMemberType]
    axes.plot(games, mus, color=_LINE, linewidth=1.8, label="rating")  # pyright: ignore[reportUnknownMemberType]
    for provisional, face in ((True, "white"), (False, _LINE)):
        chosen = [p for p in points if p.provisional == provisional]
        if chosen:
            axes.plot(  # pyright: ignore[reportUnknownMemberType]
                [p.games for p in chosen],
                [p.mu for p in chosen],
                linestyle="none",
                marker="o",
                markersize=4,
                markerfacecolor=face,
                markeredgecolor=_LINE,
                label="provisional" if provisional else None,
            )
    last = points[-1]
    axes.annotate(last.text(), (last.games, last.mu), textcoords="offset points", xytext=(6, 4), fontsize=9)  # pyright: ignore[reportUnknownMemberType]
    axes.set_xlabel("rated games")  # pyright: ignore[reportUnknownMemberType]
    axes.set_ylabel("rating")  # pyright: ignore[reportUnknownMemberType]
    axes.set_xlim(games[0] - 0.5, games[-1] + 0.5 + 0.12 * max(1, games[-1] - games[0]))  # room for the label
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    # parse_math=False: the title holds a member's name, drawn as typed ("$_$ cash" is no formula)
    axes.set_title(title, fontsize=10, parse_math=False)  # pyright: ignore[reportUnknownMemberType]
    axes.legend(loc="best", fontsize=7)  # pyright: ignore[reportUnknownMemberType]
    return figure


def rating_chart_png(changes: Sequence[RatingChange], title: str) -> bytes:
    """The chart as PNG bytes; `changes` oldest first."""
    out = io.BytesIO()
    rating_figure(changes, title).savefig(out, format="png")  # pyright: ignore[reportUnknownMemberType]
    return out.getvalue()


__all__ = ["rating_chart_png", "rating_figure", "rating_points"]
