"""`python -m rules bossfight --boss NAME|CSV --deck CSV`: the attack breakdown in the terminal."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from rules.bossfight.engine import calculate_attack
from rules.bossfight.parsing import parse_bosses, parse_deck
from rules.bossfight.report import format_breakdown
from rules.bossfight.roster import BUILTIN_BOSSES, find_boss, guild_roster
from rules.csvio import read_text_file
from rules.errors import RuleInputError
from rules.roster import NotInRoster
from rules.text import format_number

NAME = "bossfight"
HELP = "Calculate one attack of a token deck on a boss."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--boss", required=True, help="a built-in boss's name, or a boss CSV file (its first boss is used)"
    )
    parser.add_argument("--deck", required=True, type=Path, help="the deck CSV file")
    parser.add_argument("--hp", type=float, help="the boss's current HP (default: its full health)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    boss_path = Path(args.boss)
    if boss_path.suffix.lower() == ".csv":
        boss = parse_bosses(read_text_file(boss_path), boss_path.name)[0]
    else:
        try:
            boss = find_boss(guild_roster(()), args.boss)
        except NotInRoster as missing:
            names = ", ".join(b.name for b in BUILTIN_BOSSES)
            raise RuleInputError(f"{missing}; the built-in bosses are: {names}") from None
    if args.hp is not None and not (math.isfinite(args.hp) and 0 <= args.hp <= boss.health):
        raise RuleInputError(
            f"--hp {format_number(args.hp)} is not {boss.name}'s HP: give a number from 0 to its health, "
            f"{format_number(boss.health)}"
        )
    deck = parse_deck(read_text_file(args.deck), args.deck.name)
    print(format_breakdown(calculate_attack(boss, deck, args.hp)))
    return 0
