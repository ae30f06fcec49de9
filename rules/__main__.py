"""Command-line front end to the engines: `python -m rules <game> ...`.

Every game package under rules/ that has a `cli` module (with NAME, the package's name, HELP,
configure(parser) and run(args) -> exit code) is found and offered as a sub-command; a run imports only the
game it runs.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

import rules
from rules.errors import RuleInputError


def game_names() -> list[str]:
    """The games with a command-line tool: packages under rules/ that hold a `cli` module, found without
    importing any of them (a game's engine may load heavy libraries)."""
    found: list[str] = []
    for package in pkgutil.iter_modules(rules.__path__):
        if package.ispkg:
            folder = str(Path(rules.__file__).parent / package.name)
            if any(module.name == "cli" for module in pkgutil.iter_modules([folder])):
                found.append(package.name)
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m rules", description="Arena's game engines from the shell.")
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    names = game_names()
    # Only the game asked for is imported; the full list (for --help or a mistyped game) imports them all.
    for name in [argv[0]] if argv and argv[0] in names else names:
        cli = importlib.import_module(f"rules.{name}.cli")
        cli.configure(games.add_parser(cli.NAME, help=cli.HELP, description=cli.HELP))
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except RuleInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
