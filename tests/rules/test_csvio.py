"""The shared CSV reader (a quote left open is an error at the row where it opens, in every game's reader) and
writer (no cell a spreadsheet would run as a formula, and every cell reads back as it was)."""

import csv as stdlib_csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.andor.bestiary import parse_monsters
from rules.bossfight.parsing import parse_bosses, parse_deck
from rules.csvio import formula_safe, formula_safe_csv, from_formula_safe, read_csv, write_csv
from rules.deck.cards import read_deck_csv
from rules.errors import RuleInputError
from rules.mfd.roster import read_roster

UNCLOSED = 'has a quote (") that opens here and is never closed; close it, or remove it'

BOSSFIGHT_VALUES = "Fire,500,300,N,Y,0,N,N"
BOSSFIGHT_TAIL = (
    "element,health,physical_damage,physical_penetration,physical_resistance,"
    "magical_damage,magical_penetration,magical_resistance"
)

# Each reader, a file whose second data row (spreadsheet row 3) opens a quote it never closes, and rows
# after it that a lenient reader would swallow into that one cell.
READERS = {
    "bossfight deck": (
        parse_deck,
        f'token,trait,{BOSSFIGHT_TAIL}\nFox,Bite,{BOSSFIGHT_VALUES}\n"Blade,Cut,{BOSSFIGHT_VALUES}\n'
        f"Owl,Hoot,{BOSSFIGHT_VALUES}\n",
    ),
    "bossfight bosses": (
        parse_bosses,
        f'name,level,{BOSSFIGHT_TAIL}\nWyrm,3,{BOSSFIGHT_VALUES}\n"Ogre,4,{BOSSFIGHT_VALUES}\n'
        f"Imp,1,{BOSSFIGHT_VALUES}\n",
    ),
    "mfd roster": (
        lambda text, file: read_roster(text, file, "Heroes"),
        "Name,XP,BonusXP,BonusHP,BonusToHit,BonusToDefend,AOE,BodyguardFor,LinkedTo\n"
        'Rin,6000,0,0,0,0,1,,\n"Kaito,5000,0,0,0,0,1,,\nSora,4000,0,0,0,0,1,,\n',
    ),
    "andor monsters": (
        parse_monsters,
        "name,hp,ap,attack_cost,attack_chance,damage_min,damage_max,block_chance,xp\n"
        'Cave bat,6,10,3,70,1,2,25,8\n"Bandit,40,10,5,95,2,8,20,60\nWolf,30,10,4,80,2,6,10,40\n',
    ),
    "deck cards": (
        read_deck_csv,
        'atk,def,copies\n1,1,2\n"2,2,2\n' + "".join(f"{a},{a},2\n" for a in range(3, 17)),
    ),
}


@pytest.mark.parametrize("reader", READERS)
def test_every_reader_refuses_a_quote_that_is_never_closed_at_the_row_it_opens(reader):
    parse, text = READERS[reader]
    with pytest.raises(RuleInputError) as raised:
        parse(text, "mine.csv")
    assert str(raised.value) == f"mine.csv, row 3: {UNCLOSED}"


def test_a_quote_left_open_in_the_header_names_row_1():
    with pytest.raises(RuleInputError) as raised:
        read_csv('name,"level\nWyrm,3\n', "bosses.csv", required=["name", "level"])
    assert str(raised.value) == f"bosses.csv, row 1: {UNCLOSED}"


def test_a_quote_left_open_at_the_very_end_names_its_row():
    with pytest.raises(RuleInputError) as raised:
        read_csv('name,level\nWyrm,3\nOgre,"4', "bosses.csv", required=["name", "level"])
    assert str(raised.value) == f"bosses.csv, row 3: {UNCLOSED}"


def test_closed_quotes_still_read_across_lines_and_commas():
    table = read_csv(
        'name,who\n"Captain, the first","Rin,\nKaito"\nSora,"Jiro"',
        "roster.csv",
        required=["name", "who"],
    )
    # rows as a spreadsheet numbers them: the cell with a line break is one row
    assert [(row.line, row.text("name"), row.text("who")) for row in table.rows] == [
        (2, "Captain, the first", "Rin,\nKaito"),
        (3, "Sora", "Jiro"),
    ]


def test_a_stray_quote_inside_a_cell_is_still_read_as_written():
    # A 5" blade: a quote that does not open a cell is text, as before.
    table = read_csv('name,level\nBlade 5",3\n', "bosses.csv", required=["name", "level"])
    assert [row.text("name") for row in table.rows] == ['Blade 5"']


# --- writing: no cell a spreadsheet would run as a formula (CSV injection) ------------------------------------


def formulas(data: bytes | str) -> list[str]:
    """The cells of a CSV file that a spreadsheet would run as formulas (a file Arena writes has none)."""
    text = data.decode() if isinstance(data, bytes) else data
    cells = [cell for record in stdlib_csv.reader(io.StringIO(text, newline="")) for cell in record]
    return [cell for cell in cells if cell[:1] and cell[0] in "=+-@\t\r" and not is_number(cell)]


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


FORMULAS = ['=HYPERLINK("http://x","y")', "@SUM(1)", "+1+cmd|' /C calc'!A0", "-2+3", "\tTab", "\rReturn"]


@pytest.mark.parametrize("name", FORMULAS)
def test_a_text_cell_that_starts_a_formula_is_written_with_a_leading_apostrophe(name):
    written = write_csv(["Name", "XP"], [[name, 5]])
    (cells,) = list(stdlib_csv.reader(io.StringIO(written, newline="")))[1:]
    assert cells == ["'" + name, "5"]
    unsafe = io.StringIO()
    stdlib_csv.writer(unsafe).writerow([name])  # as a writer that does not neutralize would
    assert formulas(written) == [] and formulas(unsafe.getvalue()) == [name]
    assert read_csv(written, "out.csv", required=["name", "xp"]).rows[0].cells["name"] == name.strip()


def test_numbers_stay_numbers_negative_ones_included():
    written = write_csv(["a", "b", "c", "d", "e"], [[-3, -2.5, "-7", "-1e+20", "-0.25"]])
    assert written == "a,b,c,d,e\n-3,-2.5,-7,-1e+20,-0.25\n"


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("Bob", "Bob"),
        ("'Tis", "'Tis"),  # an apostrophe of the name's own, before no formula: left alone
        ("'=x", "''=x"),  # looks neutralized already: one more, so reading takes exactly one off
        ("''+x", "'''+x"),
        ("'-5", "''-5"),
        ("'", "'"),
        ("-", "'-"),
        ("a=b", "a=b"),
    ],
)
def test_apostrophes_round_trip_exactly(name, written):
    assert formula_safe(name) == written
    assert from_formula_safe(written) == name
    table = read_csv(write_csv(["Name"], [[name]]), "out.csv", required=["name"])
    assert table.rows[0].cells["name"] == name


@given(st.text(alphabet="ab'=+-@1. \t\r\n,\"", max_size=8))
def test_every_cell_reads_back_as_it_was_written(cell):
    assert from_formula_safe(formula_safe(cell)) == cell
    (record,) = stdlib_csv.reader(io.StringIO(write_csv([cell, "n"], []), newline=""))
    assert record == [formula_safe(cell), "n"]
    assert formula_safe(cell)[:1] not in "=+@\t\r" or cell == ""
    assert not formula_safe(cell).startswith("-") or float(cell) <= 0


def test_headers_are_neutralized_and_read_back_too():
    written = write_csv(["=Name"], [["x"]])
    assert written.startswith("'=Name\n")
    assert read_csv(written, "out.csv", required=["=name"]).headers == ("=Name",)


def test_a_users_file_handed_back_is_left_as_it_is_unless_a_cell_would_run():
    text = "\ufefftoken , trait\nFox,  Bite\n'=already,safe\n"
    assert formula_safe_csv(text, "deck.csv") is text
    hostile = 'token,trait\n"=HYPERLINK(""http://x"",""y"")","Bite,\nhard"\n\n@SUM(1),-2\n'
    safe = formula_safe_csv(hostile, "deck.csv")
    assert safe == """token,trait\n"'=HYPERLINK(""http://x"",""y"")","Bite,\nhard"\n\n'@SUM(1),-2\n"""
    # both read as the same table, row numbers included
    before, after = (read_csv(t, "deck.csv", required=["token", "trait"]).rows for t in (hostile, safe))
    assert [(r.line, r.cells) for r in after] == [(r.line, r.cells) for r in before]
