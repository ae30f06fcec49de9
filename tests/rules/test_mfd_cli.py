"""`python -m rules mfd`: files written, a summary printed (the log with --log), errors as `error: ...` with
exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.__main__ import main
from rules.mfd.battle import start_battle
from rules.mfd.cli import joined, path_text
from rules.mfd.log import describe_outcome
from rules.mfd.roster import read_roster

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mfd"


def test_battle_writes_the_log_and_final_csvs_and_prints_a_summary_and_the_paths(tmp_path, capsys):
    args = [
        "mfd",
        "--heroes",
        str(EXAMPLES / "Heroes.csv"),
        "--villains",
        str(EXAMPLES / "Villains.csv"),
        "--seed",
        "11",
        "-m",
        "2",
        "--out",
        str(tmp_path),
    ]
    assert main(args) == 0
    printed = capsys.readouterr().out
    log = (tmp_path / "BattleLog.txt").read_text()
    assert "Round 2" in log and "Round 3" not in log
    # issue 24: the whole log went to the terminal too; now a summary, the paths and the exhaustion note
    run = start_battle(
        read_roster((EXAMPLES / "Heroes.csv").read_text(), "Heroes.csv", "Heroes"),
        read_roster((EXAMPLES / "Villains.csv").read_text(), "Villains.csv", "Villains"),
        seed=11,
        max_rounds=2,
    )
    fallen = [sum(1 for c in run.result.fallen if c.side == side) for side in ("Heroes", "Villains")]
    assert printed == (
        "Marked for Death, seed 11: 2 rounds fought.\n"
        f"The end: {describe_outcome(run.result)}\n"
        f"Standing: Heroes {len(run.result.heroes.fighters)}, Villains {len(run.result.villains.fighters)}; "
        f"fallen: Heroes {fallen[0]}, Villains {fallen[1]}.\n"
        f"Wrote {tmp_path / 'BattleLog.txt'} (every attack), {tmp_path / 'Heroes-final.csv'} and "
        f"{tmp_path / 'Villains-final.csv'}.\n"
        "BonusToDefend in the final CSVs includes the exhaustion so far: 0.1 lower for every round a fighter "
        "survived (0.1 becomes -0.2 after 3 rounds). Fighting on from them keeps everyone as tired as they are; "
        "raise it back to rest a fighter.\n"
    )
    assert main([*args, "--log"]) == 0  # the whole log, as the original tool printed it
    assert capsys.readouterr().out.startswith(log + "\nWrote ")
    heroes = read_roster((tmp_path / "Heroes-final.csv").read_text(), "Heroes-final.csv", "Heroes")
    assert heroes.fighters and all(f.hp > 0 for f in heroes.fighters)
    # The final CSVs are valid input: the battle goes on from them.
    again = [
        "mfd",
        "--heroes",
        str(tmp_path / "Heroes-final.csv"),
        "--villains",
        str(tmp_path / "Villains-final.csv"),
        "--seed",
        "3",
        "--out",
        str(tmp_path / "next"),
    ]
    assert main(again) == 0
    assert "The end:" in (tmp_path / "next" / "BattleLog.txt").read_text()


def test_shipped_examples_have_no_warnings_and_use_every_mechanic():
    heroes = read_roster((EXAMPLES / "Heroes.csv").read_text(), "Heroes.csv", "Heroes")
    villains = read_roster((EXAMPLES / "Villains.csv").read_text(), "Villains.csv", "Villains")
    assert heroes.warnings == villains.warnings == ()
    for roster in (heroes, villains):
        assert any(f.bodyguard_for for f in roster.fighters)
        assert any(f.linked_to for f in roster.fighters)
        assert any(f.buffs for f in roster.fighters)


def test_odds_are_printed(capsys):
    args = [
        "mfd",
        "--heroes",
        str(EXAMPLES / "Heroes.csv"),
        "--villains",
        str(EXAMPLES / "Villains.csv"),
        "--seed",
        "1",
        "--odds",
        "200",
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("200 battles (seed 1)") and "Heroes win:" in out and "Captain Hayate:" in out


def test_bad_input_is_an_error_line_and_exit_code_2(tmp_path, capsys):
    (tmp_path / "H.csv").write_text("Name,XP\nA,1000\nA,1000\n")
    assert main(["mfd", "--heroes", str(tmp_path / "H.csv"), "--villains", str(tmp_path / "V.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: H.csv, row 3, column 'Name': 'A' is already the name")
    (tmp_path / "V.csv").write_text("Name,XP,LinkedTo\nB,1000,Nobody\n")
    assert main(["mfd", "--heroes", str(tmp_path / "V.csv"), "--villains", str(tmp_path / "X.csv")]) == 2
    assert "X.csv: file not found" in capsys.readouterr().err
    assert (
        main(
            [
                "mfd",
                "--heroes",
                str(tmp_path / "V.csv"),
                "--villains",
                str(tmp_path / "V.csv"),
                "--out",
                str(tmp_path / "o"),
                "--seed",
                "1",
            ]
        )
        == 0
    )
    assert "warning: V.csv, row 2, column 'LinkedTo': LinkedTo names 'Nobody'" in capsys.readouterr().err


def test_a_bad_seed_or_output_folder_is_an_error_not_a_traceback(tmp_path, capsys):
    rosters = ["--heroes", str(EXAMPLES / "Heroes.csv"), "--villains", str(EXAMPLES / "Villains.csv")]
    with pytest.raises(SystemExit) as stopped:
        main(["mfd", *rosters, "--seed", "-1"])
    assert stopped.value.code == 2
    assert "argument --seed: '-1' is not a seed: give a whole number from 0 to 2,147,483,647" in capsys.readouterr().err
    for game in (["mma", "simulate"], ["andor", "simulate", "--monster", "Wolf"], ["deck", "random"]):  # one rule
        with pytest.raises(SystemExit):
            main([*game, "--seed", "2147483648"])
        assert "argument --seed: '2147483648' is not a seed" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["mfd", *rosters, "--out", str(blocker)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {blocker}: cannot be used as the output folder")
    assert not (tmp_path / "BattleLog.txt").exists()


def test_the_final_csvs_written_neutralize_formulas_and_read_back_as_the_same_names(tmp_path):
    from tests.rules.test_csvio import formulas

    heroes = tmp_path / "Heroes.csv"
    heroes.write_text("Name,XP,HP\n@SUM(1),5000,1000000\n-2+3,5000,1000000\n'Tis,5000,1000000\n")
    villains = tmp_path / "Villains.csv"
    villains.write_text('Name,XP,HP\n"=HYPERLINK(""http://x"",""y"")",5000,1000000\n')
    args = ["mfd", "--heroes", str(heroes), "--villains", str(villains), "--seed", "1", "-m", "1"]
    assert main([*args, "--out", str(tmp_path)]) == 0
    for side, names in (("Heroes", ["'Tis", "-2+3", "@SUM(1)"]), ("Villains", ['=HYPERLINK("http://x","y")'])):
        written = (tmp_path / f"{side}-final.csv").read_text()
        assert formulas(written) == []
        assert sorted(f.name for f in read_roster(written, f"{side}-final.csv", side).fighters) == names


@given(st.text(alphabet="/.aé ", max_size=12))
def test_paths_are_written_as_pathlib_writes_them(path):
    # The command line prints its paths without importing pathlib: the same text, whatever the user typed.
    assert path_text(path) == str(Path(path))
    assert joined(path_text(path), "BattleLog.txt") == str(Path(path) / "BattleLog.txt")


@pytest.mark.parametrize("columns", [None, "", "wide", "0", "-3", "57"])
@pytest.mark.parametrize("terminal", [(120, 40), (0, 0), OSError])
def test_the_terminal_is_measured_as_shutil_measures_it(columns, terminal, monkeypatch):
    # argparse's help is laid out at the width shutil would give, without importing shutil
    import os
    import shutil

    from rules.__main__ import terminal_width

    def size(fd: int) -> os.terminal_size:
        if terminal is OSError:
            raise OSError("not a terminal")
        return os.terminal_size(terminal)

    monkeypatch.setattr(os, "get_terminal_size", size)
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.delenv("LINES", raising=False)
    from_terminal = 120 if terminal == (120, 40) else 80  # a terminal of no width, or none: 80
    assert terminal_width() == shutil.get_terminal_size().columns == (57 if columns == "57" else from_terminal)


def test_a_battle_from_the_command_line_imports_neither_shutil_nor_pathlib(tmp_path):
    import subprocess
    import sys

    script = (
        "import sys\nfrom rules.__main__ import main\ncode = main(sys.argv[1:])\n"
        "print(sorted({'shutil', 'pathlib'} & sys.modules.keys()))\n"
    )
    rosters = ["--heroes", str(EXAMPLES / "Heroes.csv"), "--villains", str(EXAMPLES / "Villains.csv")]
    done = subprocess.run(
        [sys.executable, "-c", script, "mfd", *rosters, "-m", "1", "--seed", "1", "--out", str(tmp_path)],
        cwd=EXAMPLES.parents[1],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stderr == "" and done.stdout.endswith("\n[]\n")


def test_the_output_folder_is_named_as_typed_less_its_dots_and_extra_slashes(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rosters = ["--heroes", str(EXAMPLES / "Heroes.csv"), "--villains", str(EXAMPLES / "Villains.csv"), "-m", "1"]
    assert main(["mfd", *rosters, "--out", ".//runs/./one/"]) == 0
    assert "Wrote runs/one/BattleLog.txt (every attack), runs/one/Heroes-final.csv and " in capsys.readouterr().out
    assert (tmp_path / "runs" / "one" / "Villains-final.csv").is_file()
    assert main(["mfd", *rosters]) == 0
    assert "Wrote BattleLog.txt (every attack), Heroes-final.csv and Villains-final.csv." in capsys.readouterr().out
