"""The party fight (RULINGS 9) and the worked example of docs/rules/andor.md, as exact numbers."""

from __future__ import annotations

import pytest

import rules.andor.party as party_engine
from rules.andor.bestiary import builtin_monsters
from rules.andor.models import AttackEvent, Character, Ending, Monster
from rules.andor.party import (
    ATTACK,
    END_TURN,
    FLEE,
    POTION,
    TIMEOUT,
    PartyAction,
    PartyState,
    aim,
    applied,
    apply_in_place,
    legal_actions,
    member_ending,
    outcome,
    remove,
    replay_rng,
    replayed,
    settle_member,
    start_party,
)
from rules.andor.party_text import describe_party_event
from rules.errors import RuleInputError


def monster(name: str) -> Monster:
    return next(m for m in builtin_monsters() if m.name == name)


# The worked example's party: Ann and Ben hit hard, Cid is frail (max HP 8).
PARTY = (
    (1, "Ann", Character(attack_chance=150, damage_min=6, damage_max=10)),
    (2, "Ben", Character(attack_chance=120, damage_min=4, damage_max=8)),
    (3, "Cid", Character(attack_chance=90, damage_min=2, damage_max=4, potions=0, base_hp=3)),
)


def play(state: PartyState, action: PartyAction) -> list[str]:
    return [describe_party_event(e) for e in apply_in_place(state, action, replay_rng(state))]


def attack_or_end(state: PartyState) -> PartyAction:
    return ATTACK if ATTACK in legal_actions(state, state.turn) else END_TURN


def test_the_worked_example_three_against_two_wolves():
    state = start_party(PARTY, monster("Wolf"), 2, seed=59)
    lines = [describe_party_event(e) for e in state.feed]
    while state.phase == "playing":
        lines += play(state, attack_or_end(state))
    assert lines == [
        "Round 1: Ann's turn, 10 AP",
        "Ann → Wolf 1: hit (rolled 55 ≤ 83%), damage 9 (rolled 9); 21 HP left",
        "Ann → Wolf 1: hit (rolled 80 ≤ 83%), damage 10 (rolled 10); 11 HP left",
        "Round 1: Ben's turn, 10 AP",
        "Ben → Wolf 1: hit (rolled 71 ≤ 75%), damage 8 (rolled 8); 3 HP left",
        "Ben → Wolf 1: hit (rolled 8 ≤ 75%), damage 5 (rolled 5); killed",
        # 49 // 3 = 16 each, the 1 left over to Ben's killing blow; gold 23 // 3 = 7, 2 left over to Ben
        "Wolf 1 gave 49 XP and 23 gold pieces: Ann +16 XP +7g, Ben +17 XP +9g, Cid +16 XP +7g",
        "Round 1: Cid's turn, 10 AP",
        "Cid → Wolf 2: hit (rolled 54 ≤ 57%), damage 2 (rolled 2); 28 HP left",
        "Cid → Wolf 2: hit (rolled 28 ≤ 57%), damage 2 (rolled 2); 26 HP left",
        # threat: Cid alone has damaged Wolf 2, so both its attacks go to him
        "The monsters' turn",
        "Wolf 2 → Cid: hit (rolled 31 ≤ 78%), damage 6 (rolled 6); 2 HP left",
        "Wolf 2 → Cid: hit (rolled 47 ≤ 78%), damage 6 (rolled 6); killed",
        "Cid is knocked out",
        "Round 2: Ann's turn, 10 AP",
        "Ann → Wolf 2: hit (rolled 7 ≤ 83%), damage 8 (rolled 8); 18 HP left",
        "Ann → Wolf 2: hit (rolled 68 ≤ 83%), damage 6 (rolled 6); 12 HP left",
        "Round 2: Ben's turn, 10 AP",
        "Ben → Wolf 2: hit (rolled 72 ≤ 75%), damage 7 (rolled 7); 5 HP left",
        "Ben → Wolf 2: hit (rolled 57 ≤ 75%), damage 6 (rolled 6); killed",
        # two stand now: 49 // 2 = 24, the 1 left over to Ben; gold 11 // 2 = 5, 1 to Ben
        "Wolf 2 gave 49 XP and 11 gold pieces: Ann +24 XP +5g, Ben +25 XP +6g",
        "Victory for the party",
    ]
    assert outcome(state) is not None and outcome(state) == party_engine.Outcome(0, Ending.WON)
    assert [(m.xp_gained, m.gold_gained, m.kills, m.status) for m in state.members] == [
        (40, 12, 0, "standing"),
        (42, 15, 2, "standing"),
        (16, 7, 0, "knocked_out"),
    ]
    assert [member_ending(state, i) for i in range(3)] == [Ending.WON, Ending.WON, Ending.LOST]
    # Cid keeps his share, then loses 30% of the XP he holds: 16 - 4 = 12 (RULINGS 4 and 6)
    cid, change = settle_member(PARTY[2][2], state, 2)
    assert (cid.xp, cid.gold, change) == (12, 7, 12)
    ben, change = settle_member(PARTY[1][2], state, 1)
    assert (ben.xp, ben.gold, change) == (42, 15, 42)
    # the same fight from its seed and its actions, move for move
    again = replayed(PARTY, monster("Wolf"), 2, 59, False, state.actions)
    assert again == state


def test_the_engine_keeps_the_turn_based_contract():
    from rules.contract import TurnBasedEngine

    engine: TurnBasedEngine[PartyState, PartyAction] = party_engine  # pyright checks the module against the Protocol
    state = start_party(PARTY, monster("Wolf"), 2, seed=5)
    assert engine.legal_actions(state, 1) == []  # only the member whose turn it is acts
    assert engine.legal_actions(state, 0) == [ATTACK, aim(1), FLEE, END_TURN]
    before = state.model_copy(deep=True)
    new, _ = applied(state, ATTACK, replay_rng(state))
    assert state == before and new.moves == 1 and new.actions == [ATTACK]
    with pytest.raises(RuleInputError):
        apply_in_place(state, POTION, replay_rng(state))  # at full HP
    assert state == before


def test_three_timeouts_in_a_row_make_a_member_leave_without_a_roll():
    state = start_party(PARTY, monster("Wolf"), 1, seed=3)
    play(state, TIMEOUT)  # Ann's first
    assert state.turn == 1 and state.members[0].timeouts == 1
    while state.turn != 0:
        play(state, END_TURN)
    assert state.round == 2
    play(state, TIMEOUT)
    while state.turn != 0:
        play(state, END_TURN)
    lines = play(state, TIMEOUT)
    assert lines[:2] == ["Ann's time ran out (3 of 3 in a row)", "Ann leaves the fight (3 turns ran out in a row)"]
    assert state.members[0].status == "removed" and member_ending(state, 0) is Ending.FLED
    assert state.turn == 1  # the turn went on to Ben


def test_an_own_action_resets_the_timeouts_in_a_row():
    state = start_party(PARTY, monster("Wolf"), 1, seed=3)
    play(state, TIMEOUT)
    while state.turn != 0:
        play(state, END_TURN)
    play(state, END_TURN)
    assert state.members[0].timeouts == 0


def test_a_game_master_removes_any_member_and_the_last_standing_ends_the_fight():
    state = start_party(PARTY[:2], monster("Wolf"), 1, seed=3)
    assert play(state, remove(1)) == ["Ben leaves the fight (removed by a game master)"]
    assert state.turn == 0 and state.phase == "playing"
    with pytest.raises(RuleInputError):
        apply_in_place(state, remove(1), replay_rng(state))
    lines = play(state, remove(0))
    assert lines == ["Ann leaves the fight (removed by a game master)", "The party left the fight"]
    assert outcome(state) == party_engine.Outcome(None, Ending.FLED)


def test_a_fled_member_keeps_their_share_and_the_fight_goes_on():
    state = start_party(PARTY, monster("Tiny rat"), 2, seed=1)
    play(state, ATTACK)  # Ann kills a rat: shared by three
    rng = replay_rng(state)
    events = apply_in_place(state, FLEE, rng)
    flee = next(e for e in events if e.kind == "flee")
    assert flee.escaped == (state.members[0].status == "fled")


def test_the_monsters_aim_at_the_most_damage_dealt_and_draw_among_equals():
    wolf = monster("Wolf").model_copy(update={"damage_min": 0, "damage_max": 0})  # harmless: only the targets count
    state = start_party(PARTY, wolf, 1, seed=11, monsters_first=True)
    # before any damage each attack draws its target among the three
    first = [e.target for e in state.feed if isinstance(e, AttackEvent)]
    assert first and set(first) <= {"Ann", "Ben", "Cid"}
    state.members[1].damage[0] = 5  # Ben has hurt the wolf most
    while state.phase == "playing" and state.round < 3:
        play(state, END_TURN)
    later = [e.target for e in state.feed if isinstance(e, AttackEvent) and e.round >= 1]
    assert later and set(later) == {"Ben"}


def test_twenty_quiet_rounds_are_a_draw():
    ghost = monster("Wolf").model_copy(update={"damage_min": 0, "damage_max": 0})
    state = start_party(PARTY[:2], ghost, 1, seed=2)
    while state.phase == "playing":
        play(state, END_TURN)
    assert state.phase == "draw" and state.round == 20
    assert [member_ending(state, i) for i in range(2)] == [Ending.DRAW, Ending.DRAW]


def test_nobody_standing_after_a_knock_out_is_a_defeat():
    bear = monster("Aggressive bear").model_copy(update={"aggressive": True})
    state = start_party(PARTY[1:], bear, 1, seed=4)  # aggressive: the bear strikes first
    assert state.feed[0].kind == "turn" and describe_party_event(state.feed[0]) == "The monsters strike first"
    while state.phase == "playing":
        play(state, END_TURN)
    assert state.phase == "lost" and all(m.status == "knocked_out" for m in state.members)
    # knocked out with nothing gained: 30% of the 20 XP held, 6, is lost
    character, change = settle_member(PARTY[1][2].model_copy(update={"xp": 20}), state, 0)
    assert (character.xp, change) == (14, -6)


def test_a_party_has_two_to_four_members():
    with pytest.raises(RuleInputError, match="2 to 4 members"):
        start_party(PARTY[:1], monster("Wolf"))
    with pytest.raises(RuleInputError, match="2 to 4 members"):
        start_party(PARTY + PARTY[:2], monster("Wolf"))
