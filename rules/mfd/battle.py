"""Running a battle the way a GM does: start it from two rosters, then continue it, possibly with a side
replaced (reinforcements, healing, edits), each run producing the log and the final CSVs.

The random generator's state is part of `BattleState`, so running 3 rounds and continuing for 2 is the
same battle as running 5 rounds with the same seed.

Continuing from the battle's own final CSVs warns about no one who fell in it (RULINGS 6). The state
records every fallen fighter with their side (`BattleState.fallen`, over all runs), and a CSV given to
`continue_battle` is a side of that battle, so its references to that side's fallen (a buff, a bodyguard
or a link naming them) are dropped silently, in the run's warnings and its log alike. A name that was
never on that side, or that stood and was left out of the file, still warns. In the bot, `/mfd continue`
always continues the channel's stored battle, which is how an attached final CSV is recognised;
`/mfd battle` starts a new battle, with no one fallen yet. The stored state keeps no warnings: going on
from it alone (the button, `/mfd continue` without files) has none to give.

`files_limit` is for the bot, which sends the log and both final CSVs in one Discord message: the three
together stay within it. The CSVs always carry every survivor, so the log gets what they leave (they are
bounded before the run from the rosters fought with, see `roster.final_csv_bound`); rosters whose CSVs
would leave less than 256 KiB for the log are refused before anything is fought.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rules.errors import InputProblem, RuleInputError
from rules.mfd.engine import NEVER, RoundRecord, run_battle
from rules.mfd.log import LOG_LIMIT_BYTES, BattleLog, mib
from rules.mfd.models import BattleCurve, BattleResult, BattleState, Casualty, RngState, Roster
from rules.mfd.roster import final_csv, final_csv_bound

LOG_FILE = "BattleLog.txt"
HEROES_FINAL_FILE = "Heroes-final.csv"
VILLAINS_FINAL_FILE = "Villains-final.csv"
MIN_LOG_BYTES = 256 * 1024


class _CurveRecorder:
    """Observes the rounds of a run (with the log): one pass over the fighters of each round."""

    def __init__(self, heroes: Roster, villains: Roster, rounds_before: int):
        self.rounds = [rounds_before]
        self.standing: tuple[list[int], list[int]] = ([len(heroes.fighters)], [len(villains.fighters)])
        self.hp: tuple[list[float], list[float]] = (
            [sum(f.hp for f in heroes.fighters)],
            [sum(f.hp for f in villains.fighters)],
        )

    def add_round(self, record: RoundRecord) -> None:
        alive = record.death == NEVER
        sides = record.side[alive]
        standing = np.bincount(sides, minlength=2)
        hp = np.bincount(sides, weights=record.hp_end[alive], minlength=2)
        self.rounds.append(record.number)
        for side in (0, 1):
            self.standing[side].append(int(standing[side]))
            self.hp[side].append(float(hp[side]))

    def curve(self) -> BattleCurve:
        return BattleCurve(
            tuple(self.rounds),
            (tuple(self.standing[0]), tuple(self.standing[1])),
            (tuple(self.hp[0]), tuple(self.hp[1])),
        )


class BattleRun(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """One run: the result, the log text, both final CSVs, the state to continue from, the warnings about
    the rosters it fought with (also in the log) and the curve of the whole battle so far, this run last."""

    result: BattleResult
    log: str
    heroes_csv: str
    villains_csv: str
    state: BattleState
    warnings: tuple[InputProblem, ...]
    curve: BattleCurve


def bits_from_state(rng_state: RngState) -> np.random.PCG64:
    """The bit generator whose stream `rng_state` saved."""
    bits = np.random.PCG64()
    bits.state = rng_state
    return bits


def generator_from_state(rng_state: RngState) -> np.random.Generator:
    return np.random.Generator(bits_from_state(rng_state))


def _log_limit(heroes: Roster, villains: Roster, files_limit: int | None) -> int:
    """The log's share of `files_limit` (None: no shared limit, the log alone within LOG_LIMIT_BYTES)."""
    if files_limit is None:
        return LOG_LIMIT_BYTES
    csv_room = final_csv_bound(heroes) + final_csv_bound(villains)
    if files_limit - csv_room < MIN_LOG_BYTES:
        raise RuleInputError(
            f"the rosters are too large to send back: their final CSVs can take up to {mib(csv_room)} of the "
            f"{mib(files_limit)} that the log and both CSVs may take together; use smaller rosters (fewer "
            "fighters, shorter names)"
        )
    return min(LOG_LIMIT_BYTES, files_limit - csv_room)


def _run(
    heroes: Roster,
    villains: Roster,
    bits: np.random.PCG64,
    *,
    seed: int,
    max_rounds: int | None,
    rounds_before: int,
    fallen_before: tuple[Casualty, ...],
    history_before: BattleCurve,
    files_limit: int | None,
) -> BattleRun:
    """Fight with the random stream of `bits`, whose state after the run is the battle's to continue from."""
    log_limit = _log_limit(heroes, villains, files_limit)
    log = BattleLog(heroes, villains, seed=seed, first_round=rounds_before + 1, limit_bytes=log_limit)
    curve = _CurveRecorder(heroes, villains, rounds_before)

    def observe(record: RoundRecord) -> None:
        log.add_round(record)
        curve.add_round(record)

    result = run_battle(
        heroes,
        villains,
        np.random.Generator(bits),
        max_rounds=max_rounds,
        first_round=rounds_before + 1,
        observer=observe,
    )
    history = history_before.then(curve.curve())
    state = BattleState(
        heroes=result.heroes,
        villains=result.villains,
        rounds_fought=result.last_round,
        seed=seed,
        rng_state=bits.state,
        ending=result.ending,
        fallen=fallen_before + result.fallen,
        history=history,
    )
    return BattleRun(
        result,
        log.finish(result),
        final_csv(result.heroes),
        final_csv(result.villains),
        state,
        heroes.warnings + villains.warnings,
        history,
    )


def start_battle(
    heroes: Roster, villains: Roster, *, seed: int, max_rounds: int | None = None, files_limit: int | None = None
) -> BattleRun:
    return _run(
        heroes,
        villains,
        np.random.PCG64(seed),
        seed=seed,
        max_rounds=max_rounds,
        rounds_before=0,
        fallen_before=(),
        history_before=BattleCurve(),
        files_limit=files_limit,
    )


def continue_battle(
    state: BattleState,
    *,
    max_rounds: int | None = None,
    heroes: Roster | None = None,
    villains: Roster | None = None,
    files_limit: int | None = None,
) -> BattleRun:
    """Fight on from `state`; a roster given replaces that side as it stands, and is not warned about the
    fighters of its side who fell in this battle."""

    def side(given: Roster | None, standing: Roster) -> Roster:
        return standing if given is None else given.ignoring_names(state.fallen_names(given.side))

    heroes, villains = side(heroes, state.heroes), side(villains, state.villains)
    empty = [r.side for r in (heroes, villains) if not r.fighters]
    if empty:
        raise RuleInputError(
            f"the battle is over: {' and '.join(empty)} have no one standing; attach a CSV for "
            f"{'that side' if len(empty) == 1 else 'both sides'} to fight on"
        )
    return _run(
        heroes,
        villains,
        bits_from_state(state.rng_state),
        seed=state.seed,
        max_rounds=max_rounds,
        rounds_before=state.rounds_fought,
        fallen_before=state.fallen,
        history_before=state.history,
        files_limit=files_limit,
    )
