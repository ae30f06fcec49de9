"""Proportions measured by simulation, with their 95% interval: one implementation for every game."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): sound at 0% and 100%, unlike p +- z*se.

    No trials is no information: the whole of [0, 1].
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # The interval contains p; at 0% and 100% rounding would put an end a hair on the wrong side of it.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))
