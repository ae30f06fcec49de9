"""The contract every turn-based engine (MMA, Andor) keeps, so buttons, the AI, simulations and tests drive
each game the same way.

An engine is a module with these functions (a module satisfies the Protocol as it is; tests check that):
- `legal_actions(state, player)`: what `player` may do now, in a stable order ([] when the game is over).
- `apply_in_place(state, action, rng) -> events`: plays one legal action, changing `state` itself, and
  returns what happened in order; an illegal action raises the game's `RuleInputError` and changes nothing.
- `applied(state, action, rng) -> (new state, events)`: the same on a copy; `state` is left as it was.
- `outcome(state)`: None while the game goes on, else a typed outcome whose `result` is an enum member.
- `replay_rng(state)`: the random source for the next move, derived from the game's seed and its progress,
  so a saved game continues exactly as it would have without the save.

State is plain data that round-trips through JSON, so a game is saved after every move and resumed after a
restart.
"""

from __future__ import annotations

import enum
import random
from typing import Any, Protocol, TypeVar

S = TypeVar("S")
A = TypeVar("A")


class HasResult(Protocol):
    @property
    def result(self) -> enum.Enum: ...


class TurnBasedEngine(Protocol[S, A]):
    def legal_actions(self, state: S, player: int) -> list[A]: ...

    def apply_in_place(self, state: S, action: A, rng: random.Random) -> list[Any]: ...

    def applied(self, state: S, action: A, rng: random.Random) -> tuple[S, list[Any]]: ...

    def outcome(self, state: S) -> HasResult | None: ...

    def replay_rng(self, state: S) -> random.Random: ...
