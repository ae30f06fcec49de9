"""MMA Warriors engine: every formula with exact numbers, the turn cycle, and each win condition.

The expected numbers are worked by hand from docs/rules/mma.md and RULINGS 3 and 6.
"""

from __future__ import annotations

import json
import random

import pytest

from rules.errors import RuleInputError
from rules.mma import ai
from rules.mma.cards import CARDS, DECK_LIST, DECK_SIZE, FIGHTER_COUNT, card_named
from rules.mma.engine import (
    CONCEDED,
    DECK_OUT,
    HEALTH_DEPLETED,
    JUDGES,
    MAX_TURNS,
    NO_FIGHTERS,
    IllegalAction,
    apply_in_place,
    card_options,
    counter_damage,
    deploy_action,
    legal_actions,
    new_game,
    outcome,
    play_action,
    simple_action,
    stamina_penalty,
    strike_damage,
    submission_damage,
    takedown_impact,
    takedown_odds,
    turn_energy,
)
from rules.mma.state import (
    CONCEDE,
    DRAW,
    DRAW_PHASE,
    END_TURN,
    MAIN_PHASE,
    NO_ONE,
    OVER,
    REPLACE_PHASE,
    SKIP_DRAW,
    Action,
    GameState,
    Outcome,
)
from rules.mma.text import describe, rules_summary, shared_fighters
from tests.rules.scripted_random import ScriptedRandom


def ids(*names: str) -> list[int]:
    return [card_named(name).id for name in names]


def position(
    fighters: tuple[str, str],
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    *,
    current: int = 0,
    phase: str = MAIN_PHASE,
    energy: int = 16,
    seed: int = 0,
) -> GameState:
    """A match in `phase` of `current`'s first turn with the given active fighters and hands.

    Every other card stays in its owner's deck, so the state is one the JSON loader accepts.
    """
    state, _ = new_game(seed)
    for player, fighter, hand in zip(state.players, fighters, hands):
        pool = player.deck + player.hand + player.discard + [player.fighter]
        wanted = ids(fighter, *hand)
        for card in wanted:
            pool.remove(card)
        player.deck = pool
        player.hand = wanted[1:]
        player.discard = []
        player.fighter = wanted[0]
        player.stamina = player.max_stamina = CARDS[wanted[0]].stamina
        player.fielded = [wanted[0]]
        player.turns = 1
        player.energy = turn_energy(1)
    state.current = current
    state.phase = phase
    state.players[current].energy = energy
    return state


def play(state: GameState, player: int, name: str, rng: random.Random | None = None):
    return apply_in_place(state, play_action(player, card_named(name).id), rng or ScriptedRandom())


def event(events, kind):
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind} event in {[e.kind for e in events]}"
    return found[0]


# --------------------------------------------------------------------------------------------------
# Cards and setup


def test_card_list_matches_rulings():
    assert DECK_SIZE == 75 and len(CARDS) == 15 + 24 + 3
    assert sum(1 for c in DECK_LIST if c < FIGHTER_COUNT) == 15
    assert DECK_LIST.count(card_named("Head Kick").id) == 2
    assert DECK_LIST.count(card_named("Master Coach").id) == 4
    pereira = card_named("Alex Pereira")
    assert (pereira.style, pereira.striking, pereira.grappling, pereira.defense, pereira.stamina) == (
        "Striker",
        10,
        4,
        6,
        34,
    )
    belal = card_named("Belal Muhammad")
    assert (belal.style, belal.striking, belal.grappling, belal.defense, belal.stamina) == ("Grappler", 6, 9, 8, 42)
    assert (card_named("Rear Naked Choke").cost, card_named("Rear Naked Choke").damage) == (5, 15)
    assert (card_named("Suplex").cost, card_named("Suplex").bonus, card_named("Suplex").damage) == (4, 4, 5)
    assert all(len(card.summary()) <= 100 for card in CARDS)


# RULINGS 3, word for word.
RULINGS_FIGHTERS = """Ilia Topuria Balanced 9/7/7/38;
  Islam Makhachev Grappler 6/10/8/40; Merab Dvalishvili Grappler 6/9/7/45; Khamzat Chimaev Grappler
  8/9/7/38; Alexandre Pantoja Grappler 6/9/7/38; Alex Pereira Striker 10/4/6/34; Alexander Volkanovski
  Balanced 8/8/9/42; Jack Della Maddalena Striker 9/5/6/35; Tom Aspinall Balanced 9/7/7/38; Dricus Du
  Plessis Balanced 8/7/7/40; Magomed Ankalaev Balanced 7/8/8/40; Max Holloway Striker 9/6/7/45; Belal
  Muhammad Grappler 6/9/8/42; Arman Tsarukyan Balanced 7/8/7/38; Charles Oliveira Grappler 7/10/6/36."""

# docs/rules/mma.md's techniques: name, energy, damage, takedown bonus, defense reduction.
DOCUMENT_TECHNIQUES = [
    ("Quick Jab", 1, 3, 0, 0),
    ("Teep Kick", 1, 3, 0, 0),
    ("Leg Kick", 2, 4, 0, 0),
    ("Body Shot", 2, 4, 0, 0),
    ("Power Cross", 3, 6, 0, 0),
    ("Cutting Elbow", 3, 5, 0, 0),
    ("Uppercut", 3, 6, 0, 0),
    ("Heavy Hook", 4, 8, 0, 0),
    ("Spinning Back Fist", 4, 7, 0, 0),
    ("Head Kick", 4, 10, 0, 0),
    ("Ground and Pound", 2, 6, 0, 0),
    ("Clinch", 2, 1, 2, 0),
    ("Single Leg Takedown", 2, 2, 2, 0),
    ("Double Leg Takedown", 3, 3, 3, 0),
    ("Suplex", 4, 5, 4, 0),
    ("Guillotine Choke", 3, 10, 0, 0),
    ("Kimura", 3, 11, 0, 0),
    ("Armbar", 4, 12, 0, 0),
    ("Triangle Choke", 4, 13, 0, 0),
    ("D'Arce Choke", 4, 14, 0, 0),
    ("Rear Naked Choke", 5, 15, 0, 0),
    ("Block", 1, 0, 0, 5),
    ("Parry", 2, 0, 0, 3),
    ("Slip Counter", 2, 0, 0, 8),
]


def test_every_card_is_as_the_rulings_and_document_give_it():
    entries = " ".join(RULINGS_FIGHTERS.split()).rstrip(".").split("; ")
    assert len(entries) == FIGHTER_COUNT == 15
    for entry in entries:
        words, stats = entry.rsplit(" ", 1)
        name, style = words.rsplit(" ", 1)
        card = card_named(name)
        assert (card.kind, card.style) == ("fighter", style), name
        assert [card.striking, card.grappling, card.defense, card.stamina] == [int(x) for x in stats.split("/")], name
    for name, cost, damage, bonus, reduction in DOCUMENT_TECHNIQUES:
        card = card_named(name)
        assert (card.cost, card.damage, card.bonus, card.reduction) == (cost, damage, bonus, reduction), name
        assert DECK_LIST.count(card.id) == 2
    assert [
        (card_named(n).cost, DECK_LIST.count(card_named(n).id))
        for n in ("Master Coach", "Intense Training", "Ringside Medic")
    ] == [(3, 4), (2, 4), (2, 4)]
    assert card_named("Cutting Elbow").effect == "bleed" and card_named("Spinning Back Fist").effect == "stagger"


@pytest.mark.parametrize("seed", range(20))
def test_opening_hands_and_deployment(seed):
    state, events = new_game(seed)
    for player in state.players:
        assert player.fighter < FIGHTER_COUNT and player.stamina == CARDS[player.fighter].stamina
        assert len(player.hand) == 4 and all(c >= FIGHTER_COUNT for c in player.hand)
        assert len(player.deck) == 70 and player.health == 100
    assert [e.kind for e in events] == ["deploy", "deploy", "turn"]
    assert (state.current, state.phase) == (0, DRAW_PHASE)
    # RULINGS 6: both players show 8 energy from the deal, the second before their first turn.
    assert [player.energy for player in state.players] == [8, 8]


def test_energy_per_turn_is_8_plus_2_capped_at_16():
    assert [turn_energy(n) for n in range(1, 8)] == [8, 10, 12, 14, 16, 16, 16]


def test_energy_does_not_carry_over_and_each_player_counts_own_turns():
    state, _ = new_game(3)
    rng = random.Random(0)
    apply_in_place(state, simple_action(0, SKIP_DRAW), rng)
    apply_in_place(state, simple_action(0, END_TURN), rng)
    assert (state.current, state.players[1].energy, state.players[1].turns) == (1, 8, 1)
    apply_in_place(state, simple_action(1, END_TURN), rng)  # ending in the draw step skips the draw
    assert (state.current, state.players[0].energy, state.players[0].turns) == (0, 10, 2)


# --------------------------------------------------------------------------------------------------
# Strikes


def test_strike_formula():
    # Alex Pereira (Striker, STR 10) Head Kick (10) on Volkanovski (DEF 9): 10 + 10 - 9 + 2 = 13.
    assert strike_damage(10, 10, 0, 9, True).damage == 13
    # Intense Training +3: 16; Block -5 on top: 11.
    assert strike_damage(10, 10, 3, 9, True).damage == 16
    assert strike_damage(10, 10, 3, 9, True, reduction=5).damage == 11
    # Islam (STR 6) Quick Jab (3) on Volkanovski: 3 + 6 - 9 = 0, at least the card: 3.
    assert strike_damage(3, 6, 0, 9, False).before_defense == 3
    # Slip Counter (-8) on that: 3 - 8, at least 1.
    assert strike_damage(3, 6, 0, 9, False, reduction=8).damage == 1


def test_ground_and_pound_formula():
    # Charles Oliveira (STR 7, GRP 10) on Pereira (DEF 6): 6 + 7 - 6 + (3 + 10 // 4) = 12.
    result = strike_damage(6, 7, 0, 6, False, ground_and_pound_grappling=10)
    assert (result.ground_and_pound, result.damage) == (5, 12)
    # Max Holloway (Striker, STR 9, GRP 6) on Belal (DEF 8): 6 + 9 - 8 + 2 + (3 + 1) = 13.
    assert strike_damage(6, 9, 0, 8, True, ground_and_pound_grappling=6).damage == 13


def test_ground_and_pound_bonus_is_a_term_inside_the_max():
    # RULINGS 6's check: Islam Makhachev (STR 6, GRP 10, Grappler: no strike bonus) with advantage on
    # Alexander Volkanovski (DEF 9), no bonus or defense card: max(6, 6 + 6 - 9 + 0 + (3 + 10 // 4)) = 8.
    result = strike_damage(6, 6, 0, 9, False, ground_and_pound_grappling=10)
    assert (result.ground_and_pound, result.raw, result.before_defense, result.damage) == (5, 8, 8, 8)
    # The waiting defense comes off after the max: Block 8 - 5 = 3.
    assert strike_damage(6, 6, 0, 9, False, ground_and_pound_grappling=10, reduction=5).damage == 3
    # When even the bonus leaves the sum under the card, the card's 6 is the floor (not 6 + the bonus):
    # Volkanovski with Master Coach +4 (DEF 13): 6 + 6 - 13 + 5 = 4 → 6.
    floored = strike_damage(6, 6, 0, 13, False, ground_and_pound_grappling=10)
    assert (floored.raw, floored.before_defense, floored.damage) == (4, 6, 6)


def test_ground_and_pound_in_play_and_its_feed_line():
    state = position(("Islam Makhachev", "Alexander Volkanovski"), (("Ground and Pound", "Ground and Pound"), ()))
    state.advantage = 0
    strike = event(play(state, 0, "Ground and Pound"), "strike")
    assert strike.numbers["damage"] == 8 and state.players[1].stamina == 42 - 8
    assert describe(strike, ("Ann", "Bob")) == (
        "Ann: Ground and Pound hits Alexander Volkanovski for 8 (6 card + 6 STR − 9 DEF + 5 G&P = 8) → stamina 34"
    )
    state.players[1].guard = card_named("Block").id
    strike = event(play(state, 0, "Ground and Pound"), "strike")
    assert strike.numbers["damage"] == 3 and state.players[1].stamina == 34 - 3
    assert state.advantage == 0 and state.players[1].guard == NO_ONE
    assert describe(strike, ("Ann", "Bob")) == (
        "Ann: Ground and Pound hits Alexander Volkanovski for 3 "
        "(6 card + 6 STR − 9 DEF + 5 G&P = 8, − 5 Block = 3) → stamina 31"
    )


def test_the_feed_and_the_rules_in_short_mark_what_to_see_first():
    """The engine's text is plain; a Discord message marks the card played, its damage and each rule's heading
    (in bold) through `strong`."""
    state = position(("Islam Makhachev", "Alexander Volkanovski"), (("Ground and Pound",), ()))
    state.advantage = 0
    events = play(state, 0, "Ground and Pound")
    assert describe(event(events, "strike"), ("Ann", "Bob"), strong="<{}>".format) == (
        "Ann: <Ground and Pound> hits Alexander Volkanovski for <8> (6 card + 6 STR − 9 DEF + 5 G&P = 8) → stamina 34"
    )
    assert rules_summary("<{}>".format).splitlines()[:2] == [
        "<MMA Warriors> — two corners, one 75-card deck each (15 fighters, 24 techniques ×2, 3 corner cards ×4).",
        "<Start:> 100 health; an opening hand of 1 fighter (deployed at once) + 4 cards. Player 1 goes first.",
    ]
    assert "*" not in rules_summary()


def test_ground_and_pound_feed_line_shows_the_card_floor():
    state = position(("Islam Makhachev", "Alexander Volkanovski"), (("Ground and Pound",), ()))
    state.advantage = 0
    state.players[1].coach = 4  # DEF 13
    strike = event(play(state, 0, "Ground and Pound"), "strike")
    assert describe(strike, ("Ann", "Bob")) == (
        "Ann: Ground and Pound hits Alexander Volkanovski for 6 "
        "(6 card + 6 STR − 13 DEF + 5 G&P = 4 → at least 6) → stamina 36"
    )


def test_strike_through_the_engine_resets_position_and_spends_training():
    state = position(("Alex Pereira", "Alexander Volkanovski"), (("Intense Training", "Head Kick"), ()))
    state.advantage = 1
    play(state, 0, "Intense Training")
    assert state.players[0].training == 3
    events = play(state, 0, "Head Kick")
    strike = event(events, "strike")
    assert strike.numbers["damage"] == 16 and strike.numbers["bonus"] == 3
    assert state.players[1].stamina == 42 - 16
    assert state.players[0].training == 0 and state.advantage == NO_ONE
    assert state.players[0].energy == 16 - 2 - 4
    assert "16" in str(describe(strike, ("Ann", "Bob")))


def test_intense_training_stacks_until_the_next_strike():
    state = position(
        ("Alex Pereira", "Alexander Volkanovski"),
        (("Intense Training", "Intense Training", "Quick Jab", "Quick Jab"), ()),
    )
    play(state, 0, "Intense Training")
    play(state, 0, "Intense Training")
    assert event(play(state, 0, "Quick Jab"), "strike").numbers["damage"] == 3 + 10 + 6 - 9 + 2
    assert event(play(state, 0, "Quick Jab"), "strike").numbers["damage"] == 3 + 10 - 9 + 2


def test_ground_and_pound_needs_advantage_and_keeps_it():
    state = position(("Charles Oliveira", "Alex Pereira"), (("Ground and Pound",), ()))
    gnp = card_named("Ground and Pound").id
    assert play_action(0, gnp) not in legal_actions(state, 0)
    assert {o.card: o.problem for o in card_options(state, 0)}[gnp] == "needs positional advantage"
    with pytest.raises(IllegalAction, match="needs positional advantage"):
        play(state, 0, "Ground and Pound")
    state.advantage = 0
    assert play_action(0, gnp) in legal_actions(state, 0)
    assert event(play(state, 0, "Ground and Pound"), "strike").numbers["damage"] == 12
    assert state.advantage == 0


# --------------------------------------------------------------------------------------------------
# Takedowns


def test_stamina_penalties_at_each_threshold():
    # Magomed Ankalaev, 40 stamina: 70% = 28, 50% = 20, 30% = 12.
    assert [stamina_penalty(s, 40) for s in (40, 28, 27, 20, 19, 12, 11, 1)] == [0, 0, 1, 1, 2, 2, 3, 3]


def test_takedown_chance_with_each_stamina_penalty():
    # Alex Pereira (GRP 4) Clinch (+2) = 6 against Ankalaev (GRP 8).
    chances = [takedown_odds(4, 2, False, 8, stamina, 40).chance_tenths for stamina in (40, 27, 19, 11)]
    assert chances == [3, 4, 5, 6]  # 30%, then 40/50/60% as fatigue costs him 1/2/3
    # Volkanovski (GRP 8) Single Leg (+2) = 10 against Ankalaev at full: 50% + 20% = 70%.
    assert takedown_odds(8, 2, False, 8, 40, 40).chance_tenths == 7


def test_takedown_chance_style_bonus_and_clamps():
    # Islam (Grappler, GRP 10) Double Leg (+3): 10 + 3 + 2 = 15 against Pereira's 4: clamped to 90%.
    odds = takedown_odds(10, 3, True, 4, 34, 34)
    assert (odds.attacker_score, odds.defender_score, odds.chance_tenths) == (15, 4, 9)
    # Pereira Clinch (6) against Islam (10): 50% - 40% = 10%, and never lower.
    assert takedown_odds(4, 2, False, 10, 40, 40).chance_tenths == 1
    assert takedown_odds(4, 2, False, 12, 40, 40).chance_tenths == 1


def test_takedown_impact():
    # Islam Suplex (5) on Pereira: 5 + 10 // 3 - 4 // 3 = 7; Pereira Clinch (1) on Islam: at least 1.
    assert takedown_impact(5, 10, 4) == 7
    assert takedown_impact(1, 4, 10) == 1


def test_takedown_success_takes_the_top_and_clears_the_guard():
    state = position(("Alexander Volkanovski", "Magomed Ankalaev"), (("Single Leg Takedown",), ()))
    state.advantage = 1
    state.players[1].guard = card_named("Block").id
    events = play(state, 0, "Single Leg Takedown", ScriptedRandom(0.69))  # 70% chance: 0.69 succeeds
    takedown = event(events, "takedown")
    assert takedown.numbers["success"] and takedown.numbers["chance_tenths"] == 7
    assert takedown.numbers["impact"] == 2 + 8 // 3 - 8 // 3 == 2
    assert state.advantage == 0 and state.players[1].guard == NO_ONE
    assert state.players[1].stamina == 38


def test_stuffed_takedown_still_clears_the_guard_and_keeps_position():
    state = position(("Alexander Volkanovski", "Magomed Ankalaev"), (("Single Leg Takedown",), ()))
    state.advantage = 1
    state.players[1].guard = card_named("Parry").id
    takedown = event(play(state, 0, "Single Leg Takedown", ScriptedRandom(0.70)), "takedown")
    assert not takedown.numbers["success"] and takedown.numbers["cleared"] == card_named("Parry").id
    assert state.advantage == 1 and state.players[1].guard == NO_ONE and state.players[1].stamina == 40
    assert "stuffed" in str(describe(takedown, ("Ann", "Bob")))


def test_tired_defender_is_easier_to_take_down_in_play():
    state = position(("Alex Pereira", "Magomed Ankalaev"), (("Clinch",), ()))
    state.players[1].stamina = 11  # below 30%: -3
    takedown = event(play(state, 0, "Clinch", ScriptedRandom(0.55)), "takedown")
    assert takedown.numbers["penalty"] == 3 and takedown.numbers["chance_tenths"] == 6
    assert takedown.numbers["success"]
    # Impact: Clinch 1 + 4 // 3 - 8 // 3 = 0, at least the card's 1.
    assert takedown.numbers["impact"] == 1 and state.players[1].stamina == 10
    assert describe(takedown, ("Ann", "Bob")) == (
        "Ann: Clinch lands (50% + 10% × (6 − (8 − 3 tired)) = 60%; rolled 55, needs under 60): "
        "on top, 1 damage → stamina 10"
    )


def test_takedown_feed_line_says_when_the_chance_is_held_at_90():
    state = position(("Islam Makhachev", "Alex Pereira"), (("Double Leg Takedown",), ()))
    takedown = event(play(state, 0, "Double Leg Takedown", ScriptedRandom(0.95)), "takedown")
    assert not takedown.numbers["success"] and state.advantage == NO_ONE
    assert describe(takedown, ("Ann", "Bob")) == (
        "Ann: Double Leg Takedown stuffed (50% + 10% × (15 − 4) = 160%, held to 90%; rolled 95, needs under 90)"
    )


# --------------------------------------------------------------------------------------------------
# Submissions


def test_submission_formula_from_top_and_bottom():
    # Charles Oliveira (Grappler, GRP 10) Rear Naked Choke (15) on Volkanovski (GRP 8).
    assert submission_damage(15, True, 10, True, 8).damage == 15 + 12 - 8 == 19
    bottom = submission_damage(15, False, 10, True, 8)
    assert (bottom.base, bottom.damage) == (9, 9 + 12 - 8)  # floor(15 * 0.6) = 9
    # Pereira (GRP 4) Guillotine (10) on Islam (GRP 10): at least the base, 10 on top and 6 from bottom.
    assert submission_damage(10, True, 4, False, 10).damage == 10
    assert submission_damage(10, False, 4, False, 10).damage == 6
    # Block (-5) works on submissions too: 19 - 5.
    assert submission_damage(15, True, 10, True, 8, reduction=5).damage == 14


def test_submission_needs_the_ground_and_keeps_it():
    state = position(("Charles Oliveira", "Alexander Volkanovski"), (("Rear Naked Choke", "Kimura"), ()))
    rnc = card_named("Rear Naked Choke").id
    assert play_action(0, rnc) not in legal_actions(state, 0)
    state.advantage = 1  # on the ground, Charles on the bottom
    sub = event(play(state, 0, "Rear Naked Choke"), "submission")
    assert (sub.numbers["on_top"], sub.numbers["damage"]) == (False, 13)
    assert state.advantage == 1 and state.players[1].stamina == 42 - 13
    # Kimura from the bottom: base floor(6.6) = 6, + 12 - 8 = 10.
    assert event(play(state, 0, "Kimura"), "submission").numbers["damage"] == 10
    assert describe(sub, ("Ann", "Bob")) == (
        "Ann: Rear Naked Choke on Alexander Volkanovski for 13 "
        "(base 9 from bottom (60% of 15) + 12 GRP − 8 GRP = 13) → stamina 29"
    )


@pytest.mark.parametrize(
    ("guard", "damage", "counter"), [("Block", 19 - 5, 0), ("Parry", 19 - 3, 3 + 8 // 4), ("Slip Counter", 19 - 8, 4)]
)
def test_each_defense_card_works_on_a_submission_and_counters_the_attacker(guard, damage, counter):
    # Charles Oliveira on top, Rear Naked Choke: 15 + (10 + 2) - 8 = 19 on Volkanovski (STR 8) before defense.
    state = position(("Charles Oliveira", "Alexander Volkanovski"), (("Rear Naked Choke",), ()))
    state.advantage = 0
    state.players[1].guard = card_named(guard).id
    events = play(state, 0, "Rear Naked Choke")
    assert event(events, "submission").numbers["damage"] == damage
    assert state.players[1].stamina == 42 - damage
    assert [e.numbers["damage"] for e in events if e.kind == "counter"] == ([counter] if counter else [])
    assert state.players[0].stamina == 36 - counter
    assert state.advantage == 0 and state.players[1].guard == NO_ONE  # the counter does not stand them up


def test_a_bottom_submission_into_slip_counter_still_does_1():
    # Pereira (GRP 4) Guillotine from the bottom on Islam: base 6, 6 + 4 - 10 = 0 → 6; Slip Counter 6 - 8 → 1.
    state = position(("Alex Pereira", "Islam Makhachev"), (("Guillotine Choke",), ()))
    state.advantage = 1
    state.players[1].guard = card_named("Slip Counter").id
    sub = event(play(state, 0, "Guillotine Choke"), "submission")
    assert (sub.numbers["before_defense"], sub.numbers["damage"]) == (6, 1)
    assert describe(sub, ("Ann", "Bob")) == (
        "Ann: Guillotine Choke on Islam Makhachev for 1 (base 6 from bottom (60% of 10) + 4 GRP − 10 GRP"
        " = 0 → at least 6, − 8 Slip Counter = -2 → at least 1) → stamina 39"
    )


# --------------------------------------------------------------------------------------------------
# Defense cards and counters


def test_counter_damage():
    assert counter_damage(card_named("Parry").id, 10) == 3 + 10 // 4 == 5
    assert counter_damage(card_named("Parry").id, 6) == 4
    assert counter_damage(card_named("Slip Counter").id, 99) == 4
    assert counter_damage(card_named("Block").id, 10) == 0


@pytest.mark.parametrize(
    ("guard", "damage", "counter"), [("Block", 13 - 5, 0), ("Parry", 13 - 3, 5), ("Slip Counter", 13 - 8, 4)]
)
def test_each_defense_card_reduces_the_next_strike_and_counters(guard, damage, counter):
    # Volkanovski readies a defense on his turn; Pereira's Head Kick (13 before defense) runs into it.
    # Parry's counter is 3 + 8 // 4 = 5 from Volkanovski's STR 8; the counter hits Pereira.
    state = position(("Alex Pereira", "Alexander Volkanovski"), (("Head Kick",), (guard,)), current=1)
    play(state, 1, guard)
    apply_in_place(state, simple_action(1, END_TURN), ScriptedRandom())
    apply_in_place(state, simple_action(0, SKIP_DRAW), ScriptedRandom())
    events = play(state, 0, "Head Kick")
    assert event(events, "strike").numbers["damage"] == damage
    assert state.players[1].stamina == 42 - damage
    assert [e.numbers["damage"] for e in events if e.kind == "counter"] == ([counter] if counter else [])
    assert state.players[0].stamina == 34 - counter
    assert state.players[1].guard == NO_ONE


def test_parry_counter_scales_with_defender_striking_and_can_knock_out():
    state = position(("Alex Pereira", "Alex Pereira"), (("Quick Jab",), ()))
    state.players[1].guard = card_named("Parry").id
    state.players[0].stamina = 5
    state.players[0].hand.append(card_named("Max Holloway").id)
    state.players[0].deck.remove(card_named("Max Holloway").id)
    events = play(state, 0, "Quick Jab")
    assert event(events, "strike").numbers["damage"] == 3 + 10 - 6 + 2 - 3
    assert event(events, "counter").numbers["damage"] == 5
    assert event(events, "knockout").player == 0
    assert (state.phase, state.replacing, state.players[0].health) == (REPLACE_PHASE, 0, 80)


def test_parry_counter_ignores_intense_training_but_counts_master_coach():
    parry = card_named("Parry").id
    state = position(("Islam Makhachev", "Alex Pereira"), (("Quick Jab",), ()))
    state.players[1].guard = parry
    state.players[1].training = 3  # 3 + (10 + 3) // 4 would be 6: the temporary bonus is for strikes only
    assert event(play(state, 0, "Quick Jab"), "counter").numbers["damage"] == 3 + 10 // 4 == 5
    state = position(("Islam Makhachev", "Alex Pereira"), (("Quick Jab",), ()))
    state.players[1].guard = parry
    state.players[1].coach = 2  # Master Coach is the fighter's striking: 3 + 12 // 4
    assert event(play(state, 0, "Quick Jab"), "counter").numbers["damage"] == 6


def test_intense_training_is_spent_on_a_defended_strike():
    state = position(("Alex Pereira", "Alexander Volkanovski"), (("Intense Training", "Quick Jab"), ()))
    state.players[1].guard = card_named("Block").id
    play(state, 0, "Intense Training")
    strike = event(play(state, 0, "Quick Jab"), "strike")
    assert strike.numbers["damage"] == 3 + 10 + 3 - 9 + 2 - 5 == 4 and state.players[0].training == 0


def test_a_new_defense_card_replaces_the_waiting_one():
    state = position(("Alex Pereira", "Islam Makhachev"), (("Block", "Slip Counter"), ()))
    play(state, 0, "Block")
    guard = event(play(state, 0, "Slip Counter"), "guard")
    assert guard.numbers["replaced"] == card_named("Block").id
    assert state.players[0].guard == card_named("Slip Counter").id


def test_defense_stops_bleed_and_stagger():
    state = position(("Alex Pereira", "Islam Makhachev"), (("Cutting Elbow", "Spinning Back Fist"), ()))
    state.players[1].guard = card_named("Block").id
    events = play(state, 0, "Cutting Elbow")
    assert not [e for e in events if e.kind == "bleeding"] and state.players[1].bleed == 0
    state.players[1].guard = card_named("Block").id
    play(state, 0, "Spinning Back Fist")
    assert not state.players[1].staggered


# --------------------------------------------------------------------------------------------------
# Bleed, stagger, corner cards


def test_bleed_ticks_two_damage_for_two_turns():
    state = position(("Alex Pereira", "Islam Makhachev"), (("Cutting Elbow",), ()))
    hit = event(play(state, 0, "Cutting Elbow"), "strike").numbers["damage"]
    assert hit == 5 + 10 - 8 + 2
    assert state.players[1].bleed == 2
    stamina = state.players[1].stamina
    rng = ScriptedRandom()
    events = apply_in_place(state, simple_action(0, END_TURN), rng)
    assert event(events, "bleed").numbers == {"damage": 2, "ticks_left": 1, "stamina": stamina - 2}
    bleed_line = f"Islam Makhachev bleeds for 2 (1 tick left) → stamina {stamina - 2}"
    assert describe(event(events, "bleed"), ("Ann", "Bob")) == bleed_line
    apply_in_place(state, simple_action(1, END_TURN), rng)
    events = apply_in_place(state, simple_action(0, END_TURN), rng)
    assert event(events, "bleed").numbers["ticks_left"] == 0 and state.players[1].stamina == stamina - 4
    apply_in_place(state, simple_action(1, END_TURN), rng)
    events = apply_in_place(state, simple_action(0, END_TURN), rng)
    assert not [e for e in events if e.kind == "bleed"] and state.players[1].stamina == stamina - 4


def test_stagger_skips_the_next_turn_entirely():
    state = position(("Alex Pereira", "Islam Makhachev"), (("Spinning Back Fist",), ()))
    play(state, 0, "Spinning Back Fist")
    assert state.players[1].staggered
    hand, deck = len(state.players[1].hand), len(state.players[1].deck)
    events = apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    assert [e.kind for e in events] == ["end_turn", "turn", "staggered", "end_turn", "turn"]
    assert state.current == 0 and state.phase == DRAW_PHASE
    assert state.players[1].turns == 2 and not state.players[1].staggered
    assert (len(state.players[1].hand), len(state.players[1].deck)) == (hand, deck)
    assert state.players[0].turns == 2 and state.players[0].energy == 10
    # The skipped turn was Islam's second: his next one is his third, 8 + 2 * 2 = 12 energy.
    apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    assert (state.current, state.players[1].turns, state.players[1].energy) == (1, 3, 12)
    assert describe(event(events, "staggered"), ("Ann", "Bob")) == "Islam Makhachev is staggered: Bob skips this turn"


def test_master_coach_is_permanent_and_draws():
    state = position(("Alex Pereira", "Alexander Volkanovski"), (("Master Coach", "Head Kick", "Head Kick"), ()))
    deck = len(state.players[0].deck)
    events = play(state, 0, "Master Coach")
    assert event(events, "coach").numbers["coach"] == 1 and event(events, "draw")
    assert len(state.players[0].deck) == deck - 1 and len(state.players[0].hand) == 3
    player = state.players[0]
    assert (player.striking, player.grappling, player.defense) == (11, 5, 7)
    # 10 + 11 - 9 + 2 = 14, and again next strike: permanent.
    assert event(play(state, 0, "Head Kick"), "strike").numbers["damage"] == 14
    assert event(play(state, 0, "Head Kick"), "strike").numbers["damage"] == 14


def test_master_coach_on_the_defender_raises_defense_and_grappling():
    # Volkanovski with one Master Coach: DEF 10 against Pereira's Head Kick, 10 + 10 - 10 + 2 = 12 ...
    state = position(("Alex Pereira", "Alexander Volkanovski"), (("Head Kick", "Clinch"), ()))
    state.players[1].coach = 1
    assert event(play(state, 0, "Head Kick"), "strike").numbers["damage"] == 12
    # ... and GRP 9 against a takedown: Pereira's Clinch 4 + 2 = 6 against 9: 20%.
    assert event(play(state, 0, "Clinch", ScriptedRandom(0.5)), "takedown").numbers["chance_tenths"] == 2
    # A coached attacker: Pereira +2 Clinches with 6 + 2 = 8 against Ankalaev's 8: 50%.
    state = position(("Alex Pereira", "Magomed Ankalaev"), (("Clinch",), ()))
    state.players[0].coach = 2
    assert event(play(state, 0, "Clinch", ScriptedRandom(0.5)), "takedown").numbers["chance_tenths"] == 5


def test_master_coach_goes_with_the_fighter_at_a_knockout():
    state = ko_position(100, ("Belal Muhammad",))
    state.players[1].coach = 3
    play(state, 0, "Head Kick")
    apply_in_place(state, deploy_action(1, card_named("Belal Muhammad").id), ScriptedRandom())
    belal = state.players[1]
    assert (belal.coach, belal.striking, belal.grappling, belal.defense) == (0, 6, 9, 8)


def test_ringside_medic_heals_ten_capped():
    state = position(("Alex Pereira", "Islam Makhachev"), (("Ringside Medic", "Ringside Medic"), ()))
    state.players[0].stamina = 20
    assert event(play(state, 0, "Ringside Medic"), "medic").numbers == {"healed": 10, "stamina": 30, "energy": 14}
    assert event(play(state, 0, "Ringside Medic"), "medic").numbers["healed"] == 4
    assert state.players[0].stamina == 34


# --------------------------------------------------------------------------------------------------
# Drawing


def test_smart_draw_passes_fighters_under_the_deck():
    state = position(("Alex Pereira", "Islam Makhachev"), (("Max Holloway", "Tom Aspinall"), ()), phase=DRAW_PHASE)
    me = state.players[0]
    top = ids("Quick Jab", "Ilia Topuria", "Belal Muhammad")  # Belal is the top card
    for card in top:
        me.deck.remove(card)
    me.deck += top
    events = apply_in_place(state, simple_action(0, DRAW), ScriptedRandom())
    draw = event(events, "draw")
    assert draw.card == card_named("Quick Jab").id and draw.numbers["fighters_skipped"] == 2
    assert (
        describe(draw, ("Ann", "Bob")) == f"Ann draws ({len(me.deck)} left in deck); 2 fighters passed under the deck"
    )
    assert me.deck[:2] == ids("Ilia Topuria", "Belal Muhammad")
    assert me.fighters_in_hand() == 2 and state.phase == MAIN_PHASE


def test_draw_fails_when_only_fighters_remain():
    state = position(("Alex Pereira", "Islam Makhachev"), (("Max Holloway", "Tom Aspinall"), ()), phase=DRAW_PHASE)
    me = state.players[0]
    others = [c for c in me.deck if c >= FIGHTER_COUNT]
    for card in others:
        me.deck.remove(card)
    me.discard += others
    deck = me.deck[:]
    assert event(apply_in_place(state, simple_action(0, DRAW), ScriptedRandom()), "draw_failed")
    assert me.deck == deck and state.phase == MAIN_PHASE and outcome(state) is None


def test_draw_into_a_full_hand_discards_the_oldest():
    hand = ("Quick Jab", "Block", "Parry", "Kimura", "Armbar", "Suplex", "Clinch", "Uppercut", "Leg Kick", "Body Shot")
    state = position(("Alex Pereira", "Islam Makhachev"), (hand, ()), phase=DRAW_PHASE)
    me = state.players[0]
    draw = event(apply_in_place(state, simple_action(0, DRAW), ScriptedRandom()), "draw")
    assert draw.numbers["discarded"] == card_named("Quick Jab").id
    assert len(me.hand) == 10 and me.hand[0] == card_named("Block").id and me.discard == ids("Quick Jab")


# --------------------------------------------------------------------------------------------------
# Knockouts and win conditions


def ko_position(health: int, hand: tuple[str, ...]) -> GameState:
    state = position(("Alex Pereira", "Islam Makhachev"), (("Head Kick",), hand))
    state.players[1].stamina = 5
    state.players[1].health = health
    state.players[1].bleed = 1
    state.players[1].staggered = True
    state.advantage = 1
    return state


def test_knockout_costs_twenty_health_and_asks_for_a_replacement():
    state = ko_position(100, ("Belal Muhammad", "Tom Aspinall", "Quick Jab"))
    events = play(state, 0, "Head Kick")
    assert event(events, "knockout").numbers == {"health_lost": 20, "health": 80}
    assert (state.phase, state.replacing, state.to_move, state.advantage) == (REPLACE_PHASE, 1, 1, NO_ONE)
    assert state.players[1].bleed == 0 and not state.players[1].staggered
    assert legal_actions(state, 1) == [deploy_action(1, c) for c in ids("Belal Muhammad", "Tom Aspinall")] + [
        simple_action(1, CONCEDE)
    ]
    assert legal_actions(state, 0) == [simple_action(0, CONCEDE)]
    with pytest.raises(IllegalAction, match="waiting for a replacement"):
        play(state, 0, "Quick Jab")
    apply_in_place(state, deploy_action(1, card_named("Tom Aspinall").id), ScriptedRandom())
    assert (state.phase, state.current, state.players[1].stamina) == (MAIN_PHASE, 0, 38)
    assert state.players[1].fielded == ids("Islam Makhachev", "Tom Aspinall")


def test_ai_replaces_with_its_best_fighter():
    state = ko_position(100, ("Alex Pereira", "Alexander Volkanovski"))
    play(state, 0, "Head Kick")
    assert ai.choose_action(state, 1, ScriptedRandom()) == deploy_action(1, card_named("Alexander Volkanovski").id)


def test_a_knocked_out_defender_does_not_counter():
    state = ko_position(100, ("Belal Muhammad",))
    state.players[1].guard = card_named("Parry").id
    events = play(state, 0, "Head Kick")
    assert not [e for e in events if e.kind == "counter"] and state.players[0].stamina == 34
    assert state.phase == REPLACE_PHASE


def bleed_out_position(hand: tuple[str, ...], top: str | None = None, health: int = 100) -> GameState:
    """Ann (player 0) in her main phase; Bob's Islam, staggered and coached, bleeds out as his turn starts.

    `top` goes on top of Bob's deck, so it is the card his next draw takes.
    """
    state = ko_position(health, hand)
    bob = state.players[1]
    bob.stamina = 2
    bob.coach = 2
    if top is not None:
        bob.deck.remove(card_named(top).id)
        bob.deck.append(card_named(top).id)
    return state


def test_bleed_knockout_is_replaced_after_the_draw_by_the_card_drawn():
    # RULINGS 6: Bob holds no fighter when Islam bleeds out; the draw brings Tom Aspinall, who comes in.
    state = bleed_out_position(("Quick Jab",), top="Tom Aspinall")
    events = apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    assert [e.kind for e in events] == ["end_turn", "turn", "bleed", "knockout"]
    bob = state.players[1]
    assert (state.phase, state.current, state.to_move, outcome(state)) == (DRAW_PHASE, 1, 1, None)
    assert (bob.fighter, bob.health, bob.energy, bob.staggered, bob.coach, bob.bleed) == (NO_ONE, 80, 10, False, 0, 0)
    # Draw or skip first; the turn cannot end without a fighter, and no card can be played yet.
    assert legal_actions(state, 1) == [simple_action(1, k) for k in (DRAW, SKIP_DRAW, CONCEDE)]
    with pytest.raises(IllegalAction, match="draw or skip the draw first; then your next fighter comes in"):
        apply_in_place(state, simple_action(1, END_TURN), ScriptedRandom())
    assert [o.problem for o in card_options(state, 1)] == ["draw or skip the draw first"]
    events = apply_in_place(state, simple_action(1, DRAW), ScriptedRandom())
    assert [(e.kind, e.card) for e in events] == [("draw", card_named("Tom Aspinall").id)]
    assert (state.phase, state.replacing, state.to_move) == (REPLACE_PHASE, 1, 1)
    assert legal_actions(state, 1) == [deploy_action(1, card_named("Tom Aspinall").id), simple_action(1, CONCEDE)]
    apply_in_place(state, deploy_action(1, card_named("Tom Aspinall").id), ScriptedRandom())
    assert (state.phase, state.current, bob.stamina, bob.energy) == (MAIN_PHASE, 1, 38, 10)
    assert bob.fielded == ids("Islam Makhachev", "Tom Aspinall") and bob.hand == ids("Quick Jab")


def test_a_fighter_in_hand_before_the_draw_can_still_be_the_one_picked():
    state = bleed_out_position(("Belal Muhammad",), top="Tom Aspinall")
    apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    fighter_problem = {o.card: o.problem for o in card_options(state, 1)}[card_named("Belal Muhammad").id]
    assert fighter_problem == "draw or skip the draw first; then your next fighter comes in"
    apply_in_place(state, simple_action(1, DRAW), ScriptedRandom())
    assert legal_actions(state, 1) == [deploy_action(1, c) for c in ids("Belal Muhammad", "Tom Aspinall")] + [
        simple_action(1, CONCEDE)
    ]


def test_no_fighter_in_hand_after_the_bleed_knockouts_draw_is_a_loss():
    state = bleed_out_position(("Quick Jab",), top="Head Kick")
    apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    events = apply_in_place(state, simple_action(1, DRAW), ScriptedRandom())
    assert [e.kind for e in events] == ["draw", "over"]
    assert outcome(state) == Outcome(0, NO_FIGHTERS)


@pytest.mark.parametrize(("hand", "result"), [(("Belal Muhammad",), None), (("Quick Jab",), Outcome(0, NO_FIGHTERS))])
def test_skipping_the_draw_after_a_bleed_knockout_asks_for_the_fighter_at_once(hand, result):
    state = bleed_out_position(hand, top="Tom Aspinall")  # the skipped draw would have brought a fighter
    apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    events = apply_in_place(state, simple_action(1, SKIP_DRAW), ScriptedRandom())
    assert outcome(state) == result
    if result is None:
        assert [e.kind for e in events] == ["skip_draw"]
        assert (state.phase, state.replacing) == (REPLACE_PHASE, 1)
        assert legal_actions(state, 1) == [deploy_action(1, card_named("Belal Muhammad").id), simple_action(1, CONCEDE)]
    else:
        assert [e.kind for e in events] == ["skip_draw", "over"]


def test_a_bleed_knockout_on_an_empty_deck_is_still_a_deck_out():
    state = bleed_out_position(("Belal Muhammad",))
    state.players[1].discard += state.players[1].deck
    state.players[1].deck = []
    events = apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    assert [e.kind for e in events] == ["end_turn", "turn", "bleed", "knockout", "over"]
    assert outcome(state) == Outcome(0, DECK_OUT)


def test_a_bleed_knockout_that_depletes_health_ends_the_match_before_the_draw():
    state = bleed_out_position(("Belal Muhammad",), health=20)
    events = apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    assert [e.kind for e in events] == ["end_turn", "turn", "bleed", "knockout", "over"]
    assert outcome(state) == Outcome(0, HEALTH_DEPLETED)


def test_the_state_waiting_for_a_bleed_knockouts_draw_round_trips_through_json():
    state = bleed_out_position(("Quick Jab",), top="Tom Aspinall")
    apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    loaded = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert loaded == state and loaded.players[1].fighter == NO_ONE and loaded.phase == DRAW_PHASE
    assert apply_in_place(loaded, simple_action(1, DRAW), ScriptedRandom()) == apply_in_place(
        state, simple_action(1, DRAW), ScriptedRandom()
    )
    assert loaded == state and loaded.phase == REPLACE_PHASE


def test_master_coach_on_an_empty_deck_draws_nothing_and_is_no_loss():
    state = position(("Alex Pereira", "Islam Makhachev"), (("Master Coach",), ()))
    state.players[0].discard += state.players[0].deck
    state.players[0].deck = []
    events = play(state, 0, "Master Coach")
    assert [e.kind for e in events] == ["coach"] and outcome(state) is None


def test_win_by_health_depleted():
    state = ko_position(20, ("Belal Muhammad",))
    play(state, 0, "Head Kick")
    assert outcome(state) == Outcome(0, HEALTH_DEPLETED) and state.phase == OVER
    assert legal_actions(state, 0) == legal_actions(state, 1) == []


def test_win_by_no_fighters_in_hand():
    state = ko_position(100, ("Quick Jab",))
    play(state, 0, "Head Kick")
    assert outcome(state) == Outcome(0, NO_FIGHTERS)


def test_win_by_deck_out():
    state = position(("Alex Pereira", "Islam Makhachev"))
    state.players[1].discard += state.players[1].deck
    state.players[1].deck = []
    events = apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    assert outcome(state) == Outcome(0, DECK_OUT) and events[-1].kind == "over"


def test_judges_decision_after_100_turns_each():
    state = position(("Alex Pereira", "Islam Makhachev"), current=1)
    state.players[0].turns = state.players[1].turns = MAX_TURNS
    state.players[0].health = 60
    state.players[1].health = 80
    apply_in_place(state, simple_action(1, END_TURN), ScriptedRandom())
    assert outcome(state) == Outcome(1, JUDGES)
    state = position(("Alex Pereira", "Islam Makhachev"), current=1)
    state.players[0].turns = state.players[1].turns = MAX_TURNS
    apply_in_place(state, simple_action(1, END_TURN), ScriptedRandom())
    assert outcome(state) == Outcome(None, JUDGES)
    state = position(("Alex Pereira", "Islam Makhachev"), current=0)
    state.players[0].turns = state.players[1].turns = MAX_TURNS - 1
    state.players[0].turns += 1
    apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    assert outcome(state) is None and state.players[1].turns == MAX_TURNS


def test_either_player_may_concede_at_any_time():
    state, _ = new_game(1)
    apply_in_place(state, simple_action(1, CONCEDE), ScriptedRandom())
    assert outcome(state) == Outcome(0, CONCEDED)


# --------------------------------------------------------------------------------------------------
# Legal actions, errors, JSON


def test_legal_actions_by_phase():
    state = position(
        ("Alex Pereira", "Islam Makhachev"),
        (("Head Kick", "Rear Naked Choke", "Max Holloway", "Head Kick"), ()),
        phase=DRAW_PHASE,
    )
    assert legal_actions(state, 0) == [simple_action(0, k) for k in (DRAW, SKIP_DRAW, END_TURN, CONCEDE)]
    assert legal_actions(state, 1) == [simple_action(1, CONCEDE)]
    options = {o.card: o for o in card_options(state, 0)}
    assert options[card_named("Head Kick").id].problem == "draw or skip the draw first"
    assert options[card_named("Head Kick").id].copies == 2
    apply_in_place(state, simple_action(0, SKIP_DRAW), ScriptedRandom())
    assert legal_actions(state, 0) == [
        play_action(0, card_named("Head Kick").id),
        simple_action(0, END_TURN),
        simple_action(0, CONCEDE),
    ]
    options = {o.card: o.problem for o in card_options(state, 0)}
    assert options[card_named("Rear Naked Choke").id] == "needs the fight on the ground"
    assert str(options[card_named("Max Holloway").id]).startswith("a fighter is already deployed")
    state.players[0].energy = 3
    assert {o.card: o.problem for o in card_options(state, 0)}[card_named("Head Kick").id] == (
        "needs 4 energy, you have 3"
    )
    assert legal_actions(state, 0) == [simple_action(0, END_TURN), simple_action(0, CONCEDE)]


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    state, _ = new_game(5)
    before = state.to_dict()
    for action, reason in [
        (simple_action(1, DRAW), "it is not your turn"),
        (play_action(0, state.players[0].hand[0]), "draw or skip the draw first"),
        (deploy_action(0, 0), "a fighter is already deployed"),
        (Action(0, "dance"), "unknown action"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            apply_in_place(state, action, ScriptedRandom())
    assert state.to_dict() == before
    apply_in_place(state, simple_action(0, DRAW), ScriptedRandom())
    with pytest.raises(IllegalAction, match="already drawn"):
        apply_in_place(state, simple_action(0, SKIP_DRAW), ScriptedRandom())
    assert isinstance(IllegalAction("x"), RuleInputError)


def test_state_round_trips_through_json_and_replays_identically():
    rng = random.Random(11)
    state, _ = new_game(11, rng)
    for _ in range(25):
        apply_in_place(state, ai.choose_action(state, state.to_move, rng), rng)
    assert state.phase != OVER
    saved = json.dumps(state.to_dict())
    loaded = GameState.from_dict(json.loads(saved))
    assert loaded == state and loaded.to_dict() == state.to_dict()
    rng_a, rng_b = random.Random(5), random.Random(5)
    a = None
    while state.phase != OVER:
        a = ai.choose_action(state, state.to_move, rng_a)
        b = ai.choose_action(loaded, loaded.to_move, rng_b)
        assert a == b
        assert apply_in_place(state, a, rng_a) == apply_in_place(loaded, b, rng_b)
    assert loaded == state
    assert a is not None and Action.from_dict(json.loads(json.dumps(a.to_dict()))) == a


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["players"][0]["hand"].append(3),
        lambda d: d["players"][1].update(deck=["x"]),
        lambda d: d.update(phase="sleeping"),
        lambda d: d.pop("seed"),
    ],
)
def test_damaged_saves_are_refused(damage):
    state, _ = new_game(2)
    data = json.loads(json.dumps(state.to_dict()))
    damage(data)
    with pytest.raises(RuleInputError, match="damaged"):
        GameState.from_dict(data)


# --------------------------------------------------------------------------------------------------
# The AI, as "AI Opponent Behavior" describes it (ScriptedRandom feeds its random choices in order)


def ai_position(hand: tuple[str, ...], *, plays: int = 0, advantage: int = NO_ONE) -> GameState:
    state = position(("Alex Pereira", "Islam Makhachev"), ((), hand), current=1)
    state.plays = plays
    state.advantage = advantage
    return state


def test_ai_heals_first_below_40_percent_stamina():
    state = ai_position(("Head Kick", "Ringside Medic", "Master Coach"))
    state.players[1].stamina = 15  # 37.5% of 40: the Medic comes first, no roll needed
    assert ai.choose_action(state, 1, ScriptedRandom()) == play_action(1, card_named("Ringside Medic").id)
    state.players[1].stamina = 16  # 40%: not below; the corner roll (0.5) misses, a technique is played
    assert ai.choose_action(state, 1, ScriptedRandom(0.5, 0.0)) == play_action(1, card_named("Head Kick").id)


def test_ai_plays_a_useful_corner_card_30_percent_of_the_time():
    state = ai_position(("Quick Jab", "Master Coach", "Ringside Medic"))
    coach, jab = card_named("Master Coach").id, card_named("Quick Jab").id
    # At full stamina the Medic is no use, so Master Coach is the only corner card in the draw.
    assert ai.choose_action(state, 1, ScriptedRandom(0.29, 0.99)) == play_action(1, coach)
    assert ai.choose_action(state, 1, ScriptedRandom(0.30, 0.0)) == play_action(1, jab)


def test_ai_trains_for_a_ground_and_pound_too():
    # Intense Training's bonus goes to every strike, Ground and Pound included: holding one is reason enough.
    state = ai_position(("Intense Training", "Ground and Pound"))
    training = card_named("Intense Training").id
    assert ai.choose_action(state, 1, ScriptedRandom(0.0, 0.0)) == play_action(1, training)


def test_ai_picks_techniques_at_random_among_the_valid_ones():
    hand = ("Quick Jab", "Ground and Pound", "Rear Naked Choke", "Head Kick")
    standing = ai_position(hand)
    # Standing: Ground and Pound and submissions are not options, so the choice is between two strikes.
    assert ai.choose_action(standing, 1, ScriptedRandom(0.49)) == play_action(1, card_named("Quick Jab").id)
    assert ai.choose_action(standing, 1, ScriptedRandom(0.5)) == play_action(1, card_named("Head Kick").id)
    # On the ground, on the bottom: the submission is an option, Ground and Pound is not.
    bottom = ai_position(hand, advantage=0)
    assert [ai.choose_action(bottom, 1, ScriptedRandom(r)).card for r in (0.0, 0.34, 0.67)] == ids(
        "Quick Jab", "Rear Naked Choke", "Head Kick"
    )
    # On top: all four.
    top = ai_position(hand, advantage=1)
    assert [ai.choose_action(top, 1, ScriptedRandom(r)).card for r in (0.0, 0.25, 0.5, 0.75)] == ids(*hand)


def test_ai_never_plays_ground_and_pound_or_submissions_standing():
    state = ai_position(("Ground and Pound", "Rear Naked Choke"))
    assert ai.choose_action(state, 1, ScriptedRandom(0.0)) == simple_action(1, END_TURN)


def test_ai_keeps_playing_with_70_percent_chance_after_its_first_card():
    state = ai_position(("Quick Jab", "Head Kick"), plays=1)
    assert ai.choose_action(state, 1, ScriptedRandom(0.70)) == simple_action(1, END_TURN)
    assert ai.choose_action(state, 1, ScriptedRandom(0.69, 0.0)) == play_action(1, card_named("Quick Jab").id)


def test_ai_does_not_replace_a_waiting_defense_card():
    state = ai_position(("Block", "Parry"))
    assert ai.choose_action(state, 1, ScriptedRandom(0.0)) == play_action(1, card_named("Block").id)
    state.players[1].guard = card_named("Block").id
    assert ai.choose_action(state, 1, ScriptedRandom(0.0)) == simple_action(1, END_TURN)


def test_ai_draws_unless_a_full_hand_has_something_to_play():
    state = ai_position(("Quick Jab",))
    state.phase = DRAW_PHASE
    assert ai.choose_action(state, 1, ScriptedRandom()) == simple_action(1, DRAW)
    full = ("Quick Jab", "Block", "Parry", "Kimura", "Armbar", "Suplex", "Clinch", "Uppercut", "Leg Kick", "Body Shot")
    state = ai_position(full)
    state.phase = DRAW_PHASE
    assert ai.choose_action(state, 1, ScriptedRandom()) == simple_action(1, SKIP_DRAW)


def test_ai_after_a_bleed_knockout_draws_for_a_fighter_and_guards_its_only_one():
    full = ("Quick Jab", "Block", "Parry", "Kimura", "Armbar", "Suplex", "Clinch", "Uppercut", "Leg Kick", "Body Shot")
    # No fighter in hand: it draws even with a full hand of playable cards (the draw is its only chance).
    state = bleed_out_position(full)
    apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    assert ai.choose_action(state, 1, ScriptedRandom()) == simple_action(1, DRAW)
    # Its only fighter is the oldest card of a full hand: a draw would discard it, so it skips, though with
    # nothing playable (no energy) it would otherwise draw to cycle the hand.
    state = bleed_out_position(("Belal Muhammad", *full[1:]))
    apply_in_place(state, simple_action(0, END_TURN), ScriptedRandom())
    state.players[1].energy = 0
    assert ai.choose_action(state, 1, ScriptedRandom()) == simple_action(1, SKIP_DRAW)
    state.players[1].hand.append(state.players[1].hand.pop(0))  # the fighter is now the newest card: safe
    assert ai.choose_action(state, 1, ScriptedRandom()) == simple_action(1, DRAW)


def test_ai_bleeding_out_at_its_turn_start_draws_then_deploys_the_fighter_it_drew():
    state = bleed_out_position(("Quick Jab",), top="Tom Aspinall")
    actions, events = ai.play_move_in_place(state, simple_action(0, END_TURN), ai_player=1)
    tom = card_named("Tom Aspinall").id
    assert actions[:3] == [simple_action(0, END_TURN), simple_action(1, DRAW), deploy_action(1, tom)]
    assert [e.kind for e in events[:6]] == ["end_turn", "turn", "bleed", "knockout", "draw", "deploy"]
    assert state.players[1].fielded == ids("Islam Makhachev", "Tom Aspinall") and outcome(state) is None


def test_ai_turn_plays_out_through_play_move_in_place_and_replays_from_the_seed():
    state, _ = new_game(21)
    again = state.copy()
    actions, events = ai.play_move_in_place(state, simple_action(0, END_TURN), ai_player=1)
    assert actions[0] == simple_action(0, END_TURN) and all(a.player == 1 for a in actions[1:])
    assert actions[-1] == simple_action(1, END_TURN) and state.to_move == 0
    assert ai.play_move_in_place(again, simple_action(0, END_TURN), ai_player=1) == (actions, events)


# --- the engine contract (rules/contract.py) ------------------------------------------------------------


def test_the_engine_keeps_the_turn_based_contract():
    import rules.mma.engine as mma_engine
    from rules.contract import TurnBasedEngine

    engine: TurnBasedEngine[GameState, Action] = mma_engine  # pyright checks the module against the Protocol
    state, _ = new_game(7)
    assert engine.legal_actions(state, 1) == [simple_action(1, CONCEDE)]  # not their turn: only conceding
    assert engine.outcome(state) is None


def test_applied_leaves_its_input_as_it_was_and_equals_the_move_in_place():
    from rules.mma.engine import applied, replay_rng

    state, _ = new_game(7)
    before = state.to_dict()
    new, events = applied(state, simple_action(0, DRAW), replay_rng(state))
    assert state.to_dict() == before
    assert apply_in_place(state, simple_action(0, DRAW), replay_rng(state)) == events
    assert state.to_dict() == new.to_dict() and state.moves == 1


def test_a_finished_match_has_a_typed_outcome_whose_values_are_the_stored_words():
    from rules.mma.state import EndReason

    state, _ = new_game(7)
    apply_in_place(state, simple_action(1, CONCEDE), ScriptedRandom())
    result = outcome(state)
    assert result is not None and result.termination is EndReason.CONCEDED and result.winner == 0
    assert json.loads(json.dumps(state.to_dict()))["reason"] == "conceded"


# --- the hand view's preview (rules/mma/preview.py) --------------------------------------------------------


def test_the_preview_of_ground_and_pound_is_the_rulings_example_and_changes_nothing():
    from rules.mma.preview import preview

    state = position(("Islam Makhachev", "Alexander Volkanovski"), (("Ground and Pound",), ()))
    state.advantage = 0
    before = state.to_dict()
    shown = preview(state, 0, card_named("Ground and Pound").id)
    assert shown is not None and shown.success_percent is None
    strike = event(list(shown.events), "strike")
    assert strike.numbers["damage"] == 8  # RULINGS 6: max(6, 6 + 6 - 9 + 0 + 5) = 8
    assert state.to_dict() == before  # a preview plays on a copy
    assert list(shown.events) == play(state, 0, "Ground and Pound")  # exactly what the move then does


def test_the_preview_counts_a_waiting_defense_card_and_gives_a_takedowns_chance():
    from rules.mma.preview import preview

    state = position(("Islam Makhachev", "Alexander Volkanovski"), (("Ground and Pound", "Double Leg Takedown"), ()))
    state.advantage = 0
    state.players[1].guard = card_named("Block").id
    shown = preview(state, 0, card_named("Ground and Pound").id)
    assert shown is not None and event(list(shown.events), "strike").numbers["damage"] == 3  # 8 - Block's 5
    state.advantage = NO_ONE
    takedown = preview(state, 0, card_named("Double Leg Takedown").id)
    assert takedown is not None and takedown.success_percent is not None
    odds = event(list(takedown.events), "takedown").numbers
    assert takedown.success_percent == odds["chance_tenths"] * 10 and odds["success"]
    assert "roll" not in odds  # foreseen, not rolled: the feed's words for it name no roll
    assert "rolled" not in str(describe(event(list(takedown.events), "takedown"), ("Ann", "Bob")))
    assert preview(state, 1, card_named("Ground and Pound").id) is None  # not their turn


def test_ringside_medic_does_nothing_at_full_stamina_and_stays_playable():
    state = position(("Tom Aspinall", "Alex Pereira"), (("Ringside Medic",), ()))
    medic = card_named("Ringside Medic").id
    (option,) = card_options(state, 0)
    assert (option.card, option.problem, option.no_effect) == (medic, None, "your fighter is at full stamina")
    state.players[0].stamina -= 1
    (option,) = card_options(state, 0)
    assert (option.problem, option.no_effect) == (None, None)


def test_a_mirror_match_names_whose_fighter_it_is():
    state = position(("Tom Aspinall", "Tom Aspinall"), (("Quick Jab",), ()))
    state.players[1].stamina = 1
    events = play(state, 0, "Quick Jab")
    shared = shared_fighters(state)
    assert shared == {card_named("Tom Aspinall").id}
    assert describe(event(events, "knockout"), ("Ann", "Bob"), shared) == (
        "💥 KO! Bob's Tom Aspinall is out; Bob loses 20 health (80 left)"
    )
    assert str(describe(event(events, "knockout"), ("Ann", "Bob"))).startswith("💥 KO! Tom Aspinall is out")
