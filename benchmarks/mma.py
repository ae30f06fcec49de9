"""MMA Warriors engine speed: complete AI-vs-AI matches per second on one core.

    python -m benchmarks.mma [--games N] [--seed S]

Each match goes through the public API the bot uses (new_game, choose_action, apply_in_place),
from the shuffle to the end. Speed is CPU time of this one process, so other load on the machine
does not count against it; wall time is printed too. Target: 1000 matches per second.
"""

from __future__ import annotations

import argparse
import sys
import time

from rules.mma.simulate import play_ai_game

TARGET_PER_SECOND = 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mma", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    play_ai_game(args.seed - 1)  # warm-up: imports and first-call costs
    wall, cpu = time.perf_counter(), time.process_time()
    moves = turns = 0
    for index in range(args.games):
        state, played = play_ai_game(args.seed + index)
        moves += played
        turns += state.players[0].turns + state.players[1].turns
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    rate = args.games / cpu
    print(
        f"mma: {args.games:,} AI-vs-AI matches (seeds {args.seed}..{args.seed + args.games - 1}), "
        f"{turns / args.games:.1f} turns and {moves / args.games:.1f} moves per match"
    )
    print(
        f"mma: {cpu:.2f} s CPU, {wall:.2f} s wall -> {rate:,.0f} matches/s per core "
        f"({moves / cpu:,.0f} moves/s); target {TARGET_PER_SECOND:,}: {'ok' if rate >= TARGET_PER_SECOND else 'MISSED'}"
    )
    return 0 if rate >= TARGET_PER_SECOND else 1


if __name__ == "__main__":
    sys.exit(main())
