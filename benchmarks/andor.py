"""Andor's Trail: 10,000 simulated fights against a Wolf with the default character (target: under 1 s).

Run: python -m benchmarks.andor   (prints the best of 3 runs; exits 1 when the target is missed)
"""

from __future__ import annotations

import sys
import time

from rules.andor.bestiary import find_monster, merged
from rules.andor.models import Character
from rules.andor.simulate import simulate

FIGHTS = 10_000
TARGET_SECONDS = 1.0


def main() -> int:
    wolf = find_monster(merged([]), "Wolf")
    timings = []
    for seed in range(3):
        start = time.perf_counter()
        result = simulate(Character(), wolf, 1, FIGHTS, seed=seed)
        timings.append(time.perf_counter() - start)
    best = min(timings)
    print(
        f"andor: {FIGHTS:,} fights vs Wolf, default character: best {best:.3f} s of 3"
        f" ({', '.join(f'{t:.3f}' for t in timings)}); {FIGHTS / best:,.0f} fights/s; target < {TARGET_SECONDS} s"
    )
    print(
        f"  last run: win rate {result.win_rate:.2%}, mean rounds {result.mean_rounds:.2f},"
        f" {result.total_rounds:,} rounds in all"
    )
    three = find_monster(merged([]), "Giant dungfly")
    strong = Character(attack_chance=120, damage_min=4, damage_max=12, crit_chance=20, hp_bonus=40, potions=3)
    start = time.perf_counter()
    result = simulate(strong, three, 5, FIGHTS, seed=0)
    print(
        f"  for scale: {FIGHTS:,} fights, a stronger character vs 5 Giant dungflies: "
        f"{time.perf_counter() - start:.3f} s (win rate {result.win_rate:.2%}, mean rounds {result.mean_rounds:.2f})"
    )
    return 0 if best < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
