"""The contract every turn-based engine (MMA, Andor) keeps, so buttons, the AI, simulations and tests drive
each game the same way.

An engine is a module with these functions (a module satisfies the Protocol as it is; tests check that):
- `legal_actions(state, player)`: what `player` may do now, in a stable order ([] when the game is over).
- `apply_in_place(state, action, rng) -> events`: plays one legal action, changing `state` itself, and
  returns what happened in order; an illegal action raises the game's `RuleInputError` and changes nothing.
- `applied(state, action, rng) -> (new state, events)`: the same on a copy; `state` is left as it was.
- `outcome(state)`: None while the game goes on, else the game's `Outcome` (as python-chess has it): who won
  (a player's index, or None: nobody) and the `termination`, an enum member saying why the game ended.
- `replay_rng(state)`: the random source for the next move, `rules.seeds.move_rng` with the game's own
  `ReplayStream`, from the game's seed and its moves, so a saved game continues exactly as without the save.
- Names say whether they change what they are given: `..._in_place` changes it, a past participle
  (`applied`, `aimed`, `played_move`, `claimed_idle`) returns a changed copy. Cogs call the copying forms.

`Outcome` is every game's, not only the turn-based ones': MfD battles, deck duel games and boss raids end
with one too, each game with its own termination enum.

State is plain data that round-trips through JSON, so a game is saved after every move and resumed after a
restart.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S")
A = TypeVar("A")
T = TypeVar("T", bound=enum.Enum)


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """How a game ended: the winner (a player's index; None: nobody, a draw or a flight) and why."""

    winner: int | None
    termination: T


@dataclass(frozen=True)
class Tally:
    """A member's finished games of one kind counted by how each ended for them: every game's win/loss/draw
    count (MMA's matches, its head-to-heads, Andor's fights) is one of these."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.losses + other.losses, self.draws + other.draws)


class HasOutcome(Protocol):
    """What every game's outcome gives (`Outcome`, or a game's richer outcome with the same two fields)."""

    @property
    def winner(self) -> int | None: ...

    @property
    def termination(self) -> enum.Enum: ...


class TurnBasedEngine(Protocol[S, A]):
    def legal_actions(self, state: S, player: int) -> list[A]: ...

    def apply_in_place(self, state: S, action: A, rng: random.Random) -> list[Any]: ...

    def applied(self, state: S, action: A, rng: random.Random) -> tuple[S, list[Any]]: ...

    def outcome(self, state: S) -> HasOutcome | None: ...

    def replay_rng(self, state: S) -> random.Random: ...
