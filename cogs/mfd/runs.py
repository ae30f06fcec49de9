"""A battle's runs as the cog hands them to the engine's worker threads: fought (or simulated), encoded for storage
and charted there, off the event loop; and the one log line of a stored run."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from rules.mfd.battle import BattleRun, continue_battle, start_battle
from rules.mfd.chart import battle_chart_png, odds_chart_png
from rules.mfd.engine import simulate_odds
from rules.mfd.models import BattleState, OddsResult, Roster
from rules.mfd.roster import final_csv
from storage.mfd import StoredBattle, encode_state

log = logging.getLogger("arena.mfd")


# --- work done in an engine worker thread ------------------------------------------------------------------


@dataclass(frozen=True)
class EncodedRun:
    """A run and its state, encoded for storage."""

    run: BattleRun
    state_zlib: bytes
    chart_png: bytes  # drawn here, in the worker, with the run


def encoded(run: BattleRun) -> EncodedRun:
    chart = battle_chart_png(run.curve, f"Marked for Death, seed {run.state.seed}")
    return EncodedRun(run, encode_state(run.state), chart)


def fight_new(heroes: Roster, villains: Roster, seed: int, max_rounds: int | None, files_limit: int) -> EncodedRun:
    return encoded(start_battle(heroes, villains, seed=seed, max_rounds=max_rounds, files_limit=files_limit))


def fight_on(
    stored: StoredBattle, rounds: int | None, heroes: Roster | None, villains: Roster | None, files_limit: int
) -> EncodedRun:
    return encoded(
        continue_battle(stored.state(), max_rounds=rounds, heroes=heroes, villains=villains, files_limit=files_limit)
    )


def odds_with_chart(
    heroes: Roster,
    villains: Roster,
    battles: int,
    seed: int,
    max_rounds: int | None,
    report: Callable[[int, int], None],
) -> tuple[OddsResult, bytes]:
    odds = simulate_odds(heroes, villains, battles, seed=seed, max_rounds=max_rounds, progress=report)
    return odds, odds_chart_png(odds)


def state_and_files(stored: StoredBattle) -> tuple[BattleState, str, str]:
    state = stored.state()
    return state, final_csv(state.heroes), final_csv(state.villains)


# --- refusals and the log -----------------------------------------------------------------------------------


def log_run(stored: StoredBattle, run: BattleRun) -> None:
    """One line per stored run, for whoever looks after the bot."""
    result = run.result
    log.info(
        "battle %d in channel %d: rounds %d-%d fought, %s (seed %d)",
        stored.id,
        stored.channel_id,
        result.first_round,
        result.last_round,
        stored.ending,
        stored.seed,
    )
