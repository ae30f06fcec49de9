"""Andor's Trail engine: RULINGS 4 formulas as exact values, the fight state machine, levels and XP."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.andor import ai
from rules.andor.bestiary import builtin_monsters, find_monster, merged
from rules.andor.engine import (
    aim_in_place,
    applied,
    apply_in_place,
    damage_range,
    death_penalty,
    final_damage,
    hit_chance,
    legal_actions,
    mean_damage,
    monster_fighters,
    outcome,
    player_fighter,
    replay_rng,
    settle,
    start_fight,
    summary,
    uniform,
    updated_character,
    with_xp,
)
from rules.andor.models import (
    CALL_DRAW,
    END_TURN,
    FEED_LENGTH,
    FLEE,
    POTION,
    Action,
    AttackEvent,
    Character,
    EndEvent,
    Ending,
    FightState,
    FightSummary,
    FleeEvent,
    Monster,
    PotionEvent,
    TurnEvent,
    xp_to_next_level,
)
from rules.andor.text import describe_event
from rules.contract import Outcome
from rules.errors import RuleInputError
from tests.rules.scripted_random import ScriptedRandom

BOOK = merged([])


def monster(name: str) -> Monster:
    return find_monster(BOOK, name)


# --- formulas -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "attack_chance, block_chance, expected",
    [(60, 9, 50), (60, 0, 57), (90, 9, 70), (200, 9, 91), (0, 70, 10)],
)
def test_hit_chance_checks_of_the_rulings(attack_chance, block_chance, expected):
    assert hit_chance(attack_chance, block_chance) == expected


@given(st.integers(0, 1000), st.integers(0, 1000))
def test_hit_chance_stays_a_percentage_and_grows_with_attack_chance(attack_chance, block_chance):
    chance = hit_chance(attack_chance, block_chance)
    assert 0 <= chance <= 100
    assert hit_chance(attack_chance + 1, block_chance) >= chance
    assert hit_chance(attack_chance, block_chance + 1) <= chance


def test_final_damage_applies_ad_bonus_critical_resistance_and_armor_in_order():
    # 5 x 1.10 = 5.5; critical x2.5 = 13.75; - DR 2 = 11.75; x (1 - 50/200) = 8.8125 -> 8
    assert final_damage(5, 10, 250, 2, 50) == 8
    assert final_damage(6, 0, 100, 0, 0) == 6
    assert final_damage(1, 0, 100, 4, 0) == 0  # never below 0
    assert final_damage(1, 0, 300, 4, 0) == 0
    assert final_damage(7, 0, 100, 0, 60) == 4  # 4.9 truncated
    assert final_damage(10, 0, 100, 0, 200) == 0  # full armor


def test_final_damage_is_exact_where_floats_would_truncate_wrongly():
    # 5 x (1 - 160/200) is exactly 1, but 5 * (1 - 160/200) in floats is 0.9999999999999998
    assert final_damage(5, 0, 100, 0, 160) == 1
    assert final_damage(3, 40, 100, 1, 75) == 2  # (4.2 - 1) x 0.625 = 2 exactly


def test_damage_range_and_mean_damage_of_one_attack():
    you = player_fighter(Character(damage_min=4, damage_max=8, ad_bonus=50, crit_chance=10, crit_multiplier=2.5))
    snake = monster_fighters(monster("Snake master"), 1)[0]  # BC 10, DR 4; AC 60, 1-4, crit 58% x3
    # 4..8 x 1.5 = 6..12, - DR 4 = 2..8; critical: x2.5 = 15..30, - 4 = 11..26
    assert damage_range(you, snake) == (2, 8)
    assert damage_range(you, snake, critical=True) == (11, 26)
    normal = [2, 3, 5, 6, 8]  # bases 4..8: 6, 7.5, 9, 10.5, 12 - 4, truncated
    critical = [11, 14, 18, 22, 26]  # 15, 18.75, 22.5, 26.25, 30 - 4, truncated
    per_hit = 0.9 * sum(normal) / 5 + 0.1 * sum(critical) / 5
    assert mean_damage(you, snake) == pytest.approx(0.50 * per_hit)  # AC 60 vs BC 10 hits 50%
    armored = player_fighter(Character(armor=100))
    # the snake on an armored player: 1..4 x 0.5 -> 0, 1, 1, 2; critical x3: 3, 6, 9, 12 x 0.5 -> 1, 3, 4, 6
    assert damage_range(snake, armored) == (0, 2)
    assert mean_damage(snake, armored) == pytest.approx(0.50 * (0.42 * 4 / 4 + 0.58 * 14 / 4))


# --- levels ---------------------------------------------------------------------------------------------


def test_levels_and_max_hp_follow_the_rulings():
    assert [xp_to_next_level(level) for level in (1, 2, 3)] == [55, 220, 495]
    assert Character().max_hp == 25  # base 20 + level 1 x 5
    assert Character(level=4, hp_bonus=3).max_hp == 20 + 20 + 3
    # 300 XP at level 1: 55 to level 2, 220 to level 3, 25 left
    levelled = with_xp(Character(), 300)
    assert (levelled.level, levelled.xp, levelled.max_hp) == (3, 25, 35)


def test_the_death_penalty_is_30_percent_of_the_xp_within_the_level_rounded_down():
    character = Character(level=2, xp=219)
    after, change = settle(character, FightSummary(Ending.LOST, 3, 0, 0))
    assert (after.level, after.xp, change) == (2, 219 - 65, -65)  # 30% of 219 = 65.7
    assert death_penalty(0) == 0


@given(st.integers(1, 999), st.data())
def test_the_death_penalty_never_drops_a_level(level, data):
    xp = data.draw(st.integers(0, xp_to_next_level(level) - 1))
    after, change = settle(Character(level=level, xp=xp), FightSummary(Ending.LOST, 1, 0, 0))
    assert after.level == level
    assert 0 <= after.xp <= xp
    assert change == after.xp - xp == -(xp * 30 // 100)


def test_victory_adds_the_xp_of_every_monster_and_levels_up():
    after, change = settle(Character(level=1, xp=50), FightSummary(Ending.WON, 2, 20, 49 + 49))
    assert change == 98
    assert (after.level, after.xp) == (2, 50 + 98 - 55)
    fled, change = settle(Character(xp=10), FightSummary(Ending.FLED, 1, 20, 0))
    assert (fled.xp, change) == (10, 0)


def test_setting_stats_checks_each_value_and_their_consistency():
    assert updated_character(Character(), {"attack_chance": 90, "potions": 0}).attack_chance == 90
    assert updated_character(Character(), {"xp": 60}).model_dump(include={"level", "xp"}) == {"level": 2, "xp": 5}
    with pytest.raises(RuleInputError, match=r"armor: 201 is outside 0..200"):
        updated_character(Character(), {"armor": 201})
    with pytest.raises(RuleInputError, match="damage_min: 5 is above damage_max 1"):
        updated_character(Character(), {"damage_min": 5})
    with pytest.raises(RuleInputError, match="attack_cost: 11 is above ap 10"):
        updated_character(Character(), {"attack_cost": 11})
    with pytest.raises(RuleInputError, match=r"crit_multiplier: 1.555 has more than 2 decimals"):
        updated_character(Character(), {"crit_multiplier": 1.555})
    with pytest.raises(RuleInputError, match=r"level: 2.5 is not a whole number"):
        updated_character(Character(), {"level": 2.5})
    # a new level starts at 0 XP: the old level's XP would otherwise level a lowered character straight back up
    high = Character(level=3, xp=400)
    assert updated_character(high, {"level": 1}).model_dump(include={"level", "xp"}) == {"level": 1, "xp": 0}
    assert updated_character(high, {"level": 3, "potions": 1}).xp == 400  # the same level keeps its XP
    assert updated_character(high, {"level": 2, "xp": 10}).model_dump(include={"level", "xp"}) == {"level": 2, "xp": 10}
    with pytest.raises(RuleInputError, match="speed: no such stat"):
        updated_character(Character(), {"speed": 3})


# --- the fight ------------------------------------------------------------------------------------------


def test_a_seeded_fight_against_two_tiny_rats_has_this_full_event_log():
    """Seed 8 draws 0.227 0.962 0.126 0.705 0.085 0.247 0.999 0.209 0.642 0.459 0.453 0.495: d100 = int(x*100)+1.

    The player hits rats at 57% (AC 60 vs BC 0) for 1; rats hit the player at 42% (AC 50 vs BC 9) for 1,
    once per turn (AP 10 // attack cost 9). The AI attacks the weakest living rat.
    """
    rng = random.Random(8)
    state, log = start_fight(Character(), monster("Tiny rat"), 2)
    while outcome(state) is None:
        state, events = applied(state, ai.choose_action(state), rng)
        log += events

    def you(target, roll, hp, hit=True):
        gold = loot(kills.pop(0)) if hp == 0 else 0
        return AttackEvent(
            round=round_,
            attacker="You",
            target=target,
            hit_chance=57,
            roll=roll,
            hit=hit,
            base_damage=1 if hit else None,
            damage=1 if hit else 0,
            target_hp=hp,
            killed=hp == 0,
            xp=3 if hp == 0 else 0,  # a Tiny rat's XP, at each kill (RULINGS 6)
            gold=gold,
        )

    def rat(roll, hp, hit):
        return AttackEvent(
            round=round_,
            attacker="Tiny rat 2",
            target="You",
            hit_chance=42,
            roll=roll,
            hit=hit,
            base_damage=1 if hit else None,
            damage=1 if hit else 0,
            target_hp=hp,
        )

    def loot(move_and_monster):  # 0..floor(3 / 2) gold, drawn apart from the combat dice (engine._loot)
        move, monster = move_and_monster
        return uniform(random.Random(f"0:{move}:loot:{monster}"), 0, 1)

    kills = [(1, 0), (4, 1)]  # rat 1 falls on the fight's move 1, rat 2 on move 4
    gold = [loot(k) for k in kills]
    expected = []
    round_ = 1
    expected += [TurnEvent(round=1, side="player", ap=10), you("Tiny rat 1", 23, 1), you("Tiny rat 1", 13, 0)]
    expected += [TurnEvent(round=1, side="monsters"), rat(9, 24, True)]
    round_ = 2
    expected += [
        TurnEvent(round=2, side="player", ap=10),
        you("Tiny rat 2", 100, 2, hit=False),
        you("Tiny rat 2", 21, 1),
    ]
    expected += [TurnEvent(round=2, side="monsters"), rat(46, 24, False)]
    round_ = 3
    expected += [
        TurnEvent(round=3, side="player", ap=10),
        you("Tiny rat 2", 46, 0),
        EndEvent(round=3, result="won", xp=6, gold=sum(gold)),
    ]
    assert log == expected
    assert outcome(state) == Outcome(0, Ending.WON)
    assert summary(state) == FightSummary(Ending.WON, 3, 24, 6, sum(gold), kills=2)  # both rats


def test_criticals_ad_bonus_resistance_and_armor_in_a_scripted_fight():
    character = updated_character(
        Character(),
        {
            "damage_min": 4,
            "damage_max": 8,
            "ad_bonus": 50,
            "crit_chance": 10,
            "crit_multiplier": 2.5,
            "armor": 40,
            "ap": 5,
        },
    )
    snake = monster("Snake master")  # 55 HP, AC 60, 1-4, crit 58% x3, BC 10, DR 4, 2 attacks a turn
    # roll 6 <= 50 hits; damage 4 + int(0.99 x 5) = 8; crit roll 5 <= 10
    rng = ScriptedRandom(0.05, 0.99, 0.04)
    state, _ = start_fight(character, snake)
    state, events = applied(state, Action.attack(0), rng)
    assert state.phase == "player" and state.ap_left == 1  # flee is still affordable, so the turn goes on
    assert [type(e) for e in events] == [AttackEvent]
    # 8 x 1.5 = 12; x2.5 = 30; - DR 4 = 26 (monsters have no armor)
    assert events[0].model_dump(exclude={"kind", "round", "attacker", "target", "killed", "xp", "gold"}) == {
        "hit_chance": 50,
        "roll": 6,
        "hit": True,
        "base_damage": 8,
        "crit_chance": 10,
        "crit_roll": 5,
        "critical": True,
        "damage": 26,
        "target_hp": 29,
    }
    assert describe_event(events[0]) == (
        "You → Snake master: hit (rolled 6 ≤ 50%), damage 26 (rolled 8, CRITICAL (crit roll 5 ≤ 10%)); 29 HP left"
    )


def test_scripted_monster_turn_uses_player_armor():
    character = updated_character(Character(), {"armor": 40, "ap": 5})
    rng = ScriptedRandom(0.99, 0.30, 0.50, 0.20, 0.49, 0.00, 0.585)
    state, _ = start_fight(character, monster("Snake master"))
    state, events = applied(state, Action.attack(0), rng)  # miss (roll 100); 1 AP left: the turn goes on
    assert state.ap_left == 1 and isinstance(events[0], AttackEvent) and events[0].hit is False
    state, events = applied(state, END_TURN, rng)
    first, second = events[1], events[2]
    assert isinstance(first, AttackEvent) and isinstance(second, AttackEvent)
    # roll 31 <= 50 hits; damage 1 + int(0.5 x 4) = 3; crit roll 21 <= 58: x3 = 9; x (1 - 40/200) = 7.2 -> 7
    assert (first.roll, first.base_damage, first.crit_roll, first.critical, first.damage) == (31, 3, 21, True, 7)
    # roll 50 <= 50 hits; damage 1; crit roll 59 > 58, no critical: 1 x 0.8 = 0.8 -> 0
    assert (second.roll, second.base_damage, second.crit_roll, second.critical, second.damage) == (50, 1, 59, False, 0)
    assert (
        describe_event(second)
        == "Snake master → You: hit (rolled 50 ≤ 50%), damage 0 (rolled 1, crit roll 59 > 58%); 18 HP left"
    )
    assert describe_event(events[0]) == "The monsters' turn"
    assert state.player.hp == 25 - 7
    assert isinstance(events[-1], TurnEvent) and events[-1].round == 2 and state.ap_left == 5


def test_the_turn_ends_by_itself_at_0_ap_and_each_monster_spends_all_its_ap():
    character = updated_character(Character(), {"ap": 8, "hp_bonus": 500})
    fly = monster("Giant dungfly")  # attack cost 3: 3 attacks a turn
    rng = random.Random(1)
    state, _ = start_fight(character, fly, 2)
    state, events = applied(state, Action.attack(0), rng)
    assert state.ap_left == 4 and len(events) == 1
    state, events = applied(state, Action.attack(0), rng)
    monster_attacks = [e for e in events if isinstance(e, AttackEvent) and e.attacker.startswith("Giant")]
    assert [e.attacker for e in monster_attacks] == ["Giant dungfly 1"] * 3 + ["Giant dungfly 2"] * 3
    assert state.round == 2 and state.ap_left == 8


def test_legal_actions_follow_ap_potions_and_hp():
    state, _ = start_fight(Character(), monster("Wolf"), 2)
    assert legal_actions(state) == [Action.attack(0), Action.attack(1), FLEE, END_TURN]  # no potion at full HP
    hurt = state.model_copy(update={"player": state.player.model_copy(update={"hp": 10})})
    assert POTION in legal_actions(hurt)
    low = hurt.model_copy(update={"ap_left": 3})
    assert legal_actions(low) == [FLEE, END_TURN]
    with pytest.raises(RuleInputError, match="'attack 0' is not possible now"):
        applied(low, Action.attack(0), random.Random(1))
    done = state.model_copy(update={"phase": "won"})
    assert legal_actions(done) == []


def test_a_potion_heals_up_to_max_hp_and_costs_5_ap():
    state, _ = start_fight(Character(), monster("Wolf"))
    state = state.model_copy(update={"player": state.player.model_copy(update={"hp": 10})})
    after, events = applied(state, POTION, random.Random(1))
    assert events == [PotionEvent(round=1, healed=15, hp=25, potions_left=1)]
    assert after.ap_left == 5
    assert state.player.hp == 10  # the input state is unchanged


def test_a_failed_flee_ends_the_turn_and_a_successful_one_ends_the_fight():
    rng = ScriptedRandom(0.80, 0.99, 0.99, 0.79)  # flee roll 81 fails; the wolf misses twice; flee roll 80
    state, _ = start_fight(Character(), monster("Wolf"))
    state, events = applied(state, FLEE, rng)
    assert events[0] == FleeEvent(round=1, roll=81, chance=80, escaped=False)
    assert [e.kind for e in events] == ["flee", "turn", "attack", "attack", "turn"]
    state, events = applied(state, FLEE, rng)
    assert events == [FleeEvent(round=2, roll=80, chance=80, escaped=True), EndEvent(round=2, result="fled")]
    assert outcome(state) == Outcome(None, Ending.FLED)
    assert summary(state) == FightSummary(Ending.FLED, 2, 25, 0)


def test_monsters_can_begin_the_fight():
    state, events = start_fight(Character(), monster("Wolf"), rng=ScriptedRandom(0.99, 0.99), monsters_first=True)
    assert [e.kind for e in events] == ["turn", "attack", "attack", "turn"]
    assert events[0] == TurnEvent(round=0, side="monsters")
    assert events[-1] == TurnEvent(round=1, side="player", ap=10)
    assert (state.round, state.ap_left, state.player.hp) == (1, 10, 25)


def test_the_fight_state_round_trips_through_json_and_resumes_identically():
    rng_a, rng_b = random.Random(11), random.Random(11)
    state, _ = start_fight(Character(damage_max=3), monster("Cave snake"), 3)
    for _ in range(3):
        state, _ = applied(state, ai.choose_action(state), rng_a)
    rng_b.setstate(rng_a.getstate())
    restored = FightState.model_validate_json(state.model_dump_json())
    assert restored == state
    while outcome(state) is None:
        action = ai.choose_action(state)
        state, events_a = applied(state, action, rng_a)
        restored, events_b = applied(restored, action, rng_b)
        assert events_a == events_b
    assert restored == state


def test_the_feed_keeps_the_latest_events_and_a_whole_monsters_turn():
    rng = random.Random(3)
    state, log = start_fight(Character(hp_bonus=500, potions=0), monster("Giant dungfly"), 5)
    for _ in range(6):
        state, events = applied(state, END_TURN, rng)
        log += events
    assert len(log) > FEED_LENGTH and state.feed == log[-FEED_LENGTH:]
    # five monsters with three attacks each: the whole last monsters' turn is still in the feed
    assert sum(1 for e in state.feed[-17:] if isinstance(e, AttackEvent)) == 15
    assert state.feed[-17] == TurnEvent(round=6, side="monsters")


@given(st.integers(0, 10_000), st.sampled_from([m.name for m in builtin_monsters()]), st.integers(1, 3))
def test_ai_fights_end_with_consistent_hp_and_xp(seed, name, count):
    rng = random.Random(seed)
    character = Character(damage_min=5, damage_max=40, attack_chance=150, hp_bonus=200)
    state, _ = start_fight(character, monster(name), count)
    while outcome(state) is None and state.round <= 30:
        state, events = applied(state, ai.choose_action(state), rng)
        for event in events:
            if isinstance(event, AttackEvent):
                assert event.damage >= 0 and event.target_hp >= 0
                assert event.hit == (event.roll <= event.hit_chance)
    assert 0 <= state.player.hp <= state.player.max_hp
    result = summary(state)
    if result is not None and result.ending == "won":
        assert result.xp == monster(name).xp * count
        assert all(m.hp == 0 for m in state.monsters)


# --- the engine contract (rules/contract.py) ------------------------------------------------------------


def test_the_engine_keeps_the_turn_based_contract():
    import rules.andor.engine as andor_engine
    from rules.contract import TurnBasedEngine

    engine: TurnBasedEngine[FightState, Action] = andor_engine  # pyright checks the module against the Protocol
    state, _ = start_fight(Character(), monster("Wolf"), 2, seed=5)
    assert engine.legal_actions(state, 1) == []  # the monsters act on their own, never through actions
    assert engine.legal_actions(state, 0) == legal_actions(state)


def test_applied_leaves_its_input_as_it_was_and_equals_the_move_in_place():
    state, _ = start_fight(Character(), monster("Wolf"), 2, seed=5)
    before = state.model_copy(deep=True)
    new, events = applied(state, Action.attack(1), random.Random(3))
    assert state == before
    in_place_events = apply_in_place(state, Action.attack(1), random.Random(3))
    assert state == new and in_place_events == events
    assert state.moves == 1


def test_an_illegal_move_changes_nothing():
    state, _ = start_fight(Character(), monster("Wolf"), 1, seed=5)
    before = state.model_copy(deep=True)
    with pytest.raises(RuleInputError, match="'potion' is not possible now"):  # at full HP
        apply_in_place(state, POTION, random.Random(1))
    assert state == before


def test_each_move_draws_from_the_fights_seed_and_its_move_number():

    state, _ = start_fight(Character(), monster("Wolf"), 2, seed=42)
    assert replay_rng(state).random() == random.Random("42:0").random()
    apply_in_place(state, Action.attack(0), replay_rng(state))
    aim_in_place(state, 1)
    assert state.moves == 2
    assert replay_rng(state).random() == random.Random("42:2").random()


def test_a_saved_fight_goes_on_exactly_as_an_unsaved_one():

    played, _ = start_fight(Character(damage_max=3), monster("Cave snake"), 3, seed=9)
    saved = played.model_copy(deep=True)
    while outcome(played) is None:
        action = ai.choose_action(played)
        apply_in_place(played, action, replay_rng(played))
        saved = FightState.model_validate_json(saved.model_dump_json())  # saved and loaded after every move
        apply_in_place(saved, action, replay_rng(saved))
        assert saved == played


def test_when_the_aimed_monster_dies_the_attacks_go_to_the_first_one_standing():
    state, _ = start_fight(Character(attack_chance=200, damage_min=99, damage_max=99), monster("Wolf"), 3, seed=1)
    aim_in_place(state, 1)
    apply_in_place(state, Action.attack(1), ScriptedRandom(0.0, 0.0))  # a hit for 99: Wolf 2 dies
    assert not state.monsters[1].alive and state.target == 0
    with pytest.raises(RuleInputError, match="That monster cannot be attacked any more"):
        aim_in_place(state, 1)
    assert state.target == 0


def test_a_defeat_keeps_the_kills_xp_and_takes_the_penalty_from_the_xp_held_then():
    # level 5 (1,375 XP to the next), 100 XP held, kills give 20: 120 held at death, 30% of it (36) lost: 84 left, a change of 20 - 36
    after, change = settle(Character(level=5, xp=100, gold=4), FightSummary(Ending.LOST, 5, 0, 20, 7))
    assert (after.xp, after.gold, change) == (84, 11, -16)
    after, change = settle(Character(level=5, xp=100), FightSummary(Ending.DRAW, 20, 25, 20, 3))
    assert (after.xp, after.gold, change) == (120, 3, 20)


def test_a_potion_drunk_is_spent_however_the_fight_ends():
    # RULINGS 7: one fewer after the fight, from the count stored now, never below 0
    wolf = monster("Wolf")
    state, _ = start_fight(Character(potions=3), wolf)
    state.player.hp = 5
    state, _ = applied(state, POTION, random.Random(0))  # 5 AP left: still the player's turn
    assert (state.player.potions, state.potions_drunk) == (2, 1)
    state, _ = applied(state, FLEE, ScriptedRandom(0.0))
    assert summary(state) == FightSummary(Ending.FLED, 1, 25, 0, 0, potions_drunk=1)
    after, _ = settle(Character(potions=3), summary(state))  # pyright: ignore[reportArgumentType]
    assert after.potions == 2
    for ending in Ending:
        after, _ = settle(Character(potions=2), FightSummary(ending, 4, 0, 0, potions_drunk=2))
        assert after.potions == 0
    after, _ = settle(Character(potions=1), FightSummary(Ending.WON, 4, 9, 0, potions_drunk=2))  # set lower meanwhile
    assert after.potions == 0


def test_a_draw_can_be_called_only_while_neither_side_can_hurt_the_other():
    golem = Monster(name="Golem", hp=50, xp=12, damage_min=0, damage_max=0, damage_resistance=99)
    state, _ = start_fight(Character(), golem, seed=1)
    assert legal_actions(state) == [Action.attack(0), FLEE, CALL_DRAW, END_TURN]
    state, _ = applied(state, Action.attack(0), replay_rng(state))
    state, _ = applied(state, Action.attack(0), replay_rng(state))  # 2 AP left: the turn goes on (flee, 1 AP)
    assert state.round == 1
    state, events = applied(state, CALL_DRAW, replay_rng(state))
    assert events == [EndEvent(round=1, result="draw", called=True)] and outcome(state) == Outcome(None, Ending.DRAW)
    wolf, _ = start_fight(Character(), monster("Wolf"))  # it hurts you: no draw to call
    assert CALL_DRAW not in legal_actions(wolf)


def test_built_in_monsters_drop_up_to_half_their_xp_in_gold():
    wolf = monster("Wolf")  # XP 49
    assert wolf.gold_range == (0, 24)
    golds = set()
    for seed in range(60):
        state, _ = start_fight(Character(attack_chance=1000, damage_min=99, damage_max=99), wolf, seed=seed)
        events = apply_in_place(state, Action.attack(0), random.Random(1))
        (kill,) = [e for e in events if isinstance(e, AttackEvent) and e.killed]
        golds.add(kill.gold)
        assert (kill.xp, state.xp_gained, state.gold_gained) == (49, 49, kill.gold)
    assert min(golds) >= 0 and max(golds) <= 24 and len(golds) > 10
