"""Boss raid engine: the RULINGS 1 checks as exact values, and every CSV mistake located."""

import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.__main__ import main as rules_main
from rules.bossfight import (
    BUILTIN_BOSSES,
    Boss,
    boss_element_modifier,
    calculate_attack,
    damage_to_deck,
    find_boss,
    guild_roster,
    parse_bosses,
    parse_deck,
    pen_res_modifier,
    player_element_modifier,
)
from rules.bossfight.parsing import BOSS_COLUMNS, DECK_COLUMNS
from rules.bossfight.raid import RaidPlayer, attack_refusal, cooldown_left, duration_text
from rules.bossfight.report import format_breakdown, format_modifier
from rules.errors import RuleInputError

HEADER = ",".join(DECK_COLUMNS)


def deck_csv(*rows: str) -> str:
    return "\n".join([HEADER, *rows]) + "\n"


def boss(**overrides) -> Boss:
    fields = {
        "name": "Test Boss",
        "level": 1,
        "element": "None",
        "health": 1000,
        "physical_damage": 0,
        "physical_penetration": False,
        "physical_resistance": False,
        "magical_damage": 0,
        "magical_penetration": False,
        "magical_resistance": False,
    }
    return Boss(**(fields | overrides))


# --- RULINGS 1, check 1: elements -------------------------------------------------------------------------


def test_element_check_boss_water_against_each_token_element():
    tokens = ["Fire", "Air", "None", "Water", "Earth"]
    assert [boss_element_modifier("Water", t) for t in tokens] == [0.5, 1, 1, 0, 2]
    assert [player_element_modifier(t, "Water") for t in tokens] == [2, 1, 1, 0, 0.5]


def test_element_check_through_a_whole_attack():
    rows = [f"T{i},trait,{e},100,0,N,N,100,N,N" for i, e in enumerate(["Fire", "Air", "None", "Water", "Earth"])]
    result = calculate_attack(boss(element="Water"), parse_deck(deck_csv(*rows)))
    assert [t.boss_element_modifier for t in result.tokens] == [0.5, 1, 1, 0, 2]
    assert [t.player_element_modifier for t in result.tokens] == [2, 1, 1, 0, 0.5]
    assert [t.damage_dealt for t in result.tokens] == [50, 100, 100, 0, 200]
    # One token of the boss's own element makes the deck immune to magic.
    assert result.deck_element_modifier == 0


# --- RULINGS 1, check 2: penetration / resistance ------------------------------------------------------------

PEN_RES_ROWS = {  # phys pen, phys res, mag pen, mag res
    "V": "N,N,N,N",
    "Assassin": "N,Y,Y,N",
    "Elixir": "N,Y,N,N",
    "Epic": "Y,Y,N,Y",
    "Fair": "N,N,N,N",
}


def pen_res_deck_csv() -> str:
    rows = []
    for trait, flags in PEN_RES_ROWS.items():
        pp, pr, mp, mr = flags.split(",")
        rows.append(f"TOKEN1,{trait},None,100,0,{pp},{pr},0,{mp},{mr}")
    return deck_csv(*rows)


def test_pen_res_check_per_trait_and_stacked():
    result = calculate_attack(boss(name="Inu Dogemon"), parse_deck(pen_res_deck_csv()))
    assert [t.physical for t in result.traits] == [1, 0.5, 0.5, 0.5, 1]
    assert [t.magical for t in result.traits] == [1, 1, 1, 0.5, 1]
    assert result.deck_physical_modifier == 0.125
    assert result.deck_magical_modifier == 0.5


def test_pen_res_modifier_is_half_only_for_resistance_without_penetration():
    assert pen_res_modifier(True, False) == 0.5
    assert pen_res_modifier(True, True) == 1
    assert pen_res_modifier(False, False) == 1
    assert pen_res_modifier(False, True) == 1


def test_boss_side_uses_one_modifier_per_token_and_any_row_penetrates():
    # The boss resists both kinds; the token penetrates physically on one of its two rows only.
    deck = parse_deck(deck_csv("A,one,None,10,100,Y,N,100,N,N", "A,two,None,10,100,N,N,100,N,N"))
    result = calculate_attack(boss(physical_resistance=True, magical_resistance=True), deck)
    (token,) = result.tokens
    assert (token.boss_physical_modifier, token.boss_magical_modifier) == (1, 0.5)
    assert result.damage_to_boss == 200 * 1 + 200 * 0.5


def test_element_modifier_is_flattened_to_trait_rows():
    # Axieom Asmodeus (Water) against five Fire rows of one token: 2 ** 5 = 32, as in docs/rules/bossfight.md.
    asmodeus = find_boss(guild_roster(()), "Axieom Asmodeus")
    deck = parse_deck(deck_csv(*[f"TOKEN1,{t},Fire,100,0,N,N,0,N,N" for t in PEN_RES_ROWS]))
    assert calculate_attack(asmodeus, deck).deck_element_modifier == 32


# --- RULINGS 1, check 3: the outcome -------------------------------------------------------------------------


def test_outcome_check_damage_and_leftover():
    two_thousand = boss(physical_damage=2000, magical_damage=0)
    damage = damage_to_deck(two_thousand, 0.001953125, 0.0078125, 1)
    assert damage == 3.90625
    assert 11800 - damage == 11796.09375


def test_outcome_check_through_a_deck_with_those_modifiers():
    # 9 rows resisting physical (0.5 ** 9) of which 7 also resist magic (0.5 ** 7), 11800 health in all.
    rows = [f"T,r{i},None,1000,0,N,Y,0,N,{'Y' if i < 7 else 'N'}" for i in range(9)]
    rows.append("U,big,None,2800,0,N,N,0,N,N")
    result = calculate_attack(boss(physical_damage=2000, health=1000), parse_deck(deck_csv(*rows)))
    assert (result.deck_physical_modifier, result.deck_magical_modifier, result.deck_element_modifier) == (
        0.001953125,
        0.0078125,
        1,
    )
    assert result.damage_to_deck == 3.90625
    assert result.deck_hp_after == 11796.09375
    assert result.deck_survives


def test_boss_outcome_table_of_the_document():
    # Five tokens, every modifier 1: physical 0/1000/0/500/1000 and magical 0/500/0/0/1000, summed as they are.
    rows = [
        "T1,a,None,100,0,N,N,0,N,N",
        "T2,a,None,100,1000,N,N,500,N,N",
        "T3,a,None,100,0,N,N,0,N,N",
        "T4,a,None,100,500,N,N,0,N,N",
        "T5,a,None,100,1000,N,N,1000,N,N",
    ]
    result = calculate_attack(boss(health=1000.0), parse_deck(deck_csv(*rows)))
    assert sum(t.physical_dealt for t in result.tokens) == 2500
    assert sum(t.magical_dealt for t in result.tokens) == 1500
    assert result.damage_to_boss == 4000
    assert result.boss_hp_after == 0 and result.boss_defeated


def test_current_hp_is_the_starting_point():
    deck = parse_deck(deck_csv("A,a,None,10,300,N,N,0,N,N"))
    result = calculate_attack(boss(health=1000), deck, boss_hp=400)
    assert (result.boss_hp_before, result.boss_hp_after) == (400, 100)


# --- the built-in roster ----------------------------------------------------------------------------------

# --- RULINGS 6: HP and damage compared after rounding to 6 decimals -------------------------------------


def test_three_decimal_attacks_fell_a_1000_hp_boss():
    hp = 1000.0
    results = []
    for damage in (333.3, 333.3, 333.4):
        result = calculate_attack(boss(), parse_deck(deck_csv(f"Fox,Bite,None,10,{damage},N,N,0,N,N")), hp)
        hp = result.boss_hp_after
        results.append((result.damage_to_boss, hp, result.boss_defeated))
    # Unrounded, 1000 - 333.3 - 333.3 - 333.4 leaves 5.7e-14: a "0/1000" boss still alive.
    assert results == [(333.3, 666.7, False), (333.3, 333.4, False), (333.4, 0.0, True)]


def test_one_attack_whose_token_damages_add_up_to_the_boss_hp_in_decimals_fells_it():
    deck = parse_deck(deck_csv(*(f"T{i},Bite,None,10,{d},N,N,0,N,N" for i, d in enumerate((200.7, 311.4, 487.9)))))
    result = calculate_attack(boss(), deck)
    # Added as floats the three come to 999.9999999999999, which leaves 1.1e-13 HP unrounded.
    assert result.damage_to_boss == 999.9999999999999
    assert (result.boss_hp_after, result.boss_defeated) == (0.0, True)


def test_a_deck_left_with_float_noise_is_knocked_out_at_exactly_0():
    # 0.1 + 0.2 health against 0.3 damage leaves 5.6e-17 unrounded: the deck would survive on noise.
    deck = parse_deck(deck_csv("Fox,Bite,None,0.1,1,N,N,0,N,N", "Fox,Claw,None,0.2,0,N,N,0,N,N"))
    result = calculate_attack(boss(physical_damage=0.3), deck)
    assert (result.deck_hp_after, result.deck_survives) == (0.0, False)


def test_builtin_roster_has_one_boss_per_element_and_the_documents_bosses():
    assert {b.element for b in BUILTIN_BOSSES} >= {"Water", "Fire", "Air", "Lightning", "Earth"}
    asmodeus = find_boss(guild_roster(()), "axieom  ASMODEUS")
    assert (asmodeus.level, asmodeus.element) == (4, "Water")
    dogemon = find_boss(guild_roster(()), "Inu Dogemon")
    assert dogemon.level == 1
    assert not any(
        [
            dogemon.physical_penetration,
            dogemon.physical_resistance,
            dogemon.magical_penetration,
            dogemon.magical_resistance,
        ]
    )


# --- CSV reading ------------------------------------------------------------------------------------------


def test_headers_are_case_and_space_insensitive_and_flags_accept_words():
    text = (
        " Token , TRAIT ,Element,Health,physical_damage,physical_penetration,physical_resistance,"
        "magical_damage,magical_penetration,magical_resistance\n"
        "A,a,fire,10,1,yes,True,2,0,n\n"
    )
    (token,) = parse_deck("\ufeff" + text).tokens
    row = token.traits[0]
    assert (token.element, row.physical_penetration, row.physical_resistance) == ("Fire", True, True)
    assert (row.magical_penetration, row.magical_resistance) == (False, False)


def test_blank_element_means_none():
    (token,) = parse_deck(deck_csv("A,a,,10,1,N,N,1,N,N")).tokens
    assert token.element == "None"


def error_of(text: str, parse=parse_deck) -> str:
    with pytest.raises(RuleInputError) as caught:
        parse(text)
    return str(caught.value)


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            HEADER.replace(",magical_resistance", "") + "\nA,a,None,1,1,N,N,1,N\n",
            "deck.csv, row 1: missing column(s): magical_resistance",
        ),
        (
            deck_csv("A,a,None,1,1,maybe,N,1,N,N"),
            "deck.csv, row 2, column 'physical_penetration': 'maybe' is not a yes/no flag",
        ),
        (
            deck_csv("A,a,Ice,1,1,N,N,1,N,N"),
            "deck.csv, row 2, column 'element': 'Ice' is not one of Water, Fire, Air, Lightning, Earth, None",
        ),
        (
            deck_csv("A,a,Fire,1,1,N,N,1,N,N", "B,b,None,1,1,N,N,1,N,N", "A,c,Water,1,1,N,N,1,N,N"),
            "deck.csv, row 4, column 'element': token 'A' is Water here but Fire on row 2",
        ),
        (deck_csv("A,a,None,ten,1,N,N,1,N,N"), "deck.csv, row 2, column 'health': 'ten' is not a number"),
        (
            deck_csv("A,a,None,10,-5,N,N,1,N,N"),
            "deck.csv, row 2, column 'physical_damage': -5 is below the smallest allowed value, 0",
        ),
        (
            deck_csv("A,a,None,10,nan,N,N,1,N,N"),
            "deck.csv, row 2, column 'physical_damage': 'nan' is not a finite number",
        ),
        (
            deck_csv("A,a,None,10,1e300,N,N,1,N,N"),
            "deck.csv, row 2, column 'physical_damage': 1e300 is above the largest allowed value",
        ),
        (deck_csv(",a,None,10,1,N,N,1,N,N"), "deck.csv, row 2, column 'token': is empty"),
        (
            deck_csv('"Fox\nin two lines",a,None,10,1,N,N,1,N,N'),
            "deck.csv, row 2, column 'token': holds a line break or another character that cannot be shown; a name "
            "is one line of text",
        ),
        ("", "deck.csv: is empty"),
        (HEADER + "\n", "deck.csv: has a header but no data rows"),
        (deck_csv("A,a,None,0,1,N,N,1,N,N"), "deck.csv: the deck's total health is 0"),
    ],
)
def test_deck_mistakes_name_row_and_column(text, expected):
    assert expected in error_of(text)


def test_too_many_rows_is_refused_with_the_limit():
    rows = [f"T{i},a,None,1,1,N,N,1,N,N" for i in range(501)]
    assert "has 501 rows; the limit is 500" in error_of(deck_csv(*rows))


def test_a_boss_name_is_measured_with_its_runs_of_spaces_collapsed():
    name = "B" * 50 + "    " + "C" * 49  # 103 characters as typed, 100 as kept
    header = ",".join(BOSS_COLUMNS)
    (boss,) = parse_bosses(f"{header}\n{name},1,Fire,10,1,N,N,1,N,N\n", "bosses.csv")
    assert boss.name == "B" * 50 + " " + "C" * 49
    with pytest.raises(RuleInputError, match="column 'name': is 101 characters long; the limit is 100"):
        parse_bosses(f"{header}\n{name}C,1,Fire,10,1,N,N,1,N,N\n", "bosses.csv")


def test_boss_mistakes_name_row_and_column():
    header = (
        "name,level,element,health,physical_damage,physical_penetration,physical_resistance,"
        "magical_damage,magical_penetration,magical_resistance"
    )
    assert "bosses.csv, row 2, column 'health': must be above 0" in error_of(
        header + "\nX,1,Fire,0,1,N,N,1,N,N\n", parse_bosses
    )
    assert "bosses.csv, row 3, column 'name': 'x' is already on row 2" in error_of(
        header + "\nX,1,Fire,10,1,N,N,1,N,N\nx,1,Fire,10,1,N,N,1,N,N\n", parse_bosses
    )


def test_cli_prints_the_breakdown(tmp_path, capsys):
    deck = tmp_path / "deck.csv"
    deck.write_text(pen_res_deck_csv(), encoding="utf-8")
    assert rules_main(["bossfight", "--boss", "Inu Dogemon", "--deck", str(deck)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Boss: Inu Dogemon (level 1, None), HP 1000 of 1000"
    # RULINGS 1's pen/res check, trait by trait, with the flags behind each modifier.
    table = out[out.index("token   trait     phys res  phys mod  mag res  mag mod  elem mod") :]
    assert table[1:6] == [
        "TOKEN1  V                N         1        N        1         1",
        "TOKEN1  Assassin         Y       0.5        N        1         1",
        "TOKEN1  Elixir           Y       0.5        N        1         1",
        "TOKEN1  Epic             Y       0.5        Y      0.5         1",
        "TOKEN1  Fair             N         1        N        1         1",
    ]
    assert "Stacked (the product of each column over 5 traits): physical 0.125, magical 0.5, element 1" in out
    assert "Damage to the deck: 200 x 0.125 + 100 x 0.5 x 1 = 75" in out
    assert out[-1] == "Deck HP: 500 - 75 = 425 (survives)"


def test_cli_takes_a_boss_csv_and_the_current_hp(tmp_path, capsys):
    bosses = tmp_path / "bosses.csv"
    bosses.write_text(
        "name,level,element,health,physical_damage,physical_penetration,physical_resistance,"
        "magical_damage,magical_penetration,magical_resistance\nWyrm,3,Fire,5000,10,N,N,0,N,N\n"
    )
    deck = tmp_path / "deck.csv"
    deck.write_text(deck_csv("A,a,Water,10,100,N,N,100,N,N"), encoding="utf-8")
    assert rules_main(["bossfight", "--boss", str(bosses), "--deck", str(deck), "--hp", "150"]) == 0
    out = capsys.readouterr().out
    # Water against a Fire boss: the boss takes magic x2 (100 + 100 x 2 = 300), the deck takes magic x0.5.
    assert "Boss HP: 150 - 300 -> 0 (defeated)" in out


def test_cli_mistakes_are_one_line_errors(tmp_path, capsys):
    deck = tmp_path / "deck.csv"
    deck.write_text(deck_csv("A,a,Ice,10,1,N,N,1,N,N"), encoding="utf-8")
    assert rules_main(["bossfight", "--boss", "Nobody", "--deck", str(deck)]) == 2
    assert "error: there is no boss called 'Nobody'; the built-in bosses are: Inu Dogemon," in capsys.readouterr().err
    assert rules_main(["bossfight", "--boss", "Inu Dogemon", "--deck", str(deck)]) == 2
    assert "error: deck.csv, row 2, column 'element': 'Ice' is not one of" in capsys.readouterr().err
    assert rules_main(["bossfight", "--boss", "Inu Dogemon", "--deck", str(tmp_path / "missing.csv")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'missing.csv'}: file not found\n"
    assert rules_main(["bossfight", "--boss", "Inu Dogemon", "--deck", "/dev/zero"]) == 2  # refused, not read on
    assert capsys.readouterr().err == "error: /dev/zero: is larger than 32 MiB, the most the command line reads\n"
    deck.write_bytes("token\xe9".encode("latin-1"))
    assert rules_main(["bossfight", "--boss", "Inu Dogemon", "--deck", str(deck)]) == 2
    assert "deck.csv is not UTF-8 text (byte 5); save it as 'CSV UTF-8'" in capsys.readouterr().err
    deck.write_text(deck_csv("A,a,None,10,1,N,N,1,N,N"), encoding="utf-8")
    assert rules_main(["bossfight", "--boss", "Inu Dogemon", "--deck", str(deck), "--hp", "-1"]) == 2
    assert "error: --hp -1 is not Inu Dogemon's HP: give a number from 0 to its health, 1000" in capsys.readouterr().err
    assert rules_main(["bossfight", "--boss", "Inu Dogemon", "--deck", str(deck), "--hp", "5000"]) == 2
    assert (
        "error: --hp 5000 is not Inu Dogemon's HP: give a number from 0 to its health, 1000" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "value, shown",
    [
        (0, "0"),
        (1, "1"),
        (0.5, "0.5"),
        (0.001953125, "0.001953125"),
        (2**-10, "0.0009765625"),
        (2**-11, "2^-11"),
        (2**10, "1024"),
        (2**500, "2^500"),
    ],
)
def test_modifiers_are_shown_exactly(value, shown):
    assert format_modifier(value) == shown


# --- invariants ---------------------------------------------------------------------------------------------

ELEMENT_NAMES = ["Water", "Fire", "Air", "Lightning", "Earth", "None"]
trait_rows = st.lists(
    st.tuples(
        st.integers(0, 5),  # token
        st.sampled_from(ELEMENT_NAMES),
        st.integers(0, 10**6),  # health
        st.integers(0, 10**6),  # physical damage
        st.integers(0, 10**6),  # magical damage
        st.lists(st.booleans(), min_size=4, max_size=4),  # pens and resistances
    ),
    min_size=1,
    max_size=40,
)


def deck_from(rows, token_elements) -> str:
    lines = []
    for i, (token, _, health, physical, magical, (pp, pr, mp, mr)) in enumerate(rows):
        flag = {True: "Y", False: "N"}
        lines.append(
            f"T{token},r{i},{token_elements[token]},{health + 1},{physical},{flag[pp]},{flag[pr]},"
            f"{magical},{flag[mp]},{flag[mr]}"
        )
    return deck_csv(*lines)


@settings(max_examples=150, deadline=None)
@given(
    rows=trait_rows,
    token_elements=st.lists(st.sampled_from(ELEMENT_NAMES), min_size=6, max_size=6),
    boss_element=st.sampled_from(ELEMENT_NAMES),
    boss_flags=st.lists(st.booleans(), min_size=4, max_size=4),
    order=st.randoms(use_true_random=False),
)
def test_an_attack_is_the_formula_of_the_rulings_whatever_the_row_order(
    rows, token_elements, boss_element, boss_flags, order
):
    pp, pr, mp, mr = boss_flags
    target = boss(
        element=boss_element,
        physical_damage=2000,
        magical_damage=1500,
        physical_penetration=pp,
        physical_resistance=pr,
        magical_penetration=mp,
        magical_resistance=mr,
        health=10**7,
    )
    result = calculate_attack(target, parse_deck(deck_from(rows, token_elements)))
    shuffled = list(rows)
    order.shuffle(shuffled)
    again = calculate_attack(target, parse_deck(deck_from(shuffled, token_elements)))

    # Stacking makes the order of the rows irrelevant.
    assert (again.deck_physical_modifier, again.deck_magical_modifier, again.deck_element_modifier) == (
        result.deck_physical_modifier,
        result.deck_magical_modifier,
        result.deck_element_modifier,
    )
    assert again.damage_to_boss == pytest.approx(result.damage_to_boss)
    # Each stacked modifier is the product over the trait rows (element: once per row of its token).
    assert result.deck_physical_modifier == math.prod(t.physical for t in result.traits)
    assert result.deck_magical_modifier == math.prod(t.magical for t in result.traits)
    assert result.deck_element_modifier == math.prod(t.element for t in result.traits)
    assert result.damage_to_deck == (
        2000 * result.deck_physical_modifier + 1500 * result.deck_magical_modifier * result.deck_element_modifier
    )
    # Damage to the boss is the per-token sum of the rulings' formula.
    for t in result.tokens:
        assert t.damage_dealt == (
            t.physical_damage * t.boss_physical_modifier
            + t.magical_damage * t.boss_magical_modifier * t.boss_element_modifier
        )
        assert t.boss_physical_modifier == (0.5 if pr and not t.physical_penetration else 1)
        assert t.boss_magical_modifier == (0.5 if mr and not t.magical_penetration else 1)
    assert result.deck_health == sum(r[2] + 1 for r in rows)
    assert result.boss_hp_after == max(0, 10**7 - result.damage_to_boss)


# --- RULINGS 6: a player's standing in a raid ------------------------------------------------------------


def test_the_deck_starts_at_its_health_less_the_raids_earlier_damage():
    deck = parse_deck(deck_csv("Fox,Bite,None,500,10,N,N,0,N,N", "Owl,Hoot,None,700,0,N,N,0,N,N"))
    result = calculate_attack(boss(physical_damage=300), deck, damage_taken=800)
    assert (result.deck_health, result.deck_hp_before, result.damage_to_deck, result.deck_hp_after) == (
        1200,
        400,
        300,
        100,
    )
    assert result.deck_survives
    assert not calculate_attack(boss(physical_damage=300), deck, damage_taken=900).deck_survives  # exactly 0: out
    assert format_breakdown(result).endswith("Deck HP: 1200 - 800 taken earlier in the raid - 300 = 100 (survives)")


def test_a_deck_the_raid_has_spent_cannot_attack():
    deck = parse_deck(deck_csv("Fox,Bite,None,150,10,N,N,0,N,N"))
    with pytest.raises(RuleInputError, match="it would start at 0: attack with a deck of more than 150 health"):
        calculate_attack(boss(), deck, damage_taken=150)


def test_who_may_attack_now():
    fresh = RaidPlayer()
    assert attack_refusal(fresh, 60, now=1000) is None
    cooling = RaidPlayer(damage_taken=10, last_attack_at=990.5)
    assert cooldown_left(cooling, 60, now=1000) == 50.5
    assert attack_refusal(cooling, 60, now=1000) == (
        "This raid lets each player attack once every 1 min: try again in 51 s."
    )
    assert attack_refusal(cooling, 60, now=1050.5) is None
    assert attack_refusal(cooling, 0, now=1000) is None
    out = RaidPlayer(damage_taken=1234.5, knocked_out=True, last_attack_at=0)
    assert attack_refusal(out, 0, now=1000) == (
        "You are knocked out of this raid: the boss has dealt you 1234.5 since the raid began or your last revive. A GM can bring you back with "
        "`/bossfight revive`."
    )


def test_waits_read_as_a_player_reads_them():
    assert [duration_text(s) for s in (0, 0.2, 45, 60, 125, 3600, 3725, 86400)] == [
        "0 s",
        "1 s",
        "45 s",
        "1 min",
        "2 min 5 s",
        "1 h",
        "1 h 2 min 5 s",
        "24 h",
    ]


def test_a_games_command_line_imports_only_that_game(tmp_path):
    deck = tmp_path / "deck.csv"
    deck.write_text(deck_csv("A,a,None,10,1,N,N,1,N,N"), encoding="utf-8")
    program = (
        "import sys\nfrom rules.__main__ import main\n"
        f"code = main(['bossfight', '--boss', 'Inu Dogemon', '--deck', {str(deck)!r}])\n"
        "print(code, sorted(name for name in ('rules.deck', 'rules.mma', 'rules.mfd', 'rules.andor', 'numba')"
        " if name in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines()[-1] == "0 []"


def test_a_blow_is_credited_with_what_the_hp_left_absorbs_and_the_rest_is_overkill():
    from rules.bossfight.models import credited_damage, overkill

    # RULINGS 7: 4750 on 2000 left is credited 2000, 2750 is overkill; a blow the HP absorbs is credited whole.
    assert (credited_damage(2000, 4750), overkill(2000, 4750)) == (2000, 2750)
    assert (credited_damage(2000, 1999.5), overkill(2000, 1999.5)) == (1999.5, 0.0)
    # The rounding of RULINGS 6 fells 333.4 with 333.39999999999998: credited the HP left, no negative overkill.
    assert (credited_damage(333.4, 333.4 - 1e-13), overkill(333.4, 333.4 - 1e-13)) == (333.4, 0.0)


def test_an_attack_is_credited_with_the_stored_hp_it_removed():
    from rules.bossfight.models import boss_hp_after, credited_damage, overkill

    # RULINGS 8, the audit's example: three attacks of 4e-07 leave 1000 HP stored as 1000, so each is credited 0
    # (shown as dealt, not credited); the blow of 1000 removes 1000. Credited whole they totalled 1000.0000012.
    hp, credits = 1000.0, []
    for damage in (4e-07, 4e-07, 4e-07, 1000):
        credits.append(credited_damage(hp, damage))
        hp = boss_hp_after(hp, damage)
    assert (credits, sum(credits), hp) == ([0.0, 0.0, 0.0, 1000.0], 1000.0, 0.0)
    assert overkill(1000, 4e-07) == 4e-07
    # A blow of 999.9999996 on 1000 removes 1000 (999.9999996 left rounds to 0.000000): credited 1000.
    assert credited_damage(1000, 999.9999996) == 1000.0
    # 1000 - 666.7 is 333.29999999999995 in floats; the HP removed is 333.3.
    assert credited_damage(1000, 333.3) == 333.3 and credited_damage(666.7, 333.3) == 333.3


# --- The breakdown a player can keep -----------------------------------------------------------------------


def breakdown_deck():
    return parse_deck(
        deck_csv(
            "Ember Fox,Swift,Fire,500,300,Y,N,200,N,N",
            "Ember Fox,Tough,Fire,500,0,N,Y,0,N,Y",
            "Owl,Hoot,Water,700,0,N,N,100,Y,N",
        )
    )


def test_the_breakdown_of_an_attack_that_fells_the_boss():
    resisting = boss(
        element="Air",
        physical_damage=400,
        magical_damage=300,
        physical_resistance=True,
        magical_resistance=True,
        magical_penetration=True,
    )
    assert format_breakdown(calculate_attack(resisting, breakdown_deck(), boss_hp=250)).splitlines() == [
        "Boss: Test Boss (level 1, Air), HP 250 of 1000",
        "  physical damage 400, penetration N, resistance Y",
        "  magical damage 300, penetration Y, resistance Y",
        "",
        "Damage to the boss, per token: physical x phys mod + magical x mag mod x elem mod",
        "(a mod is 0.5 where the boss resists and the token does not penetrate; elem is the boss's element",
        " modifier against the token's element)",
        "token      element  health  physical  pen  phys mod  magical  pen  mag mod  elem mod  dealt",
        "Ember Fox  Fire       1000       300    Y         1      200    N      0.5         2    500",
        "Owl        Water       700         0    N       0.5      100    Y        1         1    100",
        "Total damage to the boss: 500 + 100 = 600",
        "",
        "Modifiers of the damage your deck takes, per trait (0.5 where the trait resists and the boss does not",
        "penetrate; elem is the token's element modifier against the boss, once per trait of its token)",
        "token      trait  phys res  phys mod  mag res  mag mod  elem mod",
        "Ember Fox  Swift         N         1        N        1       0.5",
        "Ember Fox  Tough         Y       0.5        Y        1       0.5",
        "Owl        Hoot          N         1        N        1         1",
        "Stacked (the product of each column over 3 traits): physical 0.5, magical 1, element 0.25",
        "Damage to the deck: 400 x 0.5 + 300 x 1 x 0.25 = 275",
        "",
        "Boss HP: 250 - 600 -> 0 (defeated)",
        "Credited: 250, overkill beyond the HP left: 350",
        "Deck HP: 1700 - 275 = 1425 (survives)",
    ]


def test_the_breakdown_of_an_attack_that_knocks_the_deck_out():
    hard_hitting = boss(element="Water", physical_damage=900, magical_damage=100)
    breakdown = format_breakdown(calculate_attack(hard_hitting, breakdown_deck(), damage_taken=1400))
    assert breakdown.splitlines()[-3:] == [
        "",
        "Boss HP: 1000 - 400 -> 600",
        "Deck HP: 1700 - 1400 taken earlier in the raid - 450 = -150 (knocked out of the raid)",
    ]
