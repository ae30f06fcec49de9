"""A finished MMA Warriors match, step by step, rebuilt from its seed and its stored moves.

A live match is dealt by `new_game(seed)` and every move is applied with `replay_rng(state)`, the random source
of that move (`rules.mma.ai.play_move_in_place`). The AI's moves are stored too, but the AI draws its choice from the
same random source before its move is applied, so the replay asks the AI again on that source: the takedown
rolls come out as they did, and a stored AI move the AI would not make says the stored moves are damaged.
An idle claim is no move (the engine ends the match with `claimed_idle`), so its end is passed as `claimed_by`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import RuleInputError
from rules.mma.ai import choose_action
from rules.mma.engine import IllegalAction, apply_in_place, claimed_idle, new_game, replay_rng
from rules.mma.state import OVER, Action, Event, GameState


@dataclass(frozen=True)
class ReplayStep:
    """The board after one step: step 0 is the deal; then one step per move, and one for an idle claim."""

    number: int
    move: Action | None  # the move that led here; None for the deal and for an idle claim
    state: GameState  # a copy of its own: steps never share a state
    events: tuple[Event, ...]  # what happened in that step


def replay_match(
    seed: int, moves: Sequence[Action], *, ai_player: int | None = None, claimed_by: int | None = None
) -> list[ReplayStep]:
    """Every step of a match dealt from `seed` and played by `moves` (stored in order, the AI's included).

    `ai_player`: the AI's slot in a match against it. `claimed_by`: the slot that claimed the win when the
    opponent went idle (the match's last step). Moves that do not replay (not legal when they come, after the
    match is over, or not the AI's choice) raise RuleInputError naming the move.
    """
    state, events = new_game(seed)
    steps = [ReplayStep(0, None, state.copy(), tuple(events))]
    for number, move in enumerate(moves, start=1):
        if state.phase == OVER:
            raise RuleInputError(f"move {number} of the match comes after its end")
        rng = replay_rng(state)
        if ai_player is not None and state.to_move == ai_player:
            expected = choose_action(state, ai_player, rng)
            if expected != move:
                raise RuleInputError(
                    f"move {number} of the match is not the AI's move ({move} stored, {expected} made)"
                )
        try:
            events = apply_in_place(state, move, rng)
        except IllegalAction as illegal:
            raise RuleInputError(f"move {number} of the match does not replay: {illegal}") from None
        steps.append(ReplayStep(number, move, state.copy(), tuple(events)))
    if claimed_by is not None:
        if state.phase == OVER:
            raise RuleInputError("the match ended by its moves, not by an idle claim")
        state, claim = claimed_idle(state, claimed_by)
        steps.append(ReplayStep(len(steps), None, state.copy(), tuple(claim)))
    return steps


@dataclass(frozen=True)
class Knockout:
    """A fighter knocked out in a replay: the step it happened in and the fighter's owner."""

    step: int
    player: int
    fighter: int  # the card


@dataclass(frozen=True)
class ReplayIndex:
    """Where a replay's turns begin and its knockouts fall, for jumping through it.

    Turns are counted across both players (the match's turn 5 is the first player's third): the turn of a step is
    the number of turns begun by then, and turn T begins at the first step where T turns have begun. A turn
    skipped by a stagger begins and ends in one step, so two turns may begin at the same step.
    """

    turns: tuple[int, ...]  # the turn of each step
    knockouts: tuple[Knockout, ...]

    @property
    def last_turn(self) -> int:
        return self.turns[-1]

    def turn_start(self, turn: int) -> int:
        """The step at which `turn` (1 to last_turn) begins."""
        if not 1 <= turn <= self.last_turn:
            raise ValueError(f"turn {turn} is not one of turns 1 to {self.last_turn}")
        return next(step for step, begun in enumerate(self.turns) if begun >= turn)


def replay_index(steps: Sequence[ReplayStep]) -> ReplayIndex:
    """The turns and knockouts of a replay's steps."""
    turns = tuple(max(1, sum(player.turns for player in step.state.players)) for step in steps)
    knockouts = tuple(
        Knockout(step.number, event.player, event.card)
        for step in steps
        for event in step.events
        if event.kind == "knockout"
    )
    return ReplayIndex(turns, knockouts)


__all__ = ["Knockout", "ReplayIndex", "ReplayStep", "replay_index", "replay_match"]
