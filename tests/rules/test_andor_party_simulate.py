"""The party odds: the lean loop plays the state machine's fights exactly, and the figures add up."""

from __future__ import annotations

import pytest

from rules.andor.bestiary import builtin_monsters
from rules.andor.models import Character, Monster
from rules.andor.party_simulate import engine_results, party_results, simulate_party
from rules.errors import RuleInputError


def monster(name: str) -> Monster:
    return next(m for m in builtin_monsters() if m.name == name)


STRONG = Character(attack_chance=120, damage_min=4, damage_max=12, crit_chance=20, hp_bonus=40, potions=3)
FRAIL = Character(base_hp=3, potions=1, potion_heal=5)
CASES = [
    ([STRONG, Character()], monster("Wolf"), 2),
    ([STRONG, FRAIL, Character(attack_chance=90, damage_max=4, armor=40)], monster("Wolf"), 3),
    ([Character(), Character(), Character(), FRAIL], monster("Giant dungfly"), 5),
    ([STRONG, STRONG], monster("Cave snake").model_copy(update={"aggressive": True}), 4),
    ([Character(), Character()], monster("Tiny rat").model_copy(update={"damage_min": 0, "damage_max": 0}), 1),
]


@pytest.mark.parametrize(("characters", "foe", "count"), CASES)
def test_the_lean_loop_plays_the_state_machines_fights(characters, foe, count):
    for seed in (1, 2):
        assert party_results(characters, foe, count, 30, seed) == engine_results(characters, foe, count, 30, seed)


def test_the_odds_add_up():
    odds = simulate_party([STRONG, FRAIL, Character()], monster("Wolf"), 3, 2_000, seed=7)
    assert odds.wins + odds.losses + odds.draws + odds.undecided == odds.fights == 2_000
    assert 0 < odds.wins < odds.fights and len(odds.knock_outs) == 3
    assert odds.knock_outs[1] > odds.knock_outs[0]  # the frail member falls more often than the strong one
    assert simulate_party([STRONG, FRAIL, Character()], monster("Wolf"), 3, 2_000, seed=7) == odds
    with pytest.raises(RuleInputError):
        simulate_party([STRONG, FRAIL], monster("Wolf"), 1, 0, seed=1)
