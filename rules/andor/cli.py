"""`python -m rules andor simulate|fight|bestiary`: Andor's Trail fights from the shell."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from rules.andor import ai
from rules.andor.bestiary import find_monster, merged, parse_monsters
from rules.andor.engine import MAX_MONSTERS, apply_in_place, outcome, start_fight, updated_character
from rules.andor.models import Character
from rules.andor.simulate import MAX_ROUNDS, simulate
from rules.andor.text import crit_text, describe_event, per_attack_lines, summary_lines
from rules.csvio import read_text_file
from rules.errors import RuleInputError
from rules.seeds import new_seed, seed_argument

NAME = "andor"
HELP = "Andor's Trail: simulate fights against the bestiary, or watch one fight played by the AI."


def configure(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="andor_command", required=True, metavar="COMMAND")

    sim = commands.add_parser("simulate", help="the odds of many fights (win rate, rounds, HP left)")
    _fight_options(sim)
    sim.add_argument("--fights", type=int, default=10_000, help="how many fights (default 10000)")
    sim.set_defaults(run=run_simulate)

    fight = commands.add_parser("fight", help="one fight played by the AI, with its event log")
    _fight_options(fight)
    fight.set_defaults(run=run_fight)

    book = commands.add_parser("bestiary", help="list the monsters")
    book.add_argument("--monsters", type=Path, help="a CSV of extra monsters (the columns of bestiary.csv)")
    book.set_defaults(run=run_bestiary)


def _fight_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--monster", required=True, help="a bestiary name, e.g. Wolf")
    parser.add_argument("--count", type=int, default=1, help=f"how many of that monster (1-{MAX_MONSTERS})")
    parser.add_argument("--monsters", type=Path, help="a CSV of extra monsters (the columns of bestiary.csv)")
    parser.add_argument(
        "--stat",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the default character's stats, e.g. --stat attack_chance=90 (repeatable)",
    )
    parser.add_argument("--seed", type=seed_argument, help="random seed (shown in the output)")


def _book(path: Path | None):
    extra = []
    if path is not None:
        extra = parse_monsters(read_text_file(path), path.name)
    return merged(extra)


def _character(stats: list[str]) -> Character:
    changes: dict[str, float] = {}
    for item in stats:
        name, sep, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = None
        if not sep or number is None:
            raise RuleInputError(f"--stat {item}: expected NAME=NUMBER, e.g. attack_chance=90")
        changes[name.strip()] = int(number) if number.is_integer() and name.strip() != "crit_multiplier" else number
    return updated_character(Character(), changes)


def run_simulate(args: argparse.Namespace) -> int:
    monster = find_monster(_book(args.monsters), args.monster)
    character = _character(args.stat)
    result = simulate(character, monster, args.count, args.fights, args.seed)
    for line in summary_lines(result, result.monster):
        print(line)
    print("Per attack:")
    for line in per_attack_lines(character, monster, monster.name):
        print(f"  {line}")
    print("HP left:")
    buckets = result.hp_left_buckets(10)
    biggest = max(count for _, _, count in buckets) or 1
    for low, high, count in buckets:
        label = "0 (dead)" if high == 0 else str(low) if low == high else f"{low}-{high}"
        print(f"  {label:>10} {count:>7,} {'#' * round(40 * count / biggest)}")
    return 0


def run_fight(args: argparse.Namespace) -> int:
    monster = find_monster(_book(args.monsters), args.monster)
    seed = args.seed if args.seed is not None else new_seed()
    rng = random.Random(seed)
    state, events = start_fight(_character(args.stat), monster, args.count)
    print(f"seed {seed}")
    while True:
        for event in events:
            print(describe_event(event))
        if outcome(state) is not None:
            return 0
        if state.round > MAX_ROUNDS:
            print(f"undecided after {MAX_ROUNDS} rounds")
            return 0
        events = apply_in_place(state, ai.choose_action(state), rng)


def run_bestiary(args: argparse.Namespace) -> int:
    print("name, HP, AP, attack cost, AC, damage, crit, BC, DR, XP")
    for monster in _book(args.monsters).values():
        print(
            f"{monster.name}, {monster.hp}, {monster.ap}, {monster.attack_cost}, {monster.attack_chance},"
            f" {monster.damage_min}-{monster.damage_max}, {crit_text(monster.crit_chance, monster.crit_multiplier)},"
            f" {monster.block_chance}, {monster.damage_resistance}, {monster.xp}"
        )
    return 0
