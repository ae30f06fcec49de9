"""Andor's Trail bestiary: the built-in figures of RULINGS 4 and validated GM uploads."""

from __future__ import annotations

import pytest

from rules.andor.bestiary import MAX_UPLOAD_ROWS, builtin_monsters, find_monster, merged, parse_monsters
from rules.andor.models import Monster
from rules.errors import RuleInputError

HEADER = "name,hp,ap,attack_cost,attack_chance,damage_min,damage_max,block_chance,xp"


def test_the_built_in_bestiary_holds_the_rulings_figures():
    book = {m.name: m for m in builtin_monsters()}
    assert list(book) == [
        "Tiny rat",
        "Cave snake",
        "Wolf",
        "Gargoyle",
        "Snake master",
        "Giant dungfly",
        "Snappy cave lizard",
        "Maelveon",
        "Tainted zombie",
        "Aggressive bear",
        "Queen lava entity",
    ]
    assert book["Wolf"] == Monster(
        name="Wolf",
        hp=30,
        ap=10,
        attack_cost=5,
        attack_chance=110,
        damage_min=3,
        damage_max=6,
        crit_chance=0,
        crit_multiplier=1.5,
        block_chance=30,
        damage_resistance=0,
        xp=49,
    )
    queen = book["Queen lava entity"]
    assert (queen.hp, queen.attack_cost, queen.attack_chance, queen.damage_min, queen.damage_max) == (
        490,
        6,
        170,
        35,
        45,
    )
    assert (queen.block_chance, queen.damage_resistance, queen.xp) == (270, 16, 1513)
    snake = book["Snake master"]
    assert (snake.crit_chance, snake.crit_multiplier, snake.damage_resistance) == (58, 3.0, 4)


def test_an_upload_with_optional_columns_left_out():
    monsters = parse_monsters(f"{HEADER}\nImp,8,10,5,70,1,3,5,12\n", "imps.csv")
    assert monsters == [
        Monster(
            name="Imp",
            hp=8,
            ap=10,
            attack_cost=5,
            attack_chance=70,
            damage_min=1,
            damage_max=3,
            block_chance=5,
            xp=12,
            crit_chance=0,
            crit_multiplier=1.5,
            damage_resistance=0,
        )
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        (f"{HEADER}\nImp,0,10,5,70,1,3,5,12\n", "m.csv, row 2, column 'hp': 0 is below the smallest allowed value, 1"),
        (f"{HEADER}\nImp,8,10,5,70,4,3,5,12\n", "m.csv, row 2, column 'damage_min': 4 is above damage_max 3"),
        (f"{HEADER}\nImp,8,4,5,70,1,3,5,12\n", "m.csv, row 2, column 'attack_cost': 5 is above ap 4"),
        (
            f"{HEADER}\nImp,8,10,5,70,1,3,5,12\n\nimp,8,10,5,70,1,3,5,12\n",
            "m.csv, row 4, column 'name': 'imp' is already on row 2",
        ),
        (f"{HEADER}\n,8,10,5,70,1,3,5,12\n", "m.csv, row 2, column 'name': a monster needs a name"),
        (
            f"{HEADER}\nyou,8,10,5,70,1,3,5,12\n",
            "m.csv, row 2, column 'name': 'you' is how a fight's feed names the player; give the monster another name",
        ),
        (
            f"{HEADER},crit_multiplier\nImp,8,10,5,70,1,3,5,12,1.333\n",
            "row 2, column 'crit_multiplier': 1.333 has more than 2 decimals",
        ),
        (f"{HEADER},speed\nImp,8,10,5,70,1,3,5,12,3\n", "m.csv, row 1: unknown column 'speed'"),
        ("name,hp\nImp,8\n", "m.csv, row 1: missing column(s): ap, attack_cost"),
        (f"{HEADER}\nImp,8,10,5.5,70,1,3,5,12\n", "column 'attack_cost': '5.5' is not a whole number"),
        (
            f"{HEADER}\n" + "".join(f"Imp{i},8,10,5,70,1,3,5,12\n" for i in range(MAX_UPLOAD_ROWS + 1)),
            "the limit is 200",
        ),
    ],
)
def test_upload_mistakes_name_the_row_and_column(text, message):
    with pytest.raises(RuleInputError) as caught:
        parse_monsters(text, "m.csv")
    assert message in str(caught.value)


def test_guild_monsters_join_and_override_the_built_in_ones():
    (imp,) = parse_monsters(f"{HEADER}\nImp,8,10,5,70,1,3,5,12\n", "m.csv")
    (wolf,) = parse_monsters(f"{HEADER}\nwolf,99,10,5,70,1,3,5,12\n", "m.csv")
    book = merged([imp, wolf])
    assert find_monster(book, "  IMP ") == imp
    assert find_monster(book, "Wolf").hp == 99
    assert len(book) == len(builtin_monsters()) + 1
    with pytest.raises(RuleInputError, match="no monster called 'Wolff'; did you mean wolf"):
        find_monster(book, "Wolff")
    assert find_monster(book, "queen").name == "Queen lava entity"  # the only name containing it
    with pytest.raises(RuleInputError, match="no monster called 'snake'; did you mean Cave snake, Snake master"):
        find_monster(book, "snake")


def test_the_example_upload_parses():
    from pathlib import Path

    path = Path(__file__).parents[2] / "examples" / "andor" / "monsters.csv"
    monsters = parse_monsters(path.read_text(encoding="utf-8"), path.name)
    assert [m.name for m in monsters] == ["Cave bat", "Bandit", "Stone golem"]
    assert monsters[1].crit_multiplier == 1.5 and monsters[2].damage_resistance == 8


def test_an_upload_may_give_loot_and_mark_monsters_aggressive():
    text = f"{HEADER},gold_min,gold_max,aggressive\nImp,8,10,5,70,1,3,5,12,2,9,Y\nBat,4,10,5,70,1,3,5,12,,,n\n"
    imp, bat = parse_monsters(text, "m.csv")
    assert (imp.gold_range, imp.aggressive) == ((2, 9), True)
    assert (bat.gold_range, bat.aggressive) == ((0, 6), False)  # blank: the built-in 0 to floor(XP / 2)


@pytest.mark.parametrize(
    "row, problem",
    [
        (
            "Imp,8,10,5,70,1,3,5,12,2,,N",
            "m.csv, row 2, column 'gold_max': is empty; give both gold_min and gold_max, or neither",
        ),
        ("Imp,8,10,5,70,1,3,5,12,9,2,N", "m.csv, row 2, column 'gold_min': 9 is above gold_max 2"),
        ("Imp,8,10,5,70,1,3,5,12,1,2,maybe", "m.csv, row 2, column 'aggressive': 'maybe' is not a yes/no flag"),
    ],
)
def test_loot_and_aggressive_mistakes_name_the_row_and_column(row, problem):
    with pytest.raises(RuleInputError) as caught:
        parse_monsters(f"{HEADER},gold_min,gold_max,aggressive\n{row}\n", "m.csv")
    assert str(caught.value).startswith(problem)
