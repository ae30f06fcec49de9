"""MMA ratings against the Elo scale: simulated seasons between players of known Elo strength.

    python -m benchmarks.ratings [--seasons N] [--players P] [--matches M] [--seed S]

Each season, P players of known Elo strength play M rated matches, each between two of them drawn at random
("regular play"), and the stronger wins as Elo says: with probability 1 / (1 + 10^(-gap/400)). The ratings are
Arena's own (`rules.rating.rate_match`) and, for comparison, the scale Arena used before (OpenSkill's defaults times
60, established after 10 games and sigma 400). Printed, for strengths evenly spread over 1200-1900 (the targets)
and drawn at random from that range:

- Spearman: how well the shown ratings at the season's end rank the players (1: in their true order), the mean
  over the seasons;
- slope: the shown gaps against the true gaps (least squares over every pair of every season; 1: the shown
  ratings are on Elo's scale);
- median change: the median |shown change| of a game played by an established player;
- games until established: the median and the 90th percentile of a player's rated games until established.

Deterministic given the seed; a few seconds. Exits 1 when the current ratings miss a target.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from rules.rating import RatedMatch, Rating, Result, rate_match

LOW, HIGH = 1200.0, 1900.0
SLOPE_TARGET = (0.8, 1.25)
SPEARMAN_TARGET = 0.9
CHANGE_TARGET = 15  # points a game, median, established players
GAMES_TARGET = 15  # rated games until established, median


@dataclass(frozen=True)
class Scale:
    """A rating model as the benchmark uses it: a start, a match's rating, and when a rating is established."""

    name: str
    start: Rating
    rate: Callable[[Rating, Rating, Result], RatedMatch]
    established: Callable[[Rating], bool]


def _former_rate(first: Rating, second: Rating, result: Result) -> RatedMatch:
    """The scale Arena used before: OpenSkill's defaults times 60 (mu 1500, sigma 500, beta 250, tau 5)."""
    return rate_match(first, second, result, FORMER_MODEL)


FORMER_MODEL = PlackettLuce(mu=1500, sigma=500, beta=250, tau=5)
CURRENT = Scale("Arena (Elo scale)", Rating(), rate_match, lambda rating: not rating.provisional)
FORMER = Scale(
    "before (defaults x 60)",
    Rating(1500.0, 500.0, 0),
    _former_rate,
    lambda rating: rating.games >= 10 and rating.sigma <= 400,
)


@dataclass(frozen=True)
class Figures:
    spearman: float
    slope: float
    median_change: float
    games_median: float
    games_p90: float
    never: int  # players never established within their season
    players: int

    def meets_targets(self) -> bool:
        return (
            SLOPE_TARGET[0] <= self.slope <= SLOPE_TARGET[1]
            and self.spearman >= SPEARMAN_TARGET
            and self.median_change <= CHANGE_TARGET
            and self.games_median <= GAMES_TARGET
        )

    def text(self) -> str:
        never = f", never {self.never}/{self.players}" if self.never else ""
        return (
            f"Spearman {self.spearman:.3f} · slope {self.slope:.2f} · median change {self.median_change:g} · "
            f"established after {self.games_median:g} games (p90 {self.games_p90:g}{never})"
        )


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank from 0, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2
        start = end + 1
    return result


def spearman(first: Sequence[float], second: Sequence[float]) -> float:
    a, b = ranks(first), ranks(second)
    mean_a, mean_b = statistics.fmean(a), statistics.fmean(b)
    covariance = sum((x - mean_a) * (y - mean_b) for x, y in zip(a, b, strict=True))
    spread = math.sqrt(sum((x - mean_a) ** 2 for x in a) * sum((y - mean_b) ** 2 for y in b))
    return covariance / spread if spread else 0.0


def strengths(rng: random.Random, players: int, spread: str) -> list[float]:
    if spread == "even":
        return [LOW + (HIGH - LOW) * i / (players - 1) for i in range(players)]
    return [rng.uniform(LOW, HIGH) for _ in range(players)]


def simulate(scale: Scale, *, seasons: int, players: int, matches: int, seed: int, spread: str) -> Figures:
    rng = random.Random(seed)
    correlations: list[float] = []
    along = across = 0.0  # sums of true gap x shown gap and of true gap squared
    changes: list[int] = []
    until: list[float] = []
    never = 0
    for _ in range(seasons):
        true = strengths(rng, players, spread)
        ratings = [scale.start] * players
        established_at: list[int | None] = [None] * players
        for _ in range(matches):
            a, b = rng.sample(range(players), 2)
            won = rng.random() < 1 / (1 + 10 ** (-(true[a] - true[b]) / 400))
            rated = scale.rate(ratings[a], ratings[b], Result.WIN if won else Result.LOSS)
            for player, change in ((a, rated.first), (b, rated.second)):
                if scale.established(change.before):
                    changes.append(abs(change.after.shown - change.before.shown))
                elif established_at[player] is None and scale.established(change.after):
                    established_at[player] = change.after.games
                ratings[player] = change.after
        shown = [float(rating.shown) for rating in ratings]
        correlations.append(spearman(true, shown))
        for i in range(players):
            for j in range(i + 1, players):
                along += (true[i] - true[j]) * (shown[i] - shown[j])
                across += (true[i] - true[j]) ** 2
        for games in established_at:
            if games is None:
                never += 1
                until.append(math.inf)
            else:
                until.append(games)
    until.sort()
    return Figures(
        spearman=statistics.fmean(correlations),
        slope=along / across,
        median_change=statistics.median(changes) if changes else math.inf,
        games_median=statistics.median(until),
        games_p90=until[int(0.9 * (len(until) - 1))],
        never=never,
        players=len(until),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ratings", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seasons", type=int, default=200)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--matches", type=int, default=120)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print(
        f"ratings: {args.seasons} seasons of {args.matches} matches between {args.players} players "
        f"(Elo {LOW:.0f}-{HIGH:.0f}), seed {args.seed}"
    )
    results: dict[tuple[str, str], Figures] = {}
    for spread in ("even", "random"):
        for scale in (CURRENT, FORMER):
            figures = simulate(
                scale, seasons=args.seasons, players=args.players, matches=args.matches, seed=args.seed, spread=spread
            )
            results[scale.name, spread] = figures
            print(f"  {spread:6} {scale.name:24} {figures.text()}")
    current = results[CURRENT.name, "even"]
    ok = current.meets_targets()
    print(
        f"ratings: targets (strengths evenly spread): slope {SLOPE_TARGET[0]}-{SLOPE_TARGET[1]}, Spearman >= "
        f"{SPEARMAN_TARGET}, median change <= {CHANGE_TARGET}, established after <= {GAMES_TARGET} games: "
        f"{'ok' if ok else 'MISSED'} ({time.perf_counter() - started:.1f} s)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
