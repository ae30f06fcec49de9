"""Marked for Death: continuing a battle from its own final CSVs (RULINGS 6). The final CSVs keep every
column of their input even when a side has no one left; no warning is about a fighter who fell in the
battle, while a name that was never on the side still warns, one line per kind."""

from __future__ import annotations

from rules.mfd.battle import BattleRun, continue_battle, start_battle
from rules.mfd.models import BattleState, Ending, Roster
from rules.mfd.roster import final_csv, read_roster
from tests.rules.test_mfd_engine import dragon_battle, focus_battle
from tests.rules.test_mfd_roster import HEADER

FINAL_HEADER = "Name,XP,BonusXP,BonusHP,BonusToHit,BonusToDefend,AOE,BodyguardFor,LinkedTo,HP"
BUFF_GROUP = ",BuffName,BuffWho,BuffOffense,BuffDefense"


def original_heroes_csv() -> str:
    """The Heroes.csv of the document's own program (github.com/dstorrs/mfd_combat_simulator), row for row,
    its slips included: three Narutos guard 'Jounin' and are linked to 'Prime A', three more to 'Prime B'."""
    narutos = [f"Naruto {i:02d}" for i in range(1, 21)]
    teamwork = ",".join(["Prime", *narutos])
    mori = ",".join(["Ami", "Prime", *narutos, "Kei", "Jounin A", "Jounin B", "Pangolin A", "Pangolin B"])
    guard_and_link = (
        [("Prime", "Prime")] * 5
        + [("Kei", "Prime")] * 6
        + [("Ami", "Prime")] * 3
        + [("Jounin", "Prime A")] * 3
        + [("Jounin", "Prime B")] * 3
    )
    return "\n".join(
        [
            HEADER,
            f'Ami,13993,,1,,,,,Kei,Mori,"{mori}",0.06,0.06',
            "Kei,5785,,1,,,,,,,,,",
            f'Prime,17854,,1,0.15,,,,,Teamwork,"{teamwork}",0.1,0.1',
            *(
                f'{naruto},17854,,1,0.15,,,{guard},{link},Teamwork,"{teamwork}",0.1,0.1'
                for naruto, (guard, link) in zip(narutos, guard_and_link)
            ),
            "Jounin A,17378,,1,,,,,,,,,",
            "Jounin B,17378,,1,,,,,,,,,",
            "Pangolin A,8000,,0,,,,Kei,Kei,,,,",
            "Pangolin B,8000,,0,,,,Kei,Kei,,,,",
        ]
    )


# The Villains.csv of the same program.
ORIGINAL_VILLAINS_CSV = f"""\
{HEADER}{BUFF_GROUP}
Conjura,55000,,-1,0.3,0.3,3,Summoner,Summoner,,,,,,,,
Summoner,30983,-15000,,0.1,0,,,,Teamwork,"Summoner,Mook A,Mook B",0.1,0.1,,,,
Mook A,14901,,,0.1,0,,,Summoner,Teamwork,"Summoner,Mook A,Mook B",0.1,0.1,Jutsu 1,"Conjura,Summoner,Mook A,Mook B",0.3,0.2
Mook B,14901,,,0.2,0,,,Summoner,Teamwork,"Summoner,Mook A,Mook B",0.1,0.1,Jutsu 2,"Conjura,Summoner,Mook A,Mook B",0.2,0.3"""


def original_rosters() -> tuple[Roster, Roster]:
    return (
        read_roster(original_heroes_csv(), "Heroes.csv", "Heroes"),
        read_roster(ORIGINAL_VILLAINS_CSV, "Villains.csv", "Villains"),
    )


def log_warnings(run: BattleRun) -> list[str]:
    return [line.strip() for line in run.log.splitlines() if line.strip().startswith("warning:")]


# The warnings of the original files: twelve names that were never on the side, three kinds.
ORIGINAL_WARNINGS = [
    "Heroes.csv, column 'BodyguardFor': BodyguardFor names 'Jounin', who is not in this file; ignored (6 rows: 19–24)",
    "Heroes.csv, column 'LinkedTo': LinkedTo names 'Prime A', who is not in this file; ignored (3 rows: 19–21)",
    "Heroes.csv, column 'LinkedTo': LinkedTo names 'Prime B', who is not in this file; ignored (3 rows: 22–24)",
]
# The same slips, in the heroes' final CSV after round 1 (seed 1): Naruto 05, 07 and 18 fell.
AFTER_ROUND_1_WARNINGS = [
    "Heroes-final.csv, column 'BodyguardFor': BodyguardFor names 'Jounin', who is not in this file; ignored "
    "(5 rows: 18–22)",
    "Heroes-final.csv, column 'LinkedTo': LinkedTo names 'Prime A', who is not in this file; ignored (3 rows: 18–20)",
    "Heroes-final.csv, column 'LinkedTo': LinkedTo names 'Prime B', who is not in this file; ignored (2 rows: 21–22)",
]
# After round 3 (seed 1) the heroes have won. A GM fills the villains' template with two reinforcements that
# name the fallen Summoner, Mook A and Conjura, and mistypes Summoner once.
REINFORCEMENTS = """\
Mook C,14901,,,0.1,0,,,Summoner,,Teamwork,"Summoner,Mook A,Mook C",0.1,0.1,,,,
Mook D,14901,,,0.2,0,,Mook C,Sumoner,,,,,,Jutsu 3,"Conjura,Mook C,Mook D",0.2,0.3
"""
AFTER_ROUND_3_WARNINGS = [
    "Heroes-final.csv, column 'BodyguardFor': BodyguardFor names 'Jounin', who is not in this file; ignored "
    "(5 rows: 17–21)",
    "Heroes-final.csv, column 'LinkedTo': LinkedTo names 'Prime A', who is not in this file; ignored (3 rows: 17–19)",
    "Heroes-final.csv, column 'LinkedTo': LinkedTo names 'Prime B', who is not in this file; ignored (2 rows: 20–21)",
    "Villains-final.csv, row 3, column 'LinkedTo': LinkedTo names 'Sumoner', who is not in this file; ignored",
]


def test_the_original_rosters_warn_once_per_kind():
    heroes, villains = original_rosters()
    assert (len(heroes.unknown_names), villains.unknown_names) == (12, ())
    assert [str(w) for w in heroes.warnings] == ORIGINAL_WARNINGS
    assert log_warnings(start_battle(heroes, villains, seed=1, max_rounds=1)) == [
        f"warning: {w}" for w in ORIGINAL_WARNINGS
    ]


def test_the_original_rosters_continued_from_their_final_csvs_after_one_round_warn_only_about_their_slips():
    first = start_battle(*original_rosters(), seed=1, max_rounds=1)
    heroes = read_roster(first.heroes_csv, "Heroes-final.csv", "Heroes")
    villains = read_roster(first.villains_csv, "Villains-final.csv", "Villains")
    # Read on their own, the final CSVs name someone who is not in them 69 times, 59 of them the fallen.
    fallen = {(c.side, c.name) for c in first.state.fallen}
    unknown = [(r.side, u.name) for r in (heroes, villains) for u in r.unknown_names]
    assert (len(unknown), sum(who in fallen for who in unknown)) == (69, 59)
    run = continue_battle(first.state, max_rounds=1, heroes=heroes, villains=villains)
    assert [str(w) for w in run.warnings] == AFTER_ROUND_1_WARNINGS
    assert log_warnings(run) == [f"warning: {w}" for w in AFTER_ROUND_1_WARNINGS]


def test_the_original_rosters_continued_after_three_rounds_from_the_heroes_csv_and_the_villains_template():
    first = start_battle(*original_rosters(), seed=1, max_rounds=3)
    assert (first.result.ending, first.result.last_round) == (Ending.HEROES_WIN, 3)
    # No villain is left: their final CSV is the header of their file, both buff groups and HP included.
    assert first.villains_csv == FINAL_HEADER + BUFF_GROUP * 2 + "\n"
    heroes = read_roster(first.heroes_csv, "Heroes-final.csv", "Heroes")
    villains = read_roster(first.villains_csv + REINFORCEMENTS, "Villains-final.csv", "Villains")
    run = continue_battle(first.state, max_rounds=1, heroes=heroes, villains=villains)
    assert [str(w) for w in run.warnings] == AFTER_ROUND_3_WARNINGS
    assert log_warnings(run) == [f"warning: {w}" for w in AFTER_ROUND_3_WARNINGS]


def test_a_name_that_fell_is_no_warning_a_name_never_on_the_side_or_left_out_is():
    first = start_battle(*dragon_battle(), seed=1, max_rounds=1)  # Tom falls; Dragon's Mythic names him
    unchanged = read_roster(first.heroes_csv, "Heroes-final.csv", "Heroes")
    assert [u.name for u in unchanged.unknown_names] == ["Tom"]
    run = continue_battle(first.state, max_rounds=1, heroes=unchanged)
    assert (run.warnings, log_warnings(run)) == ((), [])
    # Going on from the stored state alone (the bot's button) has nothing to warn about either.
    assert log_warnings(continue_battle(BattleState.from_json(first.state.to_json()), max_rounds=1)) == []
    typo = read_roster(
        first.heroes_csv.replace('"Dragon,Summoner,Tom"', '"Dragon,Summonr,Tom"'), "Heroes-final.csv", "Heroes"
    )
    assert [str(w) for w in continue_battle(first.state, max_rounds=1, heroes=typo).warnings] == [
        "Heroes-final.csv, row 2, column 'BuffWho': buff 'Mythic' names 'Summonr', who is not in this file; ignored"
    ]
    # Summoner stands: a file that leaves him out still warns about the names of him.
    left_out = read_roster(
        "".join(line for line in first.heroes_csv.splitlines(keepends=True) if not line.startswith("Summoner,")),
        "Heroes-final.csv",
        "Heroes",
    )
    assert [str(w) for w in continue_battle(first.state, max_rounds=1, heroes=left_out).warnings] == [
        "Heroes-final.csv, row 2, column 'BuffWho': buff 'Mythic' names 'Summoner', who is not in this file; ignored",
        "Heroes-final.csv, row 2, column 'LinkedTo': LinkedTo names 'Summoner', who is not in this file; ignored",
    ]


def test_final_csvs_keep_every_buff_group_of_their_input():
    # The Dragon battle is a draw in round 2: no one is left on either side.
    whole = start_battle(*dragon_battle(), seed=1)
    assert whole.result.ending is Ending.DRAW
    assert whole.heroes_csv == FINAL_HEADER + BUFF_GROUP + "\n"
    assert whole.villains_csv == FINAL_HEADER + "\n"  # their file had no buff group
    # The stored state keeps them too (the bot's /mfd status writes its files from it).
    stored = BattleState.from_json(whole.state.to_json())
    assert (final_csv(stored.heroes), final_csv(stored.villains)) == (whole.heroes_csv, whole.villains_csv)
    # Focus's only provider falls in round 1: Zed stands, with no buff, and the group's columns stay.
    first = start_battle(*focus_battle(), seed=1, max_rounds=1)
    assert first.villains_csv == FINAL_HEADER + BUFF_GROUP + "\nZed,10000,0,98,0.5,-0.1,1,,,85,,,,\n"
