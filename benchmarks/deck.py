"""Deck optimizer speed: `python -m benchmarks.deck`.

Prints: the start-up cost of the compiled kernels in fresh processes (the first may compile and write the
on-disk cache; the next only loads it), games per second of the fast path (1 thread and all threads) and of
the Python reference, and the wall time of full default optimizations (1000 iterations x 1000 games).
The issue's target: the full default run in under 2 s on 2 cores, compilation excluded.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time

STARTUP_PROBE = """
import time
started = time.perf_counter()
from rules.deck import fast
from rules.deck.cards import random_deck, set_list
import random
cards = set_list()
table = fast.CardTable.of(cards)
deck = table.ids(random_deck(cards, random.Random(0)).cards)
fast.batch_results(table, deck, deck, 10, 1)
fast.single_game(table, cards[:30], cards[:30], True, 1)
fast.attack_phase(table, cards[:3], cards[:3])
print(time.perf_counter() - started)
"""


def startup_seconds() -> float:
    out = subprocess.run([sys.executable, "-c", STARTUP_PROBE], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> int:
    print("deck optimizer benchmark")
    first, second = startup_seconds(), startup_seconds()
    print(f"  kernels ready in a fresh process: {first:.2f} s, then {second:.2f} s in the next one (cache)")

    import numba

    from rules.deck import fast
    from rules.deck.cards import random_deck, set_list
    from rules.deck.game import reference_results
    from rules.deck.optimize import OptimizeSettings, optimize

    cards = set_list()
    table = fast.CardTable.of(cards)
    rng = random.Random(1)
    deck_1, deck_2 = random_deck(cards, rng), random_deck(cards, rng)
    ids_1, ids_2 = table.ids(deck_1.cards), table.ids(deck_2.cards)
    fast.batch_results(table, ids_1, ids_2, 1000, 0)

    threads = numba.get_num_threads()
    for n_threads in sorted({1, threads}):
        numba.set_num_threads(n_threads)
        games = 500_000
        best = min(_timed(lambda: fast.batch_results(table, ids_1, ids_2, games, 7)) for _ in range(3))
        print(f"  fast path, {n_threads} thread(s): {games / best:,.0f} games/s")
    numba.set_num_threads(threads)

    games = 1000
    seconds = _timed(lambda: reference_results(deck_1.cards, deck_2.cards, games, random.Random(2)))
    print(f"  reference (pure Python): {games / seconds:,.0f} games/s")

    runs = []
    for seed in (1, 2, 3):
        runs.append(_timed(lambda: optimize(OptimizeSettings(iterations=1000, games=1000, seed=seed))))
    print(
        f"  full default optimization (1000 iterations x 1000 games, {threads} threads): "
        + ", ".join(f"{s:.2f} s" for s in runs)
        + f"; median {statistics.median(runs):.2f} s = {1_001_000 / statistics.median(runs):,.0f} games/s"
    )
    return 0


def _timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())
