"""Ratings of members' duels: OpenSkill's Weng-Lin Plackett-Luce model, on a scale where a new player is 1500.

The scale is the library's own defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) times 60, so every ratio the
model was tuned with is kept and a newcomer shows 1500:

- mu 1500: the skill a new player is believed to have; the rating shown is mu, rounded.
- sigma 500: the deviation of that belief (how far the true skill may be from mu); it shrinks as games are
  rated.
- beta 250: how much one match's performance varies around a player's skill.
- tau 5: added to sigma (in quadrature) before every rating, so a rating never freezes.

A rating is provisional, shown with a `?` (`1500?`), until it has at least PROVISIONAL_GAMES rated games and
its sigma is at most PROVISIONAL_SIGMA: the count guarantees a minimum sample, the deviation that the games
told the model something (about 10 games against players of one's own level).

RULINGS section 7: only member-versus-member matches are rated; a concession or a claimed win is a loss for the
player who conceded or went idle; a judges' decision is rated as its decision, a draw as a draw. The caller
decides which matches are rated (`rate_match` takes two members' ratings) and passes the match's result as the
engine settled it: the engine already makes a concession or an idle claim a loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from openskill.models import PlackettLuce

# The library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) times 60.
START_MU = 1500.0
START_SIGMA = 500.0
BETA = 250.0
TAU = 5.0
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 400.0

MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=TAU)


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
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA

    def text(self) -> str:
        """`1512`, or `1500?` while provisional."""
        return f"{self.shown}?" if self.provisional else str(self.shown)


@dataclass(frozen=True)
class RatingChange:
    """One player's rating before and after a rated match."""

    before: Rating
    after: Rating

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


def rate_match(first: Rating, second: Rating, result: Result) -> RatedMatch:
    """Rate one match between two members; `result` is the first player's. Each comes out with one more game."""
    ranks = {Result.WIN: [1.0, 2.0], Result.LOSS: [2.0, 1.0], Result.DRAW: [1.0, 1.0]}[result]
    [[new_first], [new_second]] = MODEL.rate(
        [[MODEL.rating(first.mu, first.sigma)], [MODEL.rating(second.mu, second.sigma)]], ranks=ranks
    )
    return RatedMatch(
        RatingChange(first, Rating(new_first.mu, new_first.sigma, first.games + 1)),
        RatingChange(second, Rating(new_second.mu, new_second.sigma, second.games + 1)),
    )


__all__ = [
    "BETA",
    "MODEL",
    "PROVISIONAL_GAMES",
    "PROVISIONAL_SIGMA",
    "START_MU",
    "START_SIGMA",
    "TAU",
    "RatedMatch",
    "Rating",
    "RatingChange",
    "Result",
    "rate_match",
    "signed",
]
