"""The HP the player has left at the end of simulated fights, as a PNG bar chart.

matplotlib's Agg canvas is used directly (no pyplot, no display), so this is safe in a worker thread.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from rules.andor.simulate import SimulationResult
from rules.chart_fonts import drawable, use_chart_fonts

if TYPE_CHECKING:
    from matplotlib.figure import Figure

BARS = 50  # at most: dead alone, then equal slices of 1..max HP


def hp_left_figure(result: SimulationResult) -> Figure:
    """A bar chart of the player's HP at the end of the fights (0 = defeated, in red), as a matplotlib Figure (on
    an Agg canvas)."""
    # imported here: matplotlib takes a noticeable fraction of a second to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    use_chart_fonts()
    buckets = result.hp_left_buckets(BARS)
    width = buckets[1][1] - buckets[1][0] + 1  # HP per bar (max HP is at least 6, so there is a second bucket)
    xs, heights = [low for low, _, _ in buckets], [count for _, _, count in buckets]
    top = buckets[-1][1]
    figure = Figure(figsize=(8, 4), dpi=100)
    FigureCanvasAgg(figure)
    axes: Any = figure.subplots()  # Any: matplotlib's stubs leave the **kwargs of its drawing calls untyped
    colors = ["#d9534f"] + ["#5cb85c"] * (len(xs) - 1)
    axes.bar(
        xs, heights, width=width * 0.9 if width > 1 else 0.8, align="edge" if width > 1 else "center", color=colors
    )
    axes.set_xlabel("your HP left at the end (0 = defeated)")
    axes.set_ylabel("fights")
    axes.set_title(
        f"{drawable(result.monster)} ×{result.count}: {result.fights:,} fights (seed {result.seed}), won {100 * result.win_rate:.1f}%",
        parse_math=False,  # the monster's name (an upload's) is drawn as typed: "$_$ cash" is no formula
    )
    axes.set_xlim(-1, top + 1)
    return figure


def hp_left_chart_png(result: SimulationResult) -> bytes:
    """The bar chart of `hp_left_figure` as PNG bytes."""
    out = io.BytesIO()
    hp_left_figure(result).savefig(out, format="png")  # pyright: ignore[reportUnknownMemberType]
    return out.getvalue()
