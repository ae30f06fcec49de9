"""Swiss pairing time: what a round of a tournament costs the bot, from the smallest field to the largest allowed.

    python -m benchmarks.tournament [--seed S]

For fields of 8, 16, 32 and 64 players (64: the most a tournament takes, cogs.mma.tournaments.render.MAX_PLAYERS),
plays a tournament of as many rounds as the field can be paired without a rematch, up to 10 (the most
`/mma tournament create` accepts), with random results, and prints the median and the slowest time to pair a
round (`rules.tournament.with_next_round`: networkx's maximum-weight matching over the players still in). The
bot pairs a round in an engine worker thread, so this is how long the players wait for the next round's boards,
not a stall of the bot. Deterministic given the seed. Exits 1 when the largest field's slowest round passes
the target.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from cogs.mma.cog import MAX_TOURNAMENT_ROUNDS
from cogs.mma.tournaments.render import MAX_PLAYERS
from rules.errors import RuleInputError
from rules.tournament import Player, Result, new_tournament, record_result, with_next_round

FIELDS = (8, 16, 32, MAX_PLAYERS)
SLOWEST_ROUND_TARGET = 2.0  # seconds, the largest field


def round_times(players: int, rng: random.Random) -> list[float]:
    field = [Player(id=n + 1, name=f"player {n + 1}", rating=rng.uniform(1200, 1900)) for n in range(players)]
    state = new_tournament(field, min(MAX_TOURNAMENT_ROUNDS, players - 1))
    times: list[float] = []
    results = (Result.CHALLENGER_WINS, Result.OPPONENT_WINS, Result.DRAW)
    for number in range(1, state.settings.rounds + 1):
        started = time.perf_counter()
        try:
            state = with_next_round(state)
        except RuleInputError:  # no pairing without a rematch is left: the tournament ends early
            break
        times.append(time.perf_counter() - started)
        for board in range(1, len(state.rounds[-1].pairings) + 1):
            state = record_result(state, number, board, rng.choice(results))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tournament", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"{'players':>7}  {'rounds':>6}  {'median round':>12}  {'slowest round':>13}")
    slowest = 0.0
    for players in FIELDS:
        times = round_times(players, rng)
        slowest = max(times)
        print(f"{players:>7}  {len(times):>6}  {statistics.median(times) * 1000:>9.0f} ms  {slowest * 1000:>10.0f} ms")
    if slowest > SLOWEST_ROUND_TARGET:
        print(f"the slowest round of {FIELDS[-1]} players took {slowest:.2f} s (target {SLOWEST_ROUND_TARGET} s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
