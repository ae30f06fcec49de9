"""Ratings of members' duels on the Elo scale (RULINGS 8): OpenSkill's Weng-Lin Plackett-Luce model, calibrated so
that its numbers mean what a chess site's do.

A new member starts at 1500, and between established players a gap of 200 points means the higher-rated one is
expected to score about 76% (400 points: about 91%): Elo's 1 / (1 + 10^(-gap/400)). The model predicts a win as a
logistic curve of gap / c, where c = sqrt(2 beta^2 + sigma_1^2 + sigma_2^2); Elo's curve is the same with
c = 400 / ln 10 = 173.7. So the scale is set by beta and the deviations players reach, and the constants below were
chosen by measurement (`python -m benchmarks.ratings`, the figures in docs/rules/mma.md): in simulated seasons
between players of known Elo strength the shown gaps match the true ones (slope about 1), an established rating moves
about 10 points a game, and a regular player is established after about 12 games.

- mu 1500: a new member's rating; the rating shown is mu, rounded.
- sigma 225: the deviation of that belief, about the spread of a server's players (shown as `±`); it shrinks as
  games are rated.
- beta 80: how much one match's performance varies around a player's skill.
- tau 4: added to sigma (in quadrature) before every rating, so a rating never freezes (an active player's
  deviation settles between 30 and 45 after some hundred games).
- gamma 1 (the library's default is sigma / c): each game narrows the deviation by what it told the model, as
  Glicko does, instead of less and less as the deviation falls; with the default a rating took 30 games and more to
  settle.

A rating is provisional, shown with a `?` (`1500?`), while its deviation is above PROVISIONAL_SIGMA; the game that
brings it there makes the member established (`RatingChange.established_now`).

RULINGS 7: only member-versus-member matches are rated; a concession or a claimed win is a loss for the
player who conceded or went idle; a judges' decision is rated as its decision, a draw as a draw. The caller
decides which matches are rated (`rate_match` takes two members' ratings) and passes the match's result as the
engine settled it: the engine already makes a concession or an idle claim a loss.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from openskill.models import PlackettLuce, PlackettLuceRating

START_MU = 1500.0
START_SIGMA = 225.0
BETA = 80.0
TAU = 4.0
PROVISIONAL_SIGMA = 130.0
# The model and its constants, by name: the stored ratings were computed with it (`storage.ratings` recomputes them
# from the rated matches, in order, when this changes).
MODEL_NAME = f"openskill-plackett-luce mu={START_MU:g} sigma={START_SIGMA:g} beta={BETA:g} tau={TAU:g} gamma=1"


def full_update(
    c: float,
    k: int,
    mu: float,
    sigma_squared: float,
    team: Sequence[PlackettLuceRating],
    rank: int,
    weights: list[float] | None,
) -> float:
    """OpenSkill's gamma: 1, the whole of the information a game carries narrows the deviation."""
    return 1.0


MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=TAU, gamma=full_update)


class Result(StrEnum):
    """A match's result for one player."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"

    @property
    def opposite(self) -> Result:
        """The same match's result for the other player."""
        return {Result.WIN: Result.LOSS, Result.LOSS: Result.WIN, Result.DRAW: Result.DRAW}[self]

    @staticmethod
    def of_slot(slot: int, winner: int | None) -> Result:
        """The result for the player in `slot` (0 or 1) of a match won by `winner` (None: a draw)."""
        if winner is None:
            return Result.DRAW
        return Result.WIN if winner == slot else Result.LOSS


@dataclass(frozen=True)
class Rating:
    """A member's rating: the model's belief (mu, sigma) and how many rated games made it."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        """The rating as players see it: mu, rounded."""
        return round(self.mu)

    @property
    def deviation(self) -> int:
        """The deviation as players see it: sigma, rounded (`1512 ±64`)."""
        return round(self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def text(self) -> str:
        """`1512`, or `1500?` while provisional."""
        return f"{self.shown}?" if self.provisional else str(self.shown)

    def text_with_deviation(self) -> str:
        """`1512 ±64`, or `1500? ±225` while provisional."""
        return f"{self.text()} ±{self.deviation}"


@dataclass(frozen=True)
class RatingChange:
    """One player's rating before and after a rated match."""

    before: Rating
    after: Rating

    @property
    def established_now(self) -> bool:
        """Whether this match made the rating established (its deviation down to PROVISIONAL_SIGMA)."""
        return self.before.provisional and not self.after.provisional

    @property
    def delta(self) -> int:
        """The change players see: the difference of the shown (rounded) ratings, so the numbers add up."""
        return self.after.shown - self.before.shown

    def text(self) -> str:
        """`1512 → 1528 (+16)`; a provisional side carries its `?`."""
        return f"{self.before.text()} → {self.after.text()} ({signed(self.delta)})"


@dataclass(frozen=True)
class RatedMatch:
    """Both players' changes, in the order `rate_match` was given them."""

    first: RatingChange
    second: RatingChange


def signed(value: int) -> str:
    """`+16`, `-9`, `±0`."""
    return f"+{value}" if value > 0 else f"{value}" if value < 0 else "±0"


def competition_ranks(shown: Sequence[int]) -> list[int]:
    """The ranks of ratings listed highest first, as chess sites rank ties: the same shown rating, the same rank,
    and the next one after them counts them all (`[1712, 1650, 1650, 1600]` ranks 1, 2, 2, 4)."""
    ranks: list[int] = []
    for position, value in enumerate(shown):
        if position and value > shown[position - 1]:
            raise ValueError("competition_ranks takes ratings highest first")
        ranks.append(ranks[-1] if position and value == shown[position - 1] else position + 1)
    return ranks


LATEST_RESULTS = 10  # the results a member's form lists


@dataclass(frozen=True)
class Form:
    """A member's rated results as a chess site's profile shows them: the win streak going on, the longest one,
    and the latest results (newest first, at most LATEST_RESULTS)."""

    streak: int
    best_streak: int
    latest: tuple[Result, ...]


def form(results: Sequence[Result]) -> Form:
    """The form of a member's rated results, given newest first. A draw or a loss ends a streak."""
    best = run = 0
    for result in reversed(results):
        run = run + 1 if result == Result.WIN else 0
        best = max(best, run)
    streak = next((index for index, result in enumerate(results) if result != Result.WIN), len(results))
    return Form(streak, best, tuple(results[:LATEST_RESULTS]))


def peak(ratings: Sequence[Rating]) -> int | None:
    """Where, in a member's ratings after each rated game (oldest first), their highest established rating is:
    the first time it showed that high. None while no rating was established (a provisional one has no peak)."""
    best: int | None = None
    for index, rating in enumerate(ratings):
        if not rating.provisional and (best is None or rating.shown > ratings[best].shown):
            best = index
    return best


def rate_match(first: Rating, second: Rating, result: Result, model: PlackettLuce = MODEL) -> RatedMatch:
    """Rate one match between two members; `result` is the first player's. Each comes out with one more game.
    (`model`: another calibration, for the benchmark that compares them.)"""
    ranks = {Result.WIN: [1.0, 2.0], Result.LOSS: [2.0, 1.0], Result.DRAW: [1.0, 1.0]}[result]
    [[new_first], [new_second]] = model.rate(
        [[model.rating(first.mu, first.sigma)], [model.rating(second.mu, second.sigma)]], ranks=ranks
    )
    return RatedMatch(
        RatingChange(first, Rating(new_first.mu, new_first.sigma, first.games + 1)),
        RatingChange(second, Rating(new_second.mu, new_second.sigma, second.games + 1)),
    )


__all__ = [
    "BETA",
    "LATEST_RESULTS",
    "MODEL",
    "MODEL_NAME",
    "PROVISIONAL_SIGMA",
    "START_MU",
    "START_SIGMA",
    "TAU",
    "Form",
    "RatedMatch",
    "Rating",
    "RatingChange",
    "Result",
    "competition_ranks",
    "form",
    "peak",
    "rate_match",
    "signed",
]
