"""Marked for Death's charts as PNGs: the odds (outcome rates with their 95% intervals, and how many rounds
the battles lasted) and a battle (each side's fighters standing and total HP per round, every run so far).

matplotlib's Agg canvas is used directly (no pyplot, no display), so this is safe in a worker thread.
"""

from __future__ import annotations

import io

from rules.chart_fonts import drawable, use_chart_fonts
from rules.chart_pool import FigurePool
from rules.mfd.models import SIDES, BattleCurve, OddsResult
from rules.mfd.odds import outcome_rows
from rules.stats import wilson_interval
from rules.text import plural

_COLOURS = {"Heroes win": "#3b82f6", "Villains win": "#ef4444", "Draw": "#a3a3a3"}


def odds_chart_png(odds: OddsResult) -> bytes:
    # imported here: matplotlib takes a noticeable fraction of a second to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    use_chart_fonts()
    figure = Figure(figsize=(9, 3.6), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    outcomes, rounds = figure.subplots(1, 2, width_ratios=(1, 1.4))

    rows = outcome_rows(odds)
    rates = [count / odds.battles for _, count in rows]
    intervals = [wilson_interval(count, odds.battles) for _, count in rows]
    errors = [
        [r - low for r, (low, _) in zip(rates, intervals, strict=True)],
        [high - r for r, (_, high) in zip(rates, intervals, strict=True)],
    ]
    labels = [
        f"Unfinished\n({plural(odds.max_rounds, 'round')})" if label.startswith("Both") else label.replace(" ", "\n")
        for label, _ in rows
    ]
    bars = outcomes.bar(
        labels,
        [100 * r for r in rates],
        yerr=[[100 * e for e in side] for side in errors],
        capsize=4,
        color=[_COLOURS.get(label, "#facc15") for label, _ in rows],
    )
    outcomes.bar_label(bars, labels=[f"{100 * r:.1f}%" for r in rates], padding=2, fontsize=8)
    outcomes.set_ylim(0, 110)
    outcomes.set_ylabel("% of battles (95% interval)")
    outcomes.set_title(f"Outcomes of {odds.battles:,} battles")

    lengths = list(odds.rounds_histogram)
    rounds.bar(lengths, [100 * odds.rounds_histogram[n] / odds.battles for n in lengths], color="#6366f1", width=0.8)
    rounds.set_xlabel("rounds fought")
    rounds.set_ylabel("% of battles")
    rounds.set_title("Battle length")
    if len(lengths) <= 20:
        rounds.set_xticks(lengths)
    # matplotlib's stubs leave the **kwargs of its drawing calls untyped
    figure.suptitle(f"Marked for Death odds (seed {odds.seed})", fontsize=10)  # pyright: ignore[reportUnknownMemberType]

    out = io.BytesIO()
    figure.savefig(out, format="png")  # pyright: ignore[reportUnknownMemberType]
    return out.getvalue()


def battle_chart_png(curve: BattleCurve, title: str) -> bytes:
    """Each side's fighters standing and total HP after every round of the battle so far (every run), as a
    PNG: a long battle seen, not scrolled. Lines without markers, so thousands of rounds cost no more than a
    few."""
    with _battle_charts.taken() as chart:
        return chart.render(curve, title)


class _BattleChart:
    def __init__(self) -> None:
        # imported here: matplotlib takes a noticeable fraction of a second to import
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator

        use_chart_fonts()
        # Fixed margins, not a layout engine: the constrained layout measures every label first and doubles
        # the cost.
        self.figure = Figure(figsize=(9, 3.8), dpi=100)
        FigureCanvasAgg(self.figure)
        standing, hp = self.figure.subplots(1, 2)
        self.figure.subplots_adjust(left=0.07, right=0.98, bottom=0.13, top=0.78, wspace=0.22)
        self.axes = (standing, hp)
        # Where both sides have the same values the lines coincide: the Heroes' is drawn wide underneath and
        # the Villains' narrow on top, so both stay visible.
        widths = {"Heroes": 4.0, "Villains": 1.6}
        self.lines = tuple(
            tuple(
                axes.plot(
                    [],
                    [],
                    drawstyle="steps-post",
                    color=_COLOURS[f"{label} win"],
                    linewidth=widths[label],
                    label=label,
                    zorder=2 if label == "Heroes" else 3,
                )[0]
                for label in SIDES
            )
            for axes in self.axes
        )
        for axes, what, heading in ((standing, "fighters standing", "Fighters standing"), (hp, "total HP", "Total HP")):
            axes.set_xlabel("round")
            axes.xaxis.set_major_locator(MaxNLocator(integer=True))
            axes.set_ylabel(what)
            axes.set_title(heading)
        standing.yaxis.set_major_locator(MaxNLocator(integer=True))  # whole fighters only
        # one legend for both charts, above them: inside, it would cover the lines' ends
        self.figure.legend(  # pyright: ignore[reportUnknownMemberType]
            handles=list(self.lines[0]),
            loc="upper center",
            bbox_to_anchor=(0.5, 0.93),
            ncols=2,
            fontsize=9,
            frameon=False,
        )
        self.title = self.figure.suptitle("", fontsize=10, y=0.99, parse_math=False)  # pyright: ignore[reportUnknownMemberType]

    def render(self, curve: BattleCurve, title: str) -> bytes:
        for axes, lines, values in zip(self.axes, self.lines, (curve.standing, curve.hp), strict=True):
            for line, side in zip(lines, values, strict=True):
                line.set_data(curve.rounds, side)
            axes.relim()
            axes.set_autoscale_on(True)  # set_ylim below turns autoscaling off for the next chart
            axes.autoscale_view()
            axes.set_ylim(bottom=0)
        self.title.set_text(drawable(title))
        out = io.BytesIO()
        self.figure.savefig(out, format="png")  # pyright: ignore[reportUnknownMemberType]
        return out.getvalue()


# Every battle reply carries this chart: a figure is set up once and then only its lines, limits and title are
# redrawn (half the cost of a new figure).
_battle_charts = FigurePool(_BattleChart)
