"""Running a battle the way a GM does: start it from two rosters, then continue it, possibly with a side
replaced (reinforcements, healing, edits), each run producing the log and the final CSVs.

The random generator's state is part of `BattleState`, so running 3 rounds and continuing for 2 is the
same battle as running 5 rounds with the same seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.errors import RuleInputError
from rules.mfd.engine import run_battle
from rules.mfd.log import LOG_LIMIT_BYTES, BattleLog
from rules.mfd.models import BattleResult, BattleState, Roster
from rules.mfd.roster import write_roster

LOG_FILE = "BattleLog.txt"
HEROES_FINAL_FILE = "Heroes-final.csv"
VILLAINS_FINAL_FILE = "Villains-final.csv"


@dataclass(frozen=True)
class BattleRun:
    """One run: the result, the log text, both final CSVs and the state to continue from."""

    result: BattleResult
    log: str
    heroes_csv: str
    villains_csv: str
    state: BattleState


def generator_from_state(rng_state: dict) -> np.random.Generator:
    bit_generator = np.random.PCG64()
    bit_generator.state = rng_state
    return np.random.Generator(bit_generator)


def _run(heroes: Roster, villains: Roster, rng: np.random.Generator, *, seed: int, max_rounds: int | None,
         rounds_before: int, fallen_before: tuple, log_limit: int) -> BattleRun:
    log = BattleLog(heroes, villains, seed=seed, first_round=rounds_before + 1, limit_bytes=log_limit)
    result = run_battle(heroes, villains, rng, max_rounds=max_rounds, first_round=rounds_before + 1,
                        observer=log.add_round)
    state = BattleState(
        heroes=result.heroes, villains=result.villains, rounds_fought=result.last_round, seed=seed,
        rng_state=rng.bit_generator.state, outcome=result.outcome, fallen=fallen_before + result.fallen,
    )
    return BattleRun(result, log.finish(result), write_roster(result.heroes.fighters),
                     write_roster(result.villains.fighters), state)


def start_battle(heroes: Roster, villains: Roster, *, seed: int, max_rounds: int | None = None,
                 log_limit: int = LOG_LIMIT_BYTES) -> BattleRun:
    return _run(heroes, villains, np.random.Generator(np.random.PCG64(seed)), seed=seed, max_rounds=max_rounds,
                rounds_before=0, fallen_before=(), log_limit=log_limit)


def continue_battle(state: BattleState, *, max_rounds: int | None = None, heroes: Roster | None = None,
                    villains: Roster | None = None, log_limit: int = LOG_LIMIT_BYTES) -> BattleRun:
    """Fight on from `state`; a roster given replaces that side as it stands."""
    heroes = heroes or state.heroes
    villains = villains or state.villains
    empty = [r.side for r in (heroes, villains) if not r.fighters]
    if empty:
        raise RuleInputError(
            f"the battle is over: {' and '.join(empty)} have no one standing; attach a CSV for "
            f"{'that side' if len(empty) == 1 else 'both sides'} to fight on")
    return _run(heroes, villains, generator_from_state(state.rng_state), seed=state.seed, max_rounds=max_rounds,
                rounds_before=state.rounds_fought, fallen_before=state.fallen, log_limit=log_limit)
