"""Andor's Trail simulation: the lean loop plays exactly the state machine's fights; limits; the CLI."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.__main__ import main
from rules.andor.bestiary import builtin_monsters, find_monster, merged
from rules.andor.engine import updated_character
from rules.andor.models import Character, Monster
from rules.andor.simulate import MAX_FIGHTS, fight_results, logged_fight_results, simulate
from rules.errors import RuleInputError

BOOK = merged([])


def monster(name: str) -> Monster:
    return find_monster(BOOK, name)


STRONG = Character(
    attack_chance=120,
    damage_min=4,
    damage_max=12,
    crit_chance=20,
    crit_multiplier=2.5,
    ad_bonus=20,
    armor=30,
    damage_resistance=1,
    hp_bonus=40,
    potions=3,
    potion_heal=25,
)


@pytest.mark.parametrize(
    "character, name, count",
    [
        (Character(), "Wolf", 1),
        (Character(), "Tiny rat", 3),
        (STRONG, "Wolf", 2),
        (STRONG, "Snake master", 1),
        (STRONG, "Giant dungfly", 5),
        (STRONG, "Maelveon", 2),
    ],
)
def test_the_lean_loop_plays_the_same_fights_as_the_state_machine(character, name, count):
    for monsters_first in (False, True):
        fast, stopped = fight_results(
            character, monster(name), count, 40, random.Random(7), monsters_first=monsters_first
        )
        assert not stopped
        logged = logged_fight_results(
            character, monster(name), count, 40, random.Random(7), monsters_first=monsters_first
        )
        assert fast == logged


def test_the_lean_loop_and_the_state_machine_agree_on_draws_and_aggressive_monsters():
    # DR 3 against 1-2 damage, and 0 damage back: every fight is a draw after 20 quiet rounds
    wall = monster("Wolf").model_copy(update={"damage_resistance": 3, "damage_min": 0, "damage_max": 0})
    fast, _ = fight_results(Character(damage_max=2), wall, 2, 5, random.Random(3))
    assert fast == logged_fight_results(Character(damage_max=2), wall, 2, 5, random.Random(3))
    assert {(r.result, r.rounds) for r in fast} == {("draw", 20)}
    aggressive = monster("Wolf").model_copy(update={"aggressive": True})
    fast, _ = fight_results(STRONG, aggressive, 2, 30, random.Random(4))
    assert fast == logged_fight_results(STRONG, aggressive, 2, 30, random.Random(4))
    assert fast != fight_results(STRONG, monster("Wolf"), 2, 30, random.Random(4))[0]  # the wolves start


@settings(max_examples=15, deadline=None)
@given(
    st.builds(
        dict,
        attack_chance=st.integers(0, 300),
        damage_min=st.integers(0, 5),
        damage_spread=st.integers(0, 20),
        crit_chance=st.integers(0, 100),
        crit_multiplier=st.sampled_from([1.0, 1.5, 2.25, 4.0]),
        ad_bonus=st.integers(0, 200),
        armor=st.integers(0, 200),
        damage_resistance=st.integers(0, 5),
        block_chance=st.integers(0, 150),
        ap=st.integers(4, 20),
        potions=st.integers(0, 4),
        hp_bonus=st.integers(0, 100),
    ),
    st.sampled_from([m.name for m in builtin_monsters()]),
    st.integers(1, 3),
    st.integers(0, 2**32),
)
def test_the_lean_loop_matches_the_state_machine_for_any_character(stats, name, count, seed):
    spread = stats.pop("damage_spread")
    stats["damage_max"] = stats["damage_min"] + spread
    character = updated_character(Character(), stats)
    fast, _ = fight_results(character, monster(name), count, 6, random.Random(seed), max_rounds=40)
    assert fast == logged_fight_results(character, monster(name), count, 6, random.Random(seed), max_rounds=40)


def test_a_simulation_summarizes_its_fights():
    result = simulate(STRONG, monster("Wolf"), 5, 2_000, seed=5)
    assert result.fights == result.fights_requested == 2_000
    assert result.wins + result.losses + result.draws + result.undecided == 2_000
    assert sum(result.hp_left_counts) == 2_000 and result.hp_left_counts[0] == result.losses
    assert len(result.hp_left_counts) == STRONG.max_hp + 1
    assert 0 < result.win_rate < 1 and result.mean_rounds > 1
    assert 0 < result.mean_hp_left_won <= STRONG.max_hp
    assert simulate(STRONG, monster("Wolf"), 5, 2_000, seed=5) == result  # the seed replays it
    buckets = result.hp_left_buckets(10)  # max HP 65: dead, then slices of 8 HP
    assert buckets[0] == (0, 0, result.losses)
    assert [(low, high) for low, high, _ in buckets[1:]] == [(1 + 8 * i, min(65, 8 + 8 * i)) for i in range(9)]
    assert sum(count for _, _, count in buckets) == 2_000
    assert buckets[-1][2] == sum(result.hp_left_counts[65:])


def test_the_default_character_against_a_wolf():
    # 1 damage at 35% against 30 HP, while the wolf hits 78% of the time for 3-6 twice a turn: hopeless
    result = simulate(Character(), monster("Wolf"), fights=1_000, seed=1)
    assert result.losses == 1_000 and result.win_rate == 0


def test_fights_in_which_no_one_deals_damage_are_draws_after_20_rounds():
    harmless = Character(damage_min=0, damage_max=0)
    pillow = monster("Tiny rat").model_copy(update={"damage_min": 0, "damage_max": 0})
    result = simulate(harmless, pillow, 1, 10, seed=1)
    assert (result.draws, result.undecided, result.total_rounds, result.hp_left_counts[-1]) == (10, 0, 200, 10)


def test_fights_still_going_stop_at_the_round_limit():
    harmless = Character(damage_min=0, damage_max=0)
    pillow = monster("Tiny rat").model_copy(update={"damage_min": 0, "damage_max": 0})
    result = simulate(harmless, pillow, 1, 10, seed=1, max_rounds=5)
    assert (result.draws, result.undecided, result.total_rounds) == (0, 10, 50)


def test_a_simulation_stops_at_the_work_limit_and_says_so():
    harmless = Character(damage_min=0, damage_max=0)
    pillow = monster("Tiny rat").model_copy(update={"damage_min": 0, "damage_max": 0})
    result = simulate(harmless, pillow, 1, 1_000, seed=1, max_rounds=100, work_limit=1_000)
    # each fight is a draw after 20 rounds of 2 player + 1 rat attacks: 60 attacks, so the 18th is not started
    assert result.fights == 17
    assert result.stopped_early == "stopped after 17 of 1,000 fights: the limit of 1,000 attacks was reached"


def test_a_long_simulation_reports_its_progress(monkeypatch):
    monkeypatch.setattr("rules.andor.simulate.PROGRESS_EVERY", 2_000)  # attacks between two reports
    heard: list[float] = []
    result = simulate(STRONG, monster("Wolf"), 5, 1_000, seed=2, progress=heard.append)
    # the fraction of the fights played, rising
    assert len(heard) >= 5 and heard == sorted(heard) and all(0 < f < 1 for f in heard)
    assert simulate(STRONG, monster("Wolf"), 5, 1_000, seed=2) == result  # listening changes nothing
    stuck: list[float] = []
    harmless = Character(damage_min=0, damage_max=0)
    pillow = monster("Tiny rat").model_copy(update={"damage_min": 0, "damage_max": 0})
    simulate(harmless, pillow, 1, 100_000, seed=1, max_rounds=100, work_limit=30_000, progress=stuck.append)
    # 300 attacks a fight: only 100 of the 100,000 fights fit in the work limit, so the progress follows
    # the attacks rather than the fights
    assert stuck[-1] >= 0.9 and stuck == sorted(stuck)


def test_bad_fight_counts_are_refused():
    with pytest.raises(RuleInputError, match=f"between 1 and {MAX_FIGHTS:,}"):
        simulate(Character(), monster("Wolf"), 1, MAX_FIGHTS + 1)
    with pytest.raises(RuleInputError, match="1 to 5 monsters"):
        simulate(Character(), monster("Wolf"), 6, 10)


def test_cli_simulate_prints_the_odds(capsys):
    assert main(["andor", "simulate", "--monster", "tiny rat", "--count", "2", "--fights", "500", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Tiny rat x2: 500 fights (seed 3), player max HP 25" in out
    assert "won " in out and "HP left:" in out and "0 (dead)" in out
    assert "Per attack:\n  You: 57% to hit Tiny rat for 1, on average 0.57 per attack; 4 AP an attack\n" in out
    assert "  Tiny rat: 42% to hit you for 1, on average 0.42 per attack; 1 attack a turn\n" in out


def test_cli_fight_prints_the_log_and_bestiary_lists_monsters(capsys):
    assert main(["andor", "fight", "--monster", "Tiny rat", "--seed", "8", "--count", "2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:3] == [
        "seed 8",
        "Round 1: your turn, 10 AP",
        "You → Tiny rat 1: hit (rolled 23 ≤ 57%), damage 1 (rolled 1); 1 HP left",
    ]
    assert out.rstrip().endswith("Victory (kills: +6 XP, +2 gold pieces)")
    assert main(["andor", "bestiary"]) == 0
    assert "Queen lava entity, 490, 10, 6, 170, 35-45, none, 270, 16, 1513" in capsys.readouterr().out


def test_cli_errors_are_messages(capsys, tmp_path):
    assert main(["andor", "simulate", "--monster", "Wolf", "--stat", "armor=300"]) == 2
    assert "armor: 300 is outside 0..200" in capsys.readouterr().err
    for value in ("nan", "inf", "1e400"):
        assert main(["andor", "fight", "--monster", "Wolf", "--stat", f"block_chance={value}"]) == 2
        assert capsys.readouterr().err.startswith(f"error: block_chance: {'inf' if value != 'nan' else 'nan'} is not a")
    bad = tmp_path / "m.csv"
    bad.write_text(
        "name,hp,ap,attack_cost,attack_chance,damage_min,damage_max,block_chance,xp\nImp,x,10,5,50,1,2,0,1\n"
    )
    assert main(["andor", "simulate", "--monster", "Imp", "--monsters", str(bad)]) == 2
    assert "m.csv, row 2, column 'hp': 'x' is not a number" in capsys.readouterr().err
