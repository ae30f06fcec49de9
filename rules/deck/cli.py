"""`python -m rules deck optimize|duel|random`: the deck optimizer from the shell."""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import random
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from rules.csvio import read_text_file
from rules.deck.cards import ALL_KEYWORDS, Deck, Keyword, random_deck, read_deck_csv, set_list
from rules.deck.chart import preload_matplotlib, winrate_chart_png
from rules.deck.optimize import (
    DEFAULT_GAMES,
    DEFAULT_ITERATIONS,
    OptimizeResult,
    OptimizeSettings,
    Progress,
    Score,
    check_seed,
    duel,
    keywords_without,
    optimize,
    verdict_note,
)
from rules.errors import RuleInputError
from rules.seeds import seed_argument, seed_or_new
from rules.text import plural

NAME = "deck"
HELP = "Deck optimizer: Monte-Carlo deck optimization, deck-vs-deck duels, random decks."


def configure(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="deck_command", required=True, metavar="COMMAND")

    opt = commands.add_parser("optimize", help="optimize a random deck against an opponent deck")
    opt.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    opt.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per iteration")
    opt.add_argument("--seed", type=seed_argument, help="replay a run (default: a new random seed)")
    opt.add_argument("--opponent", type=Path, help="opponent deck CSV (default: a random deck from the seed)")
    for keyword in Keyword:
        opt.add_argument(
            f"--no-{keyword.column.replace('_', '-')}",
            dest=f"no_{keyword.column}",
            action="store_true",
            help=f"switch {keyword.title} off (its cards leave the set list)",
        )
    opt.add_argument(
        "--out",
        type=Path,
        default=Path("out"),
        help="folder for the result deck's CSV, the opponent's and the chart PNG",
    )
    opt.add_argument("--quiet", action="store_true", help="no progress bar")
    opt.add_argument(
        "--no-chart", dest="chart", action="store_false", help="skip the winrate chart (it adds about 0.1 s)"
    )
    opt.set_defaults(run=run_optimize)

    du = commands.add_parser("duel", help="winrate of deck A (player 1) against deck B, with a 95%% interval")
    du.add_argument("deck_a", type=Path)
    du.add_argument("deck_b", type=Path)
    du.add_argument("--games", type=int, default=10_000)
    du.add_argument("--seed", type=seed_argument, help="replay a duel (default: a new random seed)")
    du.set_defaults(run=run_duel)

    rnd = commands.add_parser("random", help="a random legal deck as CSV")
    rnd.add_argument("--seed", type=seed_argument, help="the same deck again (default: a new random seed)")
    rnd.add_argument("--out", type=Path, help="write the CSV here instead of standard output")
    rnd.set_defaults(run=run_random)


def run(args: argparse.Namespace) -> int:
    return args.run(args)


def _write(path: Path, data: str | bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as exc:
        raise RuleInputError(f"{path}: cannot be written ({exc.strerror or exc})") from None


def _read_deck(path: Path, keywords: Iterable[Keyword] = ALL_KEYWORDS) -> Deck:
    return read_deck_csv(read_text_file(path), path.name, keywords)


class ProgressBar:
    """A one-line bar on standard error, redrawn at most ten times a second."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.last = 0.0
        self.width = 0  # of the longest line drawn, so a shorter one covers it

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        done = p.games_done == p.games_total
        if not self.enabled or (now - self.last < 0.1 and not done):
            return
        self.last = now
        filled = round(30 * p.fraction)
        stage = "  measuring the start and final decks afresh" if p.measuring and not done else ""
        line = (
            f"[{'#' * filled}{'-' * (30 - filled)}] {p.iteration}/{p.iterations}"
            f"  best {100 * p.best_winrate:.1f}% (start {100 * p.start_winrate:.1f}%){stage}"
        )
        self.width = max(self.width, len(line))
        sys.stderr.write("\r" + line.ljust(self.width))
        if done:
            sys.stderr.write("\n")
        sys.stderr.flush()


class ChartProcess:
    """The chart drawn by a child process forked before the run, which imports matplotlib (about 0.2 s) on the
    second core while this process loads numba and its kernels on the first, and waits for the result.

    Only a fresh process forks: one with no thread and no numba or matplotlib loaded yet (a test calling
    `main` in its own process draws in-process, as where there is no fork). The child hands back the PNG
    bytes and this process writes them; should it fail, the chart is drawn here, the same chart.
    """

    def __init__(self) -> None:
        self.pid = 0
        fresh = threading.active_count() == 1 and not {"numba", "matplotlib"} & sys.modules.keys()
        if not (fresh and hasattr(os, "fork")):
            return
        self.to_child, child_in = os.pipe()[::-1]
        child_out, self.from_child = os.pipe()[::-1]
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns, never runs the parent's exit handlers
            os.close(self.to_child)
            os.close(self.from_child)
            os._exit(_draw_in_child(child_in, child_out))
        os.close(child_in)
        os.close(child_out)

    def png(self, result: OptimizeResult, title: str) -> bytes:
        if self.pid:
            try:
                with os.fdopen(self.to_child, "wb") as to_child:
                    pickle.dump((result, title), to_child, pickle.HIGHEST_PROTOCOL)
            except BrokenPipeError:  # the child failed before it read: it sends nothing, and the chart is drawn here
                pass
            with os.fdopen(self.from_child, "rb") as from_child:
                png = from_child.read()
            _, status = os.waitpid(self.pid, 0)
            self.pid = 0
            if status == 0 and png.startswith(b"\x89PNG"):
                return png
        return winrate_chart_png(result, title)

    def close(self) -> None:
        """No chart wanted after all (the run failed): the child sees the pipe close and exits."""
        if self.pid:
            os.close(self.to_child)
            os.close(self.from_child)
            os.waitpid(self.pid, 0)
            self.pid = 0


def _draw_in_child(result_in: int, png_out: int) -> int:
    """The forked child's work: the exit code, 0 once the PNG is written to `png_out`."""
    try:
        devnull = os.open(os.devnull, os.O_RDWR)  # the parent's output stays its own (a pipe's reader sees
        for fd in (0, 1, 2):  # its end when the parent ends, not when this child does)
            os.dup2(devnull, fd)
        gc.disable()  # a short life that makes no garbage: imports without collections are faster
        preload_matplotlib()
        with os.fdopen(result_in, "rb") as source:
            data = source.read()
        if not data:  # the parent's run failed
            return 1
        result, title = pickle.loads(data)
        with os.fdopen(png_out, "wb") as out:
            out.write(winrate_chart_png(result, title))
        return 0
    except BaseException:  # anything, Ctrl-C included: the parent draws the chart itself
        return 1


def run_optimize(args: argparse.Namespace) -> int:
    keywords = keywords_without(k for k in Keyword if getattr(args, f"no_{k.column}"))
    seed = check_seed(seed_or_new(args.seed))
    opponent = _read_deck(args.opponent, keywords) if args.opponent else None
    settings = OptimizeSettings(args.iterations, args.games, seed, keywords, opponent)
    try:  # before the run, so a bad folder does not waste it
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RuleInputError(f"{args.out}: cannot be used as the output folder ({exc.strerror or exc})") from None
    chart = ChartProcess() if args.chart else None
    try:
        from rules.__main__ import imports_uncollected  # here: `rules.__main__` imports this module

        # numba and the kernel, which the run would load on its first game
        with imports_uncollected(first="rules.deck.fast" not in sys.modules):
            from rules.deck.fast import load_batch_kernel

            load_batch_kernel()
        started = time.perf_counter()
        result = optimize(settings, progress=ProgressBar(not args.quiet))
        elapsed = time.perf_counter() - started
    except BaseException:
        if chart is not None:
            chart.close()
        raise
    deck_path = args.out / f"deck-{seed}.csv"
    opponent_path = args.out / f"opponent-{seed}.csv"
    _write(deck_path, result.deck.to_csv())
    _write(opponent_path, result.opponent.to_csv())
    written = [deck_path, opponent_path]
    if chart is not None:
        written.append(args.out / f"winrate-{seed}.png")
        _write(written[-1], chart.png(result, f"Deck optimization, seed {seed}"))
    off = ", ".join(k.title for k in Keyword if k not in keywords) or "none"
    fresh = result.fresh
    print(f"seed {seed}; keywords off: {off}; set list {result.set_list_size} cards")
    print(
        f"{result.iterations_done} iterations x {settings.games} games, then 2 x {fresh.games:,} games measuring "
        f"the start and final decks afresh: {result.games_played:,} games in {elapsed:.2f} s "
        f"({result.games_played / elapsed:,.0f} games/s)"
    )
    print(
        f"winrate measured afresh: start {measured(fresh.start)} -> final {measured(fresh.final)}"
        f" ({plural(len(result.accepted), 'swap')} kept)"
    )
    print(
        f"best measurement during the run: {100 * result.best_winrate:.1f}% over {plural(settings.games, 'game')}"
        " (the chart's curve; the best of many noisy measurements, so biased high)"
    )
    print(f"result ({deck_path}): {'the start deck' if result.kept_start else 'the final deck'}")
    print(verdict_note(result))
    print(result.deck.compact())
    print(f"wrote {', '.join(map(str, written))}")
    return 0


def measured(score: Score) -> str:
    low, high = score.interval
    return f"{100 * score.winrate:.1f}% (95% interval {100 * low:.1f}% - {100 * high:.1f}%)"


def run_duel(args: argparse.Namespace) -> int:
    seed = check_seed(seed_or_new(args.seed))
    result = duel(_read_deck(args.deck_a), _read_deck(args.deck_b), args.games, seed)
    s = result.score
    low, high = s.interval
    print(f"seed {seed}: {args.deck_a.name} vs {args.deck_b.name} over {s.games} games")
    print(f"wins {s.wins}, losses {s.losses}, ties {s.ties} (ties count as losses)")
    print(f"winrate {100 * s.winrate:.2f}% (95% interval {100 * low:.2f}% - {100 * high:.2f}%)")
    return 0


def run_random(args: argparse.Namespace) -> int:
    seed = check_seed(seed_or_new(args.seed))
    deck = random_deck(set_list(), random.Random(seed))
    if args.out:
        _write(args.out, deck.to_csv())
        print(f"seed {seed}: wrote {args.out}")
    else:
        print(f"seed {seed}", file=sys.stderr)  # on stderr: the CSV stays a deck file, and it can be replayed
        sys.stdout.write(deck.to_csv())
    return 0
