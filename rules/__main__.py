"""Command-line front end to the engines: `python -m rules <game> ...`.

Every game package under rules/ that has a `cli` module (with NAME, the package's name, HELP,
configure(parser) and run(args) -> exit code) is found and offered as a sub-command; a run imports only the
game it runs.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Generator
from contextlib import contextmanager

import rules
from rules.errors import RuleInputError

# The engines do no linear algebra, so one BLAS thread is all numpy needs here; OpenBLAS starting its pool
# costs a run 50-60 ms on two cores. Set before any game imports numpy; a user's own setting stands.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def terminal_width() -> int:
    """`shutil.get_terminal_size().columns` without importing shutil, which loads the bz2 and lzma libraries:
    2 ms of every command line's start, for help that is rarely written. COLUMNS when set, else the width of
    the terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (ValueError, OSError):  # not a terminal, or closed
            columns = 0
    return columns or 80


class TerminalHelpFormatter(argparse.HelpFormatter):
    """argparse's help, as wide as argparse makes it (the terminal's width less 2), measured by
    `terminal_width`: argparse makes a formatter for every option it adds."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=terminal_width() - 2)


def game_names() -> list[str]:
    """The games with a command-line tool: packages under rules/ that hold a `cli` module, found without
    importing any of them (a game's engine may load heavy libraries)."""
    import pkgutil  # here: a run of one game finds it without listing them all

    found: list[str] = []
    for package in pkgutil.iter_modules(rules.__path__):
        if package.ispkg:
            folder = os.path.join(os.path.dirname(rules.__file__), package.name)
            if any(module.name == "cli" for module in pkgutil.iter_modules([folder])):
                found.append(package.name)
    return sorted(found)


@contextmanager
def imports_uncollected(first: bool = True) -> Generator[None, None, None]:
    """Imports without the cyclic garbage collector: they create hundreds of thousands of objects and no
    garbage, and the collections they set off cost a run of `deck optimize` about 40 ms (numba's import and
    kernel loading most). Once done, what they made is set aside for good (gc.freeze), so later collections do
    not walk it either. Only `first` imports in a process (a test calling `main` again imports nothing new and
    keeps its collector as it was)."""
    if not first:
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Arena's game engines from the shell.",
        formatter_class=TerminalHelpFormatter,
    )
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    # Only the game asked for is imported; the full list (for --help or a mistyped game) imports them all.
    asked = argv[0] if argv and argv[0].isidentifier() else ""
    if asked and os.path.isfile(os.path.join(os.path.dirname(rules.__file__), asked, "cli.py")):
        names = [asked]
    else:
        names = game_names()
    with imports_uncollected(first=any(f"rules.{name}.cli" not in sys.modules for name in names)):
        for name in names:
            cli = importlib.import_module(f"rules.{name}.cli")
            cli.configure(
                games.add_parser(cli.NAME, help=cli.HELP, description=cli.HELP, formatter_class=TerminalHelpFormatter)
            )
    args = parser.parse_args(argv)
    try:
        code = args.run(args)
        sys.stdout.flush()  # here, so that a failed write is reported like any other, not at exit
        return code
    except RuleInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the output cannot take more: a reader gone (`... | head`), or a full disk
        if not isinstance(exc, BrokenPipeError):  # a reader that stopped early is no error, as for shell tools
            print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # else the flush at exit fails again
        return 1


def exit_now(code: int) -> None:
    """End the process without tearing down its modules: with numba's kernels and matplotlib loaded, the
    interpreter's orderly exit takes 0.1-0.15 s that a person waits through for nothing. Output is flushed
    first and every file was closed when written; a run under coverage keeps its orderly exit."""
    if os.environ.get("COVERAGE_PROCESS_START"):
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a reader gone at the very end: nothing left to tell it
        pass
    os._exit(code)


if __name__ == "__main__":
    # One command, then exit_now: the cyclic collector would only walk the rows, fighters and log lines the
    # command makes and keeps (2-3% of a Marked for Death battle's run), and the process ends before memory
    # left in a cycle could matter.
    gc.disable()
    exit_now(main())
