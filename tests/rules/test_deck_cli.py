"""`python -m rules deck ...`: files written, summaries printed, bad input reported without a traceback."""

from __future__ import annotations

from pathlib import Path

from rules.__main__ import main
from rules.deck.cards import read_deck_csv
from rules.deck.optimize import OptimizeSettings, optimize

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "deck"


def test_optimize_writes_deck_csv_and_chart(tmp_path, capsys):
    code = main(["deck", "optimize", "--iterations", "20", "--games", "100", "--seed", "3", "--out", str(tmp_path)])
    assert code == 0
    out = capsys.readouterr()
    assert "seed 3" in out.out
    assert (
        "20 iterations x 100 games, then 2 x 10,000 games measuring the start and final decks afresh: 22,100 games in"
    ) in out.out
    # the reported winrates are the fresh measurements, with their intervals; the run's best is labelled as such
    expected = optimize(OptimizeSettings(iterations=20, games=100, seed=3))

    def measured(score):
        low, high = score.interval
        return f"{100 * score.winrate:.1f}% (95% interval {100 * low:.1f}% - {100 * high:.1f}%)"

    assert (
        f"winrate measured afresh: start {measured(expected.fresh.start)} -> final {measured(expected.fresh.final)}"
        f" ({len(expected.accepted)} swaps kept)"
    ) in out.out
    assert f"best measurement during the run: {100 * expected.best_winrate:.1f}% over 100 games" in out.out
    assert "20/20" in out.err  # the progress bar
    deck = read_deck_csv((tmp_path / "deck-3.csv").read_text(), "deck-3.csv")
    assert len(deck.cards) == 30
    assert (tmp_path / "winrate-3.png").read_bytes().startswith(b"\x89PNG")
    assert read_deck_csv((tmp_path / "opponent-3.csv").read_text(), "opponent-3.csv")


def test_optimize_writes_the_start_deck_when_the_final_deck_measured_worse(tmp_path, capsys):
    # the rule is the engine's (RULINGS 7): the command line never presents a worse deck either
    code = main(["deck", "optimize", "--iterations", "50", "--games", "100", "--seed", "5", "--out", str(tmp_path)])
    assert code == 0
    out = capsys.readouterr().out
    expected = optimize(OptimizeSettings(iterations=50, games=100, seed=5))
    assert (
        f"result ({tmp_path / 'deck-5.csv'}): the start deck\n"
        "The final deck measured worse than the start deck on the same fresh games, so the result is the start "
        "deck. The search kept swaps on noise: a measurement of 100 games is only good to about ±5.7 points, too "
        "noisy to optimize on; use more games per iteration.\n" + expected.start.compact()
    ) in out
    assert read_deck_csv((tmp_path / "deck-5.csv").read_text(), "deck-5.csv") == expected.start != expected.best


def test_optimize_without_its_chart_writes_only_the_csvs(tmp_path, capsys):
    assert main(["deck", "optimize", "--iterations", "5", "--games", "10", "--seed", "3", "--out", str(tmp_path)]) == 0
    with_chart = capsys.readouterr().out.splitlines()[-1]
    assert with_chart == f"wrote {tmp_path / 'deck-3.csv'}, {tmp_path / 'opponent-3.csv'}, {tmp_path / 'winrate-3.png'}"
    for written in tmp_path.iterdir():
        written.unlink()
    assert (
        main(
            [
                "deck",
                "optimize",
                "--iterations",
                "5",
                "--games",
                "10",
                "--seed",
                "3",
                "--out",
                str(tmp_path),
                "--no-chart",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.splitlines()[-1] == f"wrote {tmp_path / 'deck-3.csv'}, {tmp_path / 'opponent-3.csv'}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck-3.csv", "opponent-3.csv"]


def test_optimize_with_keywords_off_and_an_opponent(tmp_path, capsys):
    code = main(
        [
            "deck",
            "optimize",
            "--iterations",
            "5",
            "--games",
            "50",
            "--seed",
            "1",
            "--no-taunt",
            "--quiet",
            "--opponent",
            str(EXAMPLES / "random-seed7.csv"),
            "--out",
            str(tmp_path),
        ]
    )
    # the example deck has taunters, and taunt is off for this run
    assert code == 2
    assert "column 'taunt': Taunt is switched off" in capsys.readouterr().err


def test_duel_prints_winrate_and_interval(capsys):
    code = main(
        [
            "deck",
            "duel",
            str(EXAMPLES / "optimized-seed1.csv"),
            str(EXAMPLES / "opponent-seed1.csv"),
            "--games",
            "2000",
            "--seed",
            "5",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "over 2000 games" in out and "95% interval" in out


def test_random_deck_is_seeded(capsys):
    assert main(["deck", "random", "--seed", "7"]) == 0
    assert capsys.readouterr().out == (EXAMPLES / "random-seed7.csv").read_text()


def test_bad_input_is_an_error_not_a_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("atk,def\n1,1\nx,2\n")
    assert main(["deck", "duel", str(bad), str(bad)]) == 2
    assert "bad.csv, row 3, column 'atk': 'x' is not a number" in capsys.readouterr().err
    assert main(["deck", "optimize", "--iterations", "100000", "--games", "100000", "--quiet"]) == 2
    assert "the limit is" in capsys.readouterr().err


def test_an_unusable_output_path_is_an_error_not_a_traceback(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["deck", "optimize", "--iterations", "2", "--games", "10", "--quiet", "--out", str(blocker)]) == 2
    assert f"{blocker}: cannot be used as the output folder" in capsys.readouterr().err
    assert main(["deck", "random", "--seed", "1", "--out", str(blocker / "deck.csv")]) == 2
    assert f"{blocker / 'deck.csv'}: cannot be written" in capsys.readouterr().err


def test_a_fresh_process_prints_and_writes_what_an_in_process_run_does(tmp_path, capsys):
    # A new process draws its chart in a forked child and skips the interpreter's teardown (start-up speed);
    # what it prints and writes must be exactly what the same run gives in-process.
    import os
    import re
    import subprocess
    import sys

    from rules.deck.chart import winrate_chart_png

    options = ["deck", "optimize", "--iterations", "20", "--games", "100", "--seed", "3", "--quiet"]
    here, there = tmp_path / "here", tmp_path / "there"
    assert main([*options, "--out", str(here)]) == 0
    printed_here = capsys.readouterr().out
    root = Path(__file__).resolve().parents[2]
    env = {name: value for name, value in os.environ.items() if name != "COVERAGE_PROCESS_START"}
    done = subprocess.run(
        [sys.executable, "-m", "rules", *options, "--out", str(there)],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )

    def untimed(text: str, folder: Path) -> str:
        return re.sub(r"in [0-9.]+ s \([0-9,]+ games/s\)", "", text).replace(str(folder), "OUT")

    assert untimed(done.stdout, there) == untimed(printed_here, here) and done.stderr == ""
    for name in ("deck-3.csv", "opponent-3.csv", "winrate-3.png"):
        assert (there / name).read_bytes() == (here / name).read_bytes()
    expected = optimize(OptimizeSettings(iterations=20, games=100, seed=3))
    assert (there / "winrate-3.png").read_bytes() == winrate_chart_png(expected, "Deck optimization, seed 3")


def test_a_fresh_process_draws_the_chart_itself_when_its_child_fails(tmp_path):
    import subprocess
    import sys

    from rules.deck.chart import winrate_chart_png

    # the child cannot draw (here: matplotlib fails to load in it); the parent draws the same chart, says nothing
    script = (
        "import sys; import rules.deck.cli as cli, rules.__main__ as m\n"
        "def broken(): raise ImportError('no matplotlib')\n"
        "cli.preload_matplotlib = broken\n"
        "sys.exit(m.main(sys.argv[1:]))\n"
    )
    options = ["deck", "optimize", "--iterations", "10", "--games", "50", "--seed", "4", "--quiet", "--out"]
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script, *options, str(tmp_path)], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stderr == "" and done.stdout.endswith(f"{tmp_path / 'winrate-4.png'}\n")
    expected = optimize(OptimizeSettings(iterations=10, games=50, seed=4))
    assert (tmp_path / "winrate-4.png").read_bytes() == winrate_chart_png(expected, "Deck optimization, seed 4")
