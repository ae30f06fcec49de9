"""The shared CSV reader: a quote left open is an error at the row where it opens, in every game's reader."""

import pytest

from rules.andor.bestiary import parse_monsters
from rules.bossfight.parsing import parse_bosses, parse_deck
from rules.csvio import read_csv
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
