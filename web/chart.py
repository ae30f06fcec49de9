"""A member's rating history as an SVG chart drawn on the server: the geometry of its line, its points (each with
the hover title a browser shows: the match, the opponent, the result and the change) and its axis labels. The
template writes it out; no script draws anything."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 24  # room for the axis labels
GRID_STEP_CHOICES = (10, 25, 50, 100, 200, 250, 500)


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    title: str
    url: str
    result: str  # win, loss or draw: its colour


@dataclass(frozen=True)
class Gridline:
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # the polyline's points
    points: list[Point]
    grid: list[Gridline]
    summary: str  # what a screen reader says of the whole chart


def _step(span: float) -> int:
    """A round step giving about four gridlines over `span` rating points."""
    return next((step for step in GRID_STEP_CHOICES if span / step <= 5), GRID_STEP_CHOICES[-1])


def rating_chart(history: Sequence[dict[str, Any]]) -> Chart | None:
    """The chart of a member page's `history` (oldest first); None without a rated match."""
    if not history:
        return None
    ratings = [point["rating"] - point["change"] for point in history[:1]] + [point["rating"] for point in history]
    low, high = min(ratings), max(ratings)
    step = _step(max(high - low, 1))
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if low == high:
        high = low + step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + inner_w * index / max(len(ratings) - 1, 1), 1)

    def y(rating: float) -> float:
        return round(TOP + inner_h * (high - rating) / (high - low), 1)

    points = [
        Point(
            x(index),
            y(point["rating"]),
            f"Match #{point['match_id']} against {point['opponent']['name']}: {point['result']}, "
            f"{point['change']:+d} to {point['rating']}",
            point["url"],
            point["result"],
        )
        for index, point in enumerate(history, start=1)
    ]
    line = " ".join(f"{x(index)},{y(rating)}" for index, rating in enumerate(ratings))
    grid = [Gridline(y(value), str(value)) for value in range(low, high + 1, step)]
    summary = (
        f"Rating over {len(history)} rated matches: from {ratings[0]} to {ratings[-1]}, "
        f"lowest {min(ratings)}, highest {max(ratings)}."
    )
    return Chart(WIDTH, HEIGHT, line, points, grid, summary)


__all__ = ["Chart", "rating_chart"]
