"""Deck optimizer speed: `python -m benchmarks.deck`.

Prints: the start-up cost of the compiled kernels in fresh processes (with an empty cache the first
compiles and writes it; the next only loads it), games per second of the fast path (1 thread and all threads) and of
the Python reference, and the wall time of full default optimizations (1000 iterations x 1000 games, then the
start and final decks measured afresh over 10,000 games each).
The issue's target: the full default run in under 2 s on 2 cores, compilation excluded (exits 1 when missed).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

TARGET_SECONDS = 2.0

STARTUP_PROBE = """
import time
started = time.perf_counter()
from rules.deck import fast
fast.compile_kernels()
print(time.perf_counter() - started)
"""


def startup_seconds(cache_dir: str | None = None) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir) if cache_dir else None
    out = subprocess.run([sys.executable, "-c", STARTUP_PROBE], capture_output=True, text=True, check=True, env=env)
    return float(out.stdout.strip())


def main() -> int:
    print("deck optimizer benchmark")
    with tempfile.TemporaryDirectory() as empty_cache:
        cold, warm = startup_seconds(empty_cache), startup_seconds(empty_cache)
    print(
        f"  kernels ready in a fresh process: {cold:.2f} s with an empty cache (compiling), "
        f"{warm:.2f} s in the next process (loading the cache)"
    )

    import numba

    from rules.deck import fast
    from rules.deck.cards import random_deck, set_list
    from rules.deck.game import reference_results
    from rules.deck.optimize import OptimizeSettings, optimize

    cards = set_list()
    rng = random.Random(1)
    deck_1, deck_2 = random_deck(cards, rng), random_deck(cards, rng)
    codes_1, codes_2 = fast.encode_deck(deck_1.cards), fast.encode_deck(deck_2.cards)
    fast.batch_results(codes_1, codes_2, 1000, 0)

    threads = numba.get_num_threads()
    games = 500_000
    for n_threads in sorted({1, threads}):
        numba.set_num_threads(n_threads)
        best = min(_timed(lambda: fast.batch_results(codes_1, codes_2, games, 7)) for _ in range(3))
        print(f"  fast path, {n_threads} thread(s): {games / best:,.0f} games/s")
    numba.set_num_threads(threads)

    games = 1000
    seconds = _timed(lambda: reference_results(deck_1.cards, deck_2.cards, games, random.Random(2)))
    print(f"  reference (pure Python): {games / seconds:,.0f} games/s")

    runs = []
    for seed in (1, 2, 3):
        started = time.perf_counter()
        result = optimize(OptimizeSettings(iterations=1000, games=1000, seed=seed))
        runs.append(time.perf_counter() - started)
    median = statistics.median(runs)
    print(
        f"  full default optimization (1000 iterations x 1000 games, then 2 x {result.fresh.games:,} to measure the "
        f"decks afresh, {threads} threads): "
        + ", ".join(f"{s:.2f} s" for s in runs)
        + f"; median {median:.2f} s = {result.games_played / median:,.0f} games/s; target < {TARGET_SECONDS} s: "
        + ("ok" if median < TARGET_SECONDS else "MISSED")
    )
    return 0 if median < TARGET_SECONDS else 1


def _timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())
