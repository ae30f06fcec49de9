"""The odds /andor shows: a quick simulation for the bestiary, and /andor simulate with its chart, each one call
off the event loop."""

from __future__ import annotations

from cogs.common import markdown_safe
from rules.andor.chart import hp_left_chart_png
from rules.andor.models import Character, Monster
from rules.andor.simulate import Progress, SimulationResult, simulate
from rules.andor.text import per_attack_lines

BESTIARY_FIGHTS = 1_000  # the quick odds in /andor bestiary
BESTIARY_WORK = 200_000  # attacks at most: the odds stay quick whatever the monster


def bestiary_odds(character: Character, monster: Monster, seed: int) -> tuple[list[str], SimulationResult]:
    """The per-attack lines and a quick simulation against one of `monster`: one call off the event loop."""
    odds = simulate(character, monster, 1, BESTIARY_FIGHTS, seed, work_limit=BESTIARY_WORK)
    return per_attack_lines(character, monster, markdown_safe(monster.name)), odds


def simulate_with_chart(
    character: Character, monster: Monster, count: int, fights: int, seed: int, progress: Progress
) -> tuple[SimulationResult, bytes, list[str]]:
    """The simulation, its chart and the per-attack lines: one call off the event loop."""
    result = simulate(character, monster, count, fights, seed, progress=progress)
    return result, hp_left_chart_png(result), per_attack_lines(character, monster, markdown_safe(monster.name))
