"""The optimization's winrate chart as a PNG (matplotlib's Agg canvas: no display, safe off the main thread).

The curve is the best measurement so far after each iteration (biased high: the best of many noisy
measurements); the horizontal lines and bands are the start and final decks measured afresh after the run,
with their 95% intervals (RULINGS 6), the run's result (RULINGS 7) in green. Every winrate is the optimized
deck's (player 1's) against the opponent deck.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rules.chart_fonts import drawable, families_for, use_chart_fonts
from rules.deck.optimize import OptimizeResult, Score
from rules.text import plural

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def measured_label(name: str, score: Score) -> str:
    low, high = score.interval
    return (
        f"{name}, {score.games:,} new games: {100 * score.winrate:.1f}% "
        f"(95% interval {100 * low:.1f}–{100 * high:.1f}%)"
    )


def preload_matplotlib() -> None:
    """Import what drawing the chart needs, and load its fonts, ahead of the first chart."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401  # pyright: ignore[reportUnusedImport]
    from matplotlib.figure import Figure  # noqa: F401  # pyright: ignore[reportUnusedImport]

    use_chart_fonts()


def winrate_figure(result: OptimizeResult, title: str) -> Figure:
    """The chart as a matplotlib Figure (on an Agg canvas)."""
    # imported here: matplotlib costs a noticeable fraction of a second to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    use_chart_fonts()
    # The ignores below: matplotlib's stubs leave the **kwargs of its drawing calls untyped.
    figure = Figure(figsize=(8, 5.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    xs = range(len(result.curve) + 1)
    ys = [100 * result.start_winrate, *(100 * w for w in result.curve)]
    axes.step(  # pyright: ignore[reportUnknownMemberType]
        xs,
        ys,
        where="post",
        color="#2b7bb9",
        linewidth=1.8,
        label=f"best measurement so far ({plural(result.settings.games, 'game')} each)",
    )
    shown = list(ys)
    # the result (RULINGS 7: the better of the two on the fresh games) is the one drawn in green
    start_name, final_name = (
        ("start deck (the result)", "final deck") if result.kept_start else ("start deck", "final deck (the result)")
    )
    start_color, final_color = ("#2e9e4f", "#d9822b") if result.kept_start else ("#999999", "#2e9e4f")
    for name, score, color in (
        (start_name, result.fresh.start, start_color),
        (final_name, result.fresh.final, final_color),
    ):
        low, high = score.interval
        axes.axhspan(100 * low, 100 * high, color=color, alpha=0.2, linewidth=0)  # pyright: ignore[reportUnknownMemberType]
        axes.axhline(  # pyright: ignore[reportUnknownMemberType]
            100 * score.winrate,
            color=color,
            linestyle="--",
            linewidth=1.2,
            label=measured_label(name, score),
        )
        shown += [100 * low, 100 * high]
    title = drawable(title)
    x_label, y_label = "iteration", "optimized deck's winrate against the opponent (%)"
    labels = [str(line.get_label()) for line in axes.get_lines()]
    family = families_for(title, x_label, y_label, *labels)  # tick labels are digits, which every family has
    axes.tick_params(labelfontfamily=family)  # pyright: ignore[reportUnknownMemberType]
    axes.set_xlabel(x_label, family=family)  # pyright: ignore[reportUnknownMemberType]
    axes.set_ylabel(y_label, family=family)  # pyright: ignore[reportUnknownMemberType]
    axes.set_xlim(0, max(1, len(result.curve)))
    low, high = min(shown), max(shown)
    pad = max(2.0, (high - low) * 0.1)
    axes.set_ylim(max(0.0, low - pad), min(100.0, high + pad))
    axes.set_title(title, parse_math=False, family=family)  # pyright: ignore[reportUnknownMemberType]
    axes.grid(True, alpha=0.3)  # pyright: ignore[reportUnknownMemberType]
    # under the axes: inside, it would hide the start line or the curve, wherever they run
    legend_font = {"size": "small", "family": family}
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), prop=legend_font, frameon=False)  # pyright: ignore[reportUnknownMemberType]
    # Fixed margins, not a layout engine (as the MfD chart): measuring every label first cost a tenth of a
    # chart's time (86 against 77 ms). They are those tight_layout found for every run tried, the right one
    # with room to spare for the last x tick label (from 100,000 iterations on, matplotlib writes "1e5" below).
    figure.subplots_adjust(left=0.0783, right=0.95, bottom=0.2544, top=0.9339)
    return figure


def winrate_chart_png(result: OptimizeResult, title: str) -> bytes:
    """The chart as PNG, compressed at zlib's fastest level: about 55 of the 265 ms a chart took at the default
    level (measured on 2 shared cores) for a file about 13% larger (42 KB)."""
    out = io.BytesIO()
    figure = winrate_figure(result, title)
    figure.savefig(out, format="png", pil_kwargs={"compress_level": 1})  # pyright: ignore[reportUnknownMemberType]  # see above
    return out.getvalue()
