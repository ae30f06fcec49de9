"""The optimization's winrate chart as a PNG (matplotlib's Agg canvas: no display, safe off the main thread).

The curve is the best measurement so far after each iteration (biased high: the best of many noisy
measurements); the horizontal lines and bands are the start and final decks measured afresh after the run,
with their 95% intervals (RULINGS 6), the run's result (RULINGS 7) in green. Every winrate is the optimized
deck's (player 1's) against the opponent deck.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rules.chart_fonts import drawable, families_for, use_first_font
from rules.chart_pool import FigurePool
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
    """Import what drawing the chart needs, load its fonts and set up its figure, ahead of the first chart
    (the command line's chart process does it while the run plays: 9 ms of its 62 for the first chart)."""
    _charts.prepare()


def winrate_figure(result: OptimizeResult, title: str) -> Figure:
    """The chart as a matplotlib Figure (on an Agg canvas), new."""
    chart = _WinrateChart()
    chart.draw(result, title)
    return chart.figure


def winrate_chart_png(result: OptimizeResult, title: str) -> bytes:
    """The chart as PNG, compressed at zlib's fastest level: about 55 of the 265 ms a chart took at the default
    level (measured on 2 shared cores) for a file about 13% larger (42 KB).

    Every /deck optimize waits for it: a figure is set up once and then only its curve, lines, bands, limits,
    title and legend are drawn again (`FigurePool`, as the MfD battle chart), 51 against 72 ms a chart."""
    with _charts.taken() as chart:
        chart.draw(result, title)
        out = io.BytesIO()
        chart.figure.savefig(out, format="png", pil_kwargs={"compress_level": 1})  # pyright: ignore[reportUnknownMemberType]  # untyped **kwargs
        return out.getvalue()


class _WinrateChart:
    # The ignores below: matplotlib's stubs leave the **kwargs of its drawing calls untyped.
    def __init__(self) -> None:
        # imported here: matplotlib costs a noticeable fraction of a second to import
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        use_first_font()  # every text is given its fonts (`families_for`)
        self.figure = Figure(figsize=(8, 5.5), dpi=100)
        FigureCanvasAgg(self.figure)
        axes = self.axes = self.figure.add_subplot()
        (self.curve,) = axes.plot([], [], drawstyle="steps-post", color="#2b7bb9", linewidth=1.8)  # pyright: ignore[reportUnknownMemberType]
        # the start deck's and the final deck's fresh measurements: a band for the interval, a line for the rate
        self.bands = [axes.axhspan(0, 1, alpha=0.2, linewidth=0) for _ in range(2)]  # pyright: ignore[reportUnknownMemberType]
        self.levels = [axes.axhline(0, linestyle="--", linewidth=1.2) for _ in range(2)]  # pyright: ignore[reportUnknownMemberType]
        family = families_for(X_LABEL, Y_LABEL)
        axes.tick_params(labelfontfamily=family)  # pyright: ignore[reportUnknownMemberType]  # digits: every family has them
        axes.set_xlabel(X_LABEL, family=family)  # pyright: ignore[reportUnknownMemberType]
        axes.set_ylabel(Y_LABEL, family=family)  # pyright: ignore[reportUnknownMemberType]
        # Where matplotlib's placement puts the x label, under tick labels that are always one line of digits,
        # given once: that placement measures every tick label again on each draw (2-3 ms of a chart's 40).
        axes.xaxis.set_label_coords(0.5, -0.07804312)
        axes.grid(True, alpha=0.3)  # pyright: ignore[reportUnknownMemberType]
        # y given: the title sits where matplotlib's placement puts it (no ticks on top) without measuring every
        # tick label first, as that placement does on each draw
        self.title = axes.set_title("", parse_math=False, y=1.0)  # pyright: ignore[reportUnknownMemberType]
        # Fixed margins, not a layout engine (as the MfD chart): measuring every label first cost a tenth of a
        # chart's time (86 against 77 ms). They are those tight_layout found for every run tried, the right one
        # with room to spare for the last x tick label (from 100,000 iterations on, matplotlib writes "1e5" below).
        self.figure.subplots_adjust(left=0.0783, right=0.95, bottom=0.2544, top=0.9339)

    def draw(self, result: OptimizeResult, title: str) -> None:
        axes = self.axes
        ys = [100 * result.start_winrate, *(100 * w for w in result.curve)]
        self.curve.set_data(range(len(ys)), ys)
        self.curve.set_label(f"best measurement so far ({plural(result.settings.games, 'game')} each)")
        shown = list(ys)
        # the result (RULINGS 7: the better of the two on the fresh games) is the one drawn in green
        start_name, final_name = (
            ("start deck (the result)", "final deck")
            if result.kept_start
            else ("start deck", "final deck (the result)")
        )
        start_color, final_color = ("#2e9e4f", "#d9822b") if result.kept_start else ("#999999", "#2e9e4f")
        measured = (
            (start_name, result.fresh.start, start_color),
            (final_name, result.fresh.final, final_color),
        )
        for band, level, (name, score, color) in zip(self.bands, self.levels, measured, strict=True):
            low, high = score.interval
            band.set_bounds(0, 100 * low, 1, 100 * (high - low))
            band.set_color(color)
            level.set_ydata([100 * score.winrate] * 2)
            level.set_color(color)
            level.set_label(measured_label(name, score))
            shown += [100 * low, 100 * high]
        axes.set_xlim(0, max(1, len(result.curve)))
        low, high = min(shown), max(shown)
        pad = max(2.0, (high - low) * 0.1)
        axes.set_ylim(max(0.0, low - pad), min(100.0, high + pad))
        title = drawable(title)
        self.title.set_text(title)
        self.title.set_fontfamily(families_for(title))
        labels = [str(line.get_label()) for line in (self.curve, *self.levels)]
        # under the axes: inside, it would hide the start line or the curve, wherever they run
        legend_font = {"size": "small", "family": families_for(*labels)}
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), prop=legend_font, frameon=False)  # pyright: ignore[reportUnknownMemberType]


X_LABEL = "iteration"
Y_LABEL = "optimized deck's winrate against the opponent (%)"
_charts = FigurePool(_WinrateChart)
