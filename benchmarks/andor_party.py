"""Andor's Trail party fights: 10,000 simulated fights of a party of four against 5 Wolves (target: under 2 s).

Run: python -m benchmarks.andor_party   (prints the best of 3 runs; exits 1 when the target is missed)
"""

from __future__ import annotations

import sys
import time

from rules.andor.bestiary import find_monster, merged
from rules.andor.models import Character
from rules.andor.party_simulate import simulate_party

FIGHTS = 10_000
MONSTERS = 5
TARGET_SECONDS = 2.0
PARTY = (
    Character(attack_chance=120, damage_min=4, damage_max=12, crit_chance=20, hp_bonus=40, potions=3),
    Character(attack_chance=150, damage_min=6, damage_max=10),
    Character(attack_chance=120, damage_min=4, damage_max=8, armor=40),
    Character(),
)


def main() -> int:
    wolf = find_monster(merged([]), "Wolf")
    timings = []
    for seed in range(3):
        start = time.perf_counter()
        odds = simulate_party(PARTY, wolf, MONSTERS, FIGHTS, seed=seed)
        timings.append(time.perf_counter() - start)
    best = min(timings)
    print(
        f"andor party: {FIGHTS:,} fights, 4 members vs {MONSTERS} Wolves: best {best:.3f} s of 3"
        f" ({', '.join(f'{t:.3f}' for t in timings)}); {FIGHTS / best:,.0f} fights/s; target < {TARGET_SECONDS} s"
    )
    knocked = ", ".join(f"{100 * k / odds.fights:.1f}%" for k in odds.knock_outs)
    print(
        f"  last run: win rate {odds.win_rate:.2%}, mean rounds {odds.mean_rounds:.2f}, knocked out by member {knocked}"
    )
    return 0 if best < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
