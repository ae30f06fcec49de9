"""Marked for Death rosters: reading (every error case of RULINGS 2), warnings, derived stats,
and writing the final CSV so that it reads back as the same fighters."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleInputError
from rules.mfd import roster as roster_module
from rules.mfd.cli import load_roster
from rules.mfd.engine import RoundRecord, derived_stats, run_battle, start_stats
from rules.mfd.models import Buff, Fighter, Roster
from rules.mfd.roster import MAX_FIGHTERS, read_roster, write_roster

HEADER = "Name,XP,BonusXP,BonusHP,BonusToHit,BonusToDefend,AOE,BodyguardFor,LinkedTo,BuffName,BuffWho,BuffOffense,BuffDefense"

# The document's example with its spaces kept: RULINGS 2 accepts spaces around fields and quoted lists.
DRAGON_CSV = """\
Name          ,XP    ,BonusXP,BonusHP,BonusToHit,BonusToDefend,AOE,BodyguardFor,LinkedTo,BuffName,BuffWho              ,BuffOffense,BuffDefense
Dragon        ,13000 ,1500   ,-1     ,0.9       ,0.1          ,   ,            ,Summoner,Mythic  ,"Dragon,Summoner,Tom",0.06       ,0.02
Summoner      ,5800,-1000    ,1      ,0.15      ,             ,   ,            ,Dragon  ,        ,                     ,           ,
Tom           ,7001,         ,0      ,0.11      ,0.01         ,   ,Summoner    ,Dragon  ,Teamwork,"Tom,Summoner"   ,0.1        ,0.12
"""


def read(text: str, file: str = "Heroes.csv"):
    return read_roster(text, file, "Heroes")


def problem_of(text: str, file: str = "Heroes.csv"):
    with pytest.raises(RuleInputError) as caught:
        read(text, file)
    return caught.value.problems[0]


def test_dragon_summoner_tom_derived_stats_exactly():
    stats = {s.name: s for s in derived_stats(read(DRAGON_CSV))}
    dragon, summoner, tom = stats["Dragon"], stats["Summoner"], stats["Tom"]
    assert (dragon.hp, dragon.to_hit, dragon.to_defend, dragon.total_xp) == (1, 0.99, 0.42, 14500)
    assert (dragon.offense_dice, dragon.defense_dice, dragon.aoe) == (19, 15, 1)
    assert dragon.raw_to_hit == 1.26  # over 100%: bonus dice ceil(15 * 1.26) = 19, then capped to 99%
    assert (summoner.hp, summoner.to_hit, summoner.to_defend, summoner.total_xp) == (3, 0.61, 0.44, 4800)
    assert (summoner.offense_dice, summoner.defense_dice, summoner.aoe) == (5, 5, 1)
    assert (tom.hp, tom.to_hit, tom.to_defend, tom.total_xp) == (2, 0.57, 0.45, 7001)
    assert (tom.offense_dice, tom.defense_dice, tom.aoe) == (8, 8, 1)
    assert (tom.bodyguard_for, tom.linked_to) == ("Summoner", "Dragon")


def test_bonus_dice_and_caps_are_free_of_float_noise():
    text = f"""{HEADER}
Exact,10000,,,0.8,0.6,,,,Lift,"Exact,Noisy",0,0.1
Noisy,10000,,,0.7,0.7,,,,,,,
Low,3000,,,-0.9,-0.9,,,,,,,
"""
    stats = {s.name: s for s in derived_stats(read(text))}
    # 0.3 + 0.8 = 1.1 and 10 x 1.1 is 11 dice (in floats 11.000000000000002, which must not become 12).
    assert (stats["Exact"].offense_dice, stats["Exact"].to_hit) == (11, 0.99)
    assert (stats["Exact"].defense_dice, stats["Exact"].to_defend) == (10, 0.9)  # 0.3 + 0.6 + 0.1 = 1.0, not > 1
    # 0.3 + 0.7 is exactly 100%: not more than 100%, so no bonus dice.
    assert (stats["Noisy"].offense_dice, stats["Noisy"].defense_dice) == (10, 11)  # defense 0.3+0.7+0.1 = 1.1
    assert (stats["Low"].to_hit, stats["Low"].to_defend) == (0.05, 0.0)


def test_buffs_add_up_from_different_providers_and_blank_aoe_means_one():
    text = f"""{HEADER},BuffName,BuffWho,BuffOffense,BuffDefense
A,1000,,,,,-3,,,Cheer,"A,B",0.1,0.05,Shout,B,0.02,
B,2500,,,,,0,,,Cheer,B,0.1,0.05,,,,
"""
    stats = {s.name: s for s in derived_stats(read(text))}
    assert stats["A"].to_hit == 0.4 and stats["A"].to_defend == 0.35
    assert stats["B"].to_hit == pytest.approx(0.52) and stats["B"].to_defend == 0.4
    assert stats["A"].aoe == stats["B"].aoe == 1 and stats["B"].base_dice == 3


def test_any_totalxp_above_0_gives_at_least_one_die():
    stats = {s.name: s for s in derived_stats(read("Name,XP\nSpark,0.0000004\nOne,1000\nJust over,1000.000001\n"))}
    assert (stats["Spark"].base_dice, stats["One"].base_dice, stats["Just over"].base_dice) == (1, 1, 2)


def test_dice_counts_are_exact_not_rounded_before_rounding_up():
    # RULINGS 8: TotalXP 1000.0000001 is more than 1000, so 2 base dice (rounded to 6 decimals first it gave 1);
    # a raw ToHit of 1.0000000001 on 10 base dice is more than 100%: ceil(10.000000001) = 11 offense dice.
    text = f"""{HEADER}
Sliver,1000,0.0000001,,,,,,,,,,
Edge,10000,,,0.6999999999,,,,,Nudge,Edge,0.0000000002,
Fine,999999999,,,0.70000000000001,,,,,,,,
"""
    stats = {s.name: s for s in derived_stats(read(text))}
    assert (stats["Sliver"].total_xp, stats["Sliver"].base_dice) == (1000.0000001, 2)
    edge = stats["Edge"]
    assert (edge.base_dice, edge.raw_to_hit, edge.offense_dice, edge.defense_dice) == (10, 1.0000000001, 11, 10)
    # 14 decimal places on a million dice: past what int64 holds, Python's integers give ceil(1000000.00000001).
    assert (stats["Fine"].base_dice, stats["Fine"].offense_dice) == (1_000_000, 1_000_001)


NOISE_CSV = f"""{HEADER}
Exact,10000,,,0.8,0.6,,,,Lift,"Exact,Noisy",0,0.1
Noisy,10000,,,0.7,0.7,,Exact,,,,,
Low,3000,,,-0.9,-0.9,2,,Noisy,,,,
"""
FINE_CSV = f"""{HEADER}
Sliver,1000,0.0000001,,,,,,,,,,
Edge,10000,,,0.6999999999,,,,,Nudge,Edge,0.0000000002,
Fine,999999999,,,0.70000000000001,,3,,,,,,
"""


@pytest.mark.parametrize(
    ("heroes", "villains"),
    [(NOISE_CSV, FINE_CSV), (FINE_CSV, NOISE_CSV), (DRAGON_CSV, NOISE_CSV), (NOISE_CSV, "Name,XP\nSolo,1000\n")],
)
def test_the_first_rounds_record_gives_each_sides_derived_stats_exactly(heroes, villains):
    # The log's start rosters read their stats off the first round, where the other side's numbers set how many
    # decimal places the exact sums use (14 here against 2): the numbers must be derived_stats' own, bit for bit.
    rosters = (read_roster(heroes, "Heroes.csv", "Heroes"), read_roster(villains, "Villains.csv", "Villains"))
    records: list[RoundRecord] = []
    run_battle(*rosters, np.random.default_rng(3), max_rounds=2, observer=records.append)
    for side, roster in enumerate(rosters):
        from_record, derived = start_stats(records[0], roster, side), derived_stats(roster)
        assert [tuple(map(repr, s)) for s in from_record] == [tuple(map(repr, s)) for s in derived]


def test_a_later_rounds_record_is_not_read_for_the_start_stats():
    # Round 2 holds fewer fighters and their exhaustion: the stats come from derived_stats itself.
    def tired(side: str) -> Roster:
        return Roster(side, side, tuple(Fighter(f"{side[0]}{i:02d}", 4000, 1, bonus_to_defend=0.2) for i in range(30)))

    rosters = (tired("Heroes"), tired("Villains"))
    records: list[RoundRecord] = []
    run_battle(*rosters, np.random.default_rng(1), max_rounds=2, observer=records.append)
    assert len(records) == 2 and len(records[1].side) < 60
    for side, roster in enumerate(rosters):
        assert start_stats(records[1], roster, side) == derived_stats(roster)
        assert {s.to_defend for s in start_stats(records[1], roster, side)} == {0.5}


def test_hp_column_overrides_starting_hp_and_names_are_in_order():
    roster = read("Name,XP,BonusHP,HP\nzed,1000,3,1\nAmy,1000,-1,\nbob,1000,,\n")
    assert [(f.name, f.hp) for f in roster.fighters] == [("Amy", 1), ("bob", 2), ("zed", 1)]


def test_unknown_names_are_warnings_with_their_location():
    text = f"""{HEADER}
Alice,1000,,,,,,Nobody,Ghost,Rally,"Alice,Stranger",0.1,
Bob,1000,,,,,,Alice,Alice,,,,
"""
    roster = read(text)
    assert [str(w) for w in roster.warnings] == [
        "Heroes.csv, row 2, column 'BuffWho': buff 'Rally' names 'Stranger', who is not in this file; ignored",
        "Heroes.csv, row 2, column 'BodyguardFor': BodyguardFor names 'Nobody', who is not in this file; ignored",
        "Heroes.csv, row 2, column 'LinkedTo': LinkedTo names 'Ghost', who is not in this file; ignored",
    ]
    assert len(roster.fighters) == 2


def test_warnings_of_one_kind_are_one_line_with_the_number_of_rows():
    """A kind is one name named by one column (and buff) of the file; its rows are listed as ranges, the
    first five of them."""
    ghost_rows = {2, 3, 4, 6, 8, 10, 12, 14}
    rows = [
        f"F{row:02d},1000,,,,,,{'Ghost' if row == 5 else ''},{'Ghost' if row in ghost_rows else ''},"
        + ('Rally,"F02,Stranger",0.1,' if row in (2, 3) else ",,,")
        for row in range(2, 15)
    ]
    roster = read("\n".join([HEADER, *rows]) + "\n")
    assert len(roster.unknown_names) == 2 + 8 + 1
    assert [str(w) for w in roster.warnings] == [
        "Heroes.csv, column 'BuffWho': buff 'Rally' names 'Stranger', who is not in this file; ignored (2 rows: 2–3)",
        "Heroes.csv, column 'LinkedTo': LinkedTo names 'Ghost', who is not in this file; ignored "
        "(8 rows: 2–4, 6, 8, 10, 12, …)",
        "Heroes.csv, row 5, column 'BodyguardFor': BodyguardFor names 'Ghost', who is not in this file; ignored",
    ]


# Every error case of RULINGS 2 (and the limits): (CSV text, row, column, words of the message).
ROSTER_ERRORS = [
    ("Name,BonusXP\nA,1\n", 1, None, "missing column(s): xp"),
    ("Name,XP\nA,1000\nA,2000\n", 3, "Name", "already the name of the fighter on row 2"),
    ("Name,XP\nA,1000\n ,2000\n", 3, "Name", "is empty"),
    ("Name,XP,BonusToHit\nA,1000,lots\n", 2, "BonusToHit", "'lots' is not a number"),
    ("Name,XP,BonusToHit\nA,1000,inf\n", 2, "BonusToHit", "not a finite number"),
    ("Name,XP,BonusToDefend\nA,1000,nan\n", 2, "BonusToDefend", "not a finite number"),
    ("Name,XP,BonusXP\nA,1000,-1000\n", 2, "XP", "TotalXP (XP + BonusXP) is 0; it must be above 0"),
    ("Name,XP\nA,\n", 2, "XP", "TotalXP (XP + BonusXP) is 0"),
    ("Name,XP,BonusHP\nA,1000,-2\n", 2, "BonusHP", "starting HP (2 + BonusHP) is 0"),
    ("Name,XP,HP\nA,1000,-1\n", 2, "HP", "HP is -1; a fighter must start with more than 0 HP"),
    ("Name,XP,AOE\nA,1000,1.5\n", 2, "AOE", "'1.5' is not a whole number"),
    ("Name,XP,AOE\nA,1000,5000\n", 2, "AOE", "above the largest allowed value, 1000"),
    ("Name,XP\nA,1e12\n", 2, "XP", "above the largest allowed value"),
    (
        "Name,XP,BuffName,BuffWho,BuffOffense\nA,1000,X,A,0.1\n",
        1,
        "BuffOffense",
        "broken buff group: it ends here without BuffDefense",
    ),
    (
        "Name,XP,BuffWho,BuffName,BuffOffense,BuffDefense\nA,1000,A,X,0.1,0\n",
        1,
        "BuffWho",
        "broken buff group: 'BuffName' was expected here",
    ),
    (
        "Name,XP,BuffName,BuffWho,BuffOffense,BuffDefense\nA,1000,,,0.1,0\n",
        2,
        "BuffName",
        "broken buff group: the buff has values but no BuffName",
    ),
    (
        "Name,XP,BuffName,BuffWho,BuffOffense,BuffDefense\nA,1000,Rally,,0.1,0\n",
        2,
        "BuffWho",
        "broken buff group: buff 'Rally' names no one in BuffWho",
    ),
    (
        "Name,XP,BuffName,BuffWho,BuffOffense,BuffDefense,BuffName,BuffWho,BuffOffense,BuffDefense\n"
        "A,1000,Rally,A,0.1,0,Jutsu1,Alice,Bill,0.03\n",
        2,
        "BuffOffense #2",
        "'Bill' is not a number; a BuffWho list of several names must be inside double quotes",
    ),
    (
        f"{HEADER}\nTom,1000,,,,,,,,Jutsu1,Alice,Bill,Charlie Brown,0.06,0.03\n",
        2,
        None,
        "has 15 cells but the header has 13 columns; a BuffWho list of several names must be inside double quotes",
    ),
    ("Name,XP,Colour\nA,1000,red\n", 1, None, "unknown column 'Colour'"),
    ("Name,XP\n", None, None, "has a header but no data rows"),
    ("", None, None, "is empty"),
    ("Name,XP\n" + "x" * 101 + ",1000\n", 2, "Name", "is 101 characters long; the limit is 100"),
    ('Name,XP\n"Two\nlines",1000\n', 2, "Name", "holds a line break or another character that cannot be shown"),
]


@pytest.mark.parametrize(("text", "row", "column", "words"), ROSTER_ERRORS)
def test_each_bad_input_names_file_row_and_column(text, row, column, words):
    problem = problem_of(text, "Villains.csv")
    assert problem.file == "Villains.csv"
    assert (problem.row, problem.column) == (row, column)
    assert words in problem.message


def test_all_problems_of_a_file_are_listed_together():
    with pytest.raises(RuleInputError) as caught:
        read("Name,XP,AOE\nA,0,\nB,1000,x\nA,1000,\n")
    assert [(p.row, p.column) for p in caught.value.problems] == [(2, "XP"), (3, "AOE"), (4, "Name")]


def test_too_many_rows_is_refused_with_the_limit():
    text = "Name,XP\n" + "".join(f"f{i},1000\n" for i in range(MAX_FIGHTERS + 1))
    assert f"the limit is {MAX_FIGHTERS}" in problem_of(text).message


def test_missing_file_is_an_error_naming_it(tmp_path):
    with pytest.raises(RuleInputError) as caught:
        load_roster(str(tmp_path / "Heroes.csv"), "Heroes")
    assert caught.value.problems[0].message == "file not found"
    assert caught.value.problems[0].file == str(tmp_path / "Heroes.csv")


def test_quoted_lists_with_spaces_around_them_are_accepted():
    text = 'Name,XP,BuffName,BuffWho,BuffOffense,BuffDefense\nA,1000,Rally,   "A,B"   ,0.1,0\nB,1000,,,,\n'
    assert read(text).fighters[0].buffs == (Buff("Rally", ("A", "B"), 0.1, 0.0),)


def test_second_buff_group_columns_are_located_by_group():
    text = (
        "Name,XP,BuffName,BuffWho,BuffOffense,BuffDefense,BuffName,BuffWho,BuffOffense,BuffDefense\n"
        "A,1000,Rally,A,0.1,0,Guard,Nobody,0,0.2\n"
    )
    roster = read(text)
    assert roster.fighters[0].buffs[1] == Buff("Guard", ("Nobody",), 0.0, 0.2)
    assert roster.warnings[0].column == "BuffWho #2"


names = st.text(alphabet="abcXYZ é-'=+@", min_size=1, max_size=8).map(str.strip).filter(bool)
numbers = st.floats(min_value=-5, max_value=5, allow_nan=False) | st.sampled_from([0.1, -0.09, 1 / 3, 0.0])


@st.composite
def fighters(draw):
    chosen = draw(st.lists(names, min_size=1, max_size=6, unique=True))
    result = []
    for name in chosen:
        buffs = tuple(
            Buff(
                draw(names),
                tuple(draw(st.lists(st.sampled_from(chosen), min_size=1, max_size=3, unique=True))),
                draw(numbers),
                draw(numbers),
            )
            for _ in range(draw(st.integers(0, 2)))
        )
        result.append(
            Fighter(
                name=name,
                xp=draw(st.floats(1, 1e6)),
                hp=draw(st.floats(0.5, 10)),
                bonus_xp=0.0,
                bonus_hp=float(draw(st.integers(-1, 3))),
                bonus_to_hit=draw(numbers),
                bonus_to_defend=draw(numbers),
                aoe=draw(st.integers(1, 5)),
                bodyguard_for=draw(st.sampled_from(["", *chosen])),
                linked_to=draw(st.sampled_from(["", *chosen])),
                buffs=buffs,
            )
        )
    return result


@settings(max_examples=60, deadline=None)
@given(fighters())
def test_written_roster_reads_back_as_the_same_fighters(written):
    back = read(write_roster(written)).fighters
    assert sorted(back, key=lambda f: f.name) == sorted(written, key=lambda f: f.name)
    assert all(math.isfinite(f.hp) for f in back)


# Each column's cells that read well, and cells that are a problem there (a roster reads as valid or not).
GOOD_CELLS = {
    "xp": ["1000", "7000", "0.5", "1e3", " 3 ", "12000"],
    "bonusxp": ["", "0", "100", "-0.25"],
    "bonushp": ["", "0", "1", "-1", "0.5"],
    "bonus": ["", "0", "0.1", "-0.09", "2.5", "1e-05", "-1000"],
    "aoe": ["", "0", "1", "3", "-2", "2.0", "1000"],
    "hp": ["", "1", "2.5", "0.5", "1e9"],
    "buff": [",,,", "Rally,Ann,0.1,0", 'Rally," Ann,Bob ",,0.2', ",,,", "Rally,Nobody,0,"],
}
BAD_CELLS = {
    "xp": ["-100", "abc", "nan", "3e9"],
    "bonusxp": ["-7000", "inf"],
    "bonushp": ["-2e9", "x"],
    "bonus": ["1001", "-3000", "-inf", "nan", "1,5"],
    "aoe": ["2.5", "1001"],
    "hp": ["0", "-1", "3e9", "x"],
    "buff": ["Rally,,0.1,", ",Ann,,", "Rally,Ann,x,0"],
}


COLUMNS = ["xp", "bonusxp", "bonushp", "bonus", "bonus", "aoe", "hp", "buff"]
HEADER_WITH_HP = (
    "Name,XP,BonusXP,BonusHP,BonusToHit,BonusToDefend,AOE,BodyguardFor,LinkedTo,HP,"
    "BuffName,BuffWho,BuffOffense,BuffDefense"
)


def roster_text(rows: list[tuple[str, list[str]]]) -> str:
    """A file of (name, cells in COLUMNS' order) rows; every fighter guards Ann and is linked to Ghost."""
    lines = [f"{name},{','.join(cells[:6])},Ann,Ghost,{cells[6]},{cells[7]}" for name, cells in rows]
    return "\n".join([HEADER_WITH_HP, *lines]) + "\n"


def good_rows(count: int) -> list[tuple[str, list[str]]]:
    """Rows that read well, going through every good cell of each column."""
    return [
        (f"F{i}", [GOOD_CELLS[column][(i + c) % len(GOOD_CELLS[column])] for c, column in enumerate(COLUMNS)])
        for i in range(count)
    ]


def outcome(text: str):
    try:
        roster = read(text)
    except RuleInputError as exc:
        return exc.problems
    return repr((roster.fighters, roster.unknown_names, roster.buff_groups))  # repr: 0 and 0.0 differ


def row_by_row(text: str):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("rules.mfd.roster._valid_fighters", lambda *_: None)
        return outcome(text)


def test_a_valid_file_reads_a_column_at_a_time_as_row_by_row():
    text = roster_text(good_rows(12))
    fast = outcome(text)
    # blank numbers are 0 (an int, as row by row), every fighter references Ghost
    assert (
        isinstance(fast, str)
        and (
            "Fighter(name='F11', xp=12000.0, hp=2.5, bonus_xp=0, bonus_hp=-1.0, bonus_to_hit=0, bonus_to_defend=0.0, "
            "aoe=1, bodyguard_for='Ann', linked_to='Ghost', buffs=())"
        )
        in fast
    )
    assert fast.count("name='Ghost', named_by='LinkedTo'") == 12
    assert fast == row_by_row(text)


@pytest.mark.parametrize(("column", "bad"), [(c, bad) for c, column in enumerate(COLUMNS) for bad in BAD_CELLS[column]])
def test_a_file_with_one_bad_cell_reads_as_row_by_row(column, bad):
    rows = good_rows(3)
    rows[1][1][column] = bad  # a row without a buff (`_read_fighter` reads those)
    text = roster_text(rows)
    assert outcome(text) == row_by_row(text)
    assert isinstance(outcome(text), tuple)  # the problem, located


@pytest.mark.parametrize("name", ["", "F0", "Dee\tx", "x" * 101])
def test_a_file_with_one_bad_name_reads_as_row_by_row(name):
    rows = good_rows(3)
    rows[1] = (name, rows[1][1])  # a row without a buff (`_read_fighter` reads those)
    text = roster_text(rows)
    assert outcome(text) == row_by_row(text)
    assert isinstance(outcome(text), tuple)


@pytest.mark.parametrize(
    "text",
    [
        DRAGON_CSV,  # spaces around cells, a quoted BuffWho, blank numbers
        "\ufeffName,XP,HP\r\nAnn,1000,2.5\r\nBob,2000\r\n",  # byte-order mark, CRLF, a short row
        "Name,XP,AOE,,\nAnn,1000,2,,\nBob,2000,,,\n",  # an unnamed column
        "Name,XP\nAnn,1000,,\n\nBob,2000\n",  # blank extra cells and a blank line
        "Name,XP,BuffName,BuffWho,BuffOffense,BuffDefense,BuffName,BuffWho,BuffOffense,BuffDefense\n"
        'Ann,1000,,,,,Guard,Bob,0,0.2\nBob,2000,Rally,"Ann,Nobody",0.1,\n',  # two buff groups
        "Name,XP\n'=Ann,1000\n",  # an apostrophe: read by read_csv
    ],
)
def test_files_of_every_shape_read_as_row_by_row(text):
    """Unnamed columns and apostrophes go to read_csv; the other shapes are read a column at a time."""
    assert outcome(text) == row_by_row(text)
    assert isinstance(outcome(text), str)
    read_by_column = []
    valid_fighters = roster_module._valid_fighters
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(roster_module, "_valid_fighters", lambda *args: read_by_column.append(valid_fighters(*args)))
        read(text)  # (the spy returns None: the file is then read row by row as well)
    assert (read_by_column != [] and read_by_column[0] is not None) == (
        "'" not in text and ",," not in text.splitlines()[0]
    )
