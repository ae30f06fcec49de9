"""`python -m rules mma ...`: AI-vs-AI simulations and the card list."""

from __future__ import annotations

import argparse
import sys
import time

from rules.csvio import write_csv
from rules.mma.cards import CARDS, DECK_LIST
from rules.mma.simulate import MAX_GAMES, simulate
from rules.mma.state import EndReason
from rules.seeds import new_seed, seed_argument

NAME = "mma"
HELP = "MMA Warriors: simulate AI-vs-AI matches or list the cards."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(run=run)
    commands = parser.add_subparsers(dest="mma_command", required=True, metavar="COMMAND")
    sim = commands.add_parser("simulate", help="play AI-vs-AI matches and report win rates by fighter")
    sim.add_argument("--games", type=int, default=1000, help=f"matches to play (1..{MAX_GAMES:,}; default 1000)")
    sim.add_argument("--seed", type=seed_argument, default=None, help="first match's seed (default: random, shown)")
    sim.add_argument("--csv", action="store_true", help="print the fighter table as CSV")
    sim.set_defaults(mma_run=run_simulate)
    cards = commands.add_parser("cards", help="list every card and its copies in a deck")
    cards.set_defaults(mma_run=run_cards)


def run(args: argparse.Namespace) -> int:
    return args.mma_run(args)


def run_simulate(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else new_seed()
    started = time.perf_counter()
    report = simulate(args.games, seed)
    elapsed = time.perf_counter() - started
    rows = sorted(report.fighters, key=lambda r: (-r.win_rate, CARDS[r.fighter].name))
    if args.csv:
        # the seeds on stderr: the CSV stays a table, and the run can still be replayed
        print(f"seeds {seed}..{seed + report.games - 1}", file=sys.stderr)
        print(
            write_csv(
                ["fighter", "style", "fielded", "won", "win_rate"],
                [(CARDS[r.fighter].name, CARDS[r.fighter].style, r.fielded, r.won, round(r.win_rate, 4)) for r in rows],
            ),
            end="",
        )
        return 0
    print(
        f"MMA Warriors: {report.games:,} AI-vs-AI matches, seeds {seed}..{seed + report.games - 1} "
        f"({elapsed:.2f} s, {report.games / elapsed:,.0f} matches/s)"
    )
    print(
        f"first player wins {report.wins[0]:,} ({report.wins[0] / report.games:.1%}), "
        f"second {report.wins[1]:,} ({report.wins[1] / report.games:.1%}), draws {report.draws:,}"
    )
    print(f"average length: {report.average_turns:.1f} turns (both players), {report.average_moves:.1f} moves")
    print(
        "how matches end: "
        + ", ".join(
            f"{EndReason(reason).label} {count:,}"
            for reason, count in sorted(report.reasons.items(), key=lambda kv: -kv[1])
        )
    )
    print()
    width = max(len(CARDS[r.fighter].name) for r in rows)
    print(f"{'fighter':<{width}}  {'style':<8}  {'fielded':>8}  {'won':>8}  win rate")
    for r in rows:
        card = CARDS[r.fighter]
        print(f"{card.name:<{width}}  {card.style:<8}  {r.fielded:>8,}  {r.won:>8,}  {r.win_rate:8.1%}")
    return 0


def run_cards(args: argparse.Namespace) -> int:
    print(
        write_csv(
            ["card", "kind", "copies", "effect"], [(c.name, c.kind, DECK_LIST.count(c.id), c.summary()) for c in CARDS]
        ),
        end="",
    )
    return 0
