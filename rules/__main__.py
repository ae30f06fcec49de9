"""Command-line front end to the engines: `python -m rules <game> ...`.

Every game package under rules/ that has a `cli` module (with NAME, HELP, configure(parser) and
run(args) -> exit code) is found and offered as a sub-command.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import rules
from rules.errors import RuleInputError


def discover_game_clis():
    for module in sorted(pkgutil.iter_modules(rules.__path__), key=lambda m: m.name):
        if module.ispkg:
            try:
                yield importlib.import_module(f"rules.{module.name}.cli")
            except ModuleNotFoundError as exc:
                if exc.name != f"rules.{module.name}.cli":
                    raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description="Arena's game engines from the shell.")
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    for cli in discover_game_clis():
        cli.configure(games.add_parser(cli.NAME, help=cli.HELP, description=cli.HELP))
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except RuleInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
