"""AI-vs-AI matches in bulk: win rates by fighter, how matches end, how long they last."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from rules.errors import RuleInputError
from rules.mma.ai import choose_action
from rules.mma.cards import FIGHTER_COUNT
from rules.mma.engine import apply_in_place, new_game, outcome, replay_rng
from rules.mma.state import NO_ONE, OVER, Action, GameState

MAX_GAMES = 1_000_000  # about ten minutes on one core


@dataclass(frozen=True)
class FighterRecord:
    fighter: int
    fielded: int  # matches in which a side deployed this fighter
    won: int  # of those, matches that side won

    @property
    def win_rate(self) -> float:
        return self.won / self.fielded if self.fielded else 0.0


@dataclass(frozen=True)
class SimulationReport:
    games: int
    seed: int
    wins: tuple[int, int]  # by seat: player 0 moves first
    draws: int
    reasons: dict[str, int]
    total_turns: int  # both players' turns, summed over matches
    total_moves: int
    fighters: tuple[FighterRecord, ...] = field(default=())

    @property
    def average_turns(self) -> float:
        return self.total_turns / self.games

    @property
    def average_moves(self) -> float:
        return self.total_moves / self.games


def played_ai_match(seed: int) -> tuple[list[Action], GameState]:
    """A whole match dealt from `seed`, both corners choosing as the AI would (each choice from its own stream of
    `seed`), every move drawn from `replay_rng`: its moves, which replay it exactly, and its final state."""
    state, _ = new_game(seed)
    chooser = random.Random(seed)
    moves: list[Action] = []
    while outcome(state) is None:
        action = choose_action(state, state.to_move, random.Random(chooser.random()))
        apply_in_place(state, action, replay_rng(state))
        moves.append(action)
    return moves, state


def play_ai_game(seed: int) -> tuple[GameState, int]:
    """One AI-vs-AI match from `seed` to its end; returns the final state and the number of moves."""
    rng = random.Random(seed)
    state, _ = new_game(seed, rng)
    moves = 0
    while state.phase != OVER:
        apply_in_place(state, choose_action(state, state.to_move, rng), rng)
        moves += 1
    return state, moves


def simulate(games: int, seed: int = 0) -> SimulationReport:
    if not 1 <= games <= MAX_GAMES:
        raise RuleInputError(f"games must be between 1 and {MAX_GAMES:,}; got {games:,}")
    wins = [0, 0]
    draws = 0
    reasons: Counter[str] = Counter()
    fielded = [0] * FIGHTER_COUNT
    won = [0] * FIGHTER_COUNT
    total_turns = total_moves = 0
    for index in range(games):
        state, moves = play_ai_game(seed + index)
        total_moves += moves
        reasons[state.reason] += 1
        if state.winner == NO_ONE:
            draws += 1
        else:
            wins[state.winner] += 1
        for side, player in enumerate(state.players):
            total_turns += player.turns
            for fighter in set(player.fielded):
                fielded[fighter] += 1
                if state.winner == side:
                    won[fighter] += 1
    return SimulationReport(
        games=games,
        seed=seed,
        wins=(wins[0], wins[1]),
        draws=draws,
        reasons=dict(reasons),
        total_turns=total_turns,
        total_moves=total_moves,
        fighters=tuple(FighterRecord(f, fielded[f], won[f]) for f in range(FIGHTER_COUNT)),
    )
