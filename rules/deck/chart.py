"""The optimization's winrate curve as a PNG (matplotlib's Agg canvas: no display, safe off the main thread)."""

from __future__ import annotations

import io
from collections.abc import Sequence


def winrate_chart_png(curve: Sequence[float], start_winrate: float, title: str) -> bytes:
    """The reference winrate after each iteration, with the starting winrate as iteration 0."""
    # imported here: matplotlib costs a noticeable fraction of a second to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    xs = range(len(curve) + 1)
    ys = [100 * start_winrate, *(100 * w for w in curve)]
    axes.step(xs, ys, where="post", color="#2b7bb9", linewidth=1.8, label="reference winrate")
    axes.axhline(100 * start_winrate, color="#999999", linestyle="--", linewidth=1, label="start")
    axes.set_xlabel("iteration")
    axes.set_ylabel("winrate of player 1 (%)")
    axes.set_xlim(0, max(1, len(curve)))
    low, high = min(ys), max(ys)
    pad = max(2.0, (high - low) * 0.1)
    axes.set_ylim(max(0.0, low - pad), min(100.0, high + pad))
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()
