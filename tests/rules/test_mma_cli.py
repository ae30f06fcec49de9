"""`python -m rules mma ...` from the shell."""

from rules.__main__ import main


def test_simulate_prints_win_rates_by_fighter_and_the_average_length(capsys):
    assert main(["mma", "simulate", "--games", "60", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "60 AI-vs-AI matches, seeds 3..62" in out
    assert "average length:" in out and "turns (both players)" in out
    assert "Alex Pereira" in out and "win rate" in out


def test_simulate_is_replayable_from_its_seed(capsys):
    main(["mma", "simulate", "--games", "40", "--csv"])  # an unseeded table still names its seeds, beside it
    table, seeds = capsys.readouterr()
    first_seed = int(seeds.removeprefix("seeds ").split("..")[0])
    main(["mma", "simulate", "--games", "40", "--seed", str(first_seed), "--csv"])
    assert capsys.readouterr().out == table
    main(["mma", "simulate", "--games", "40", "--seed", "9", "--csv"])
    first = capsys.readouterr().out
    main(["mma", "simulate", "--games", "40", "--seed", "9", "--csv"])
    assert capsys.readouterr().out == first
    assert first.splitlines()[0] == "fighter,style,fielded,won,win_rate" and len(first.splitlines()) == 16


def test_simulate_refuses_absurd_game_counts(capsys):
    assert main(["mma", "simulate", "--games", "0"]) == 2
    assert "games must be between 1 and 1,000,000; got 0" in capsys.readouterr().err
    assert main(["mma", "simulate", "--games", "99999999999"]) == 2


def test_output_that_cannot_be_written_is_one_line_error(tmp_path):
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rules", "mma", "cards"], stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert (done.returncode, done.stderr) == (1, "error: cannot write the output: No space left on device\n")
    reader = subprocess.Popen(
        [sys.executable, "-m", "rules", "andor", "simulate", "--monster", "Wolf", "--fights", "10000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # `| head -0`: the reader goes away before the tool writes
    assert reader.wait(timeout=60) == 1 and reader.stderr.read() == ""  # no traceback


def test_cards_lists_the_deck(capsys):
    assert main(["mma", "cards"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "card,kind,copies,effect" and len(lines) == 43
    assert 'Head Kick,strike,2,"4 energy · strike, 10 damage"' in lines
