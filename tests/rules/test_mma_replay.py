"""A finished MMA match rebuilt from its seed and stored moves equals, step by step, the match as it was played
(the way cogs/mma/cog.py plays it: `new_game(seed)`, then `play_move_in_place` per click, `claimed_idle` for an idle claim)."""

from __future__ import annotations

import json
import random

import pytest

from rules.errors import RuleInputError
from rules.mma.ai import choose_action, play_move_in_place
from rules.mma.engine import claimed_idle, new_game, replay_rng
from rules.mma.replay import replay_index, replay_match
from rules.mma.simulate import played_ai_match
from rules.mma.state import CONCEDE, END_TURN, OVER, Action, EndReason, GameState


def stored(actions: list[Action]) -> list[Action]:
    """The moves as storage/mma/moves.py keeps them and reads them back (`mma_moves.action_json`)."""
    return [Action.from_dict(json.loads(json.dumps(a.to_dict()))) for a in actions]


def member_move(state: GameState, chooser: random.Random) -> Action:
    """A member's click: what the AI would do, decided on the member's own random source (not the match's)."""
    return choose_action(state, state.to_move, chooser)


@pytest.mark.parametrize("seed", [7, 20240611, 99])
def test_a_match_between_members_replays_every_step(seed):
    state, _ = new_game(seed)
    chooser = random.Random(seed + 1)
    moves: list[Action] = []
    after_each = [state.to_dict()]
    while state.phase != OVER:
        action = member_move(state, chooser)
        actions, _ = play_move_in_place(state, action, None)
        moves += actions
        after_each.append(state.to_dict())

    steps = replay_match(seed, stored(moves))

    assert [step.state.to_dict() for step in steps] == after_each
    assert [step.move for step in steps] == [None, *moves]
    assert [step.number for step in steps] == list(range(len(moves) + 1))
    assert steps[-1].state.phase == OVER


@pytest.mark.parametrize("seed", [3, 11, 424242])
def test_a_match_against_the_ai_replays_every_step(seed):
    """The AI decides on the move's own random source before the move uses it: the replay must too."""
    state, _ = new_game(seed)
    chooser = random.Random(seed + 1)
    moves: list[Action] = []
    saved_at: dict[int, dict] = {0: state.to_dict()}  # move count -> the state the cog saved then
    while state.phase != OVER:
        actions, _ = play_move_in_place(state, member_move(state, chooser), 1)
        moves += actions
        saved_at[len(moves)] = state.to_dict()

    steps = replay_match(seed, stored(moves), ai_player=1)

    assert len(steps) == len(moves) + 1
    assert {n: steps[n].state.to_dict() for n in saved_at} == saved_at
    assert [step.move for step in steps[1:]] == moves
    # every AI move is checked step by step too: each is the AI's choice on that step's source
    for step, previous in zip(steps[1:], steps):
        if step.move is not None and step.move.player == 1:
            assert choose_action(previous.state.copy(), 1, replay_rng(previous.state)) == step.move


def test_the_ai_match_exercises_random_rolls_of_the_ai():
    """Guards the test above: a match where the AI's own takedowns rolled, so a replay that gave an AI move a
    fresh random source (instead of the one its choice drew from) would come out different."""
    state, _ = new_game(3)
    chooser = random.Random(4)
    moves: list[Action] = []
    ai_takedowns = 0
    while state.phase != OVER:
        actions, events = play_move_in_place(state, member_move(state, chooser), 1)
        moves += actions
        ai_takedowns += sum(1 for e in events if e.kind == "takedown" and e.player == 1)
    assert ai_takedowns > 0
    steps = replay_match(3, stored(moves), ai_player=1)
    assert steps[-1].state == state


def test_a_conceded_match_replays_to_the_concession():
    state, _ = new_game(5)
    chooser = random.Random(6)
    moves: list[Action] = []
    for _ in range(12):
        moves += play_move_in_place(state, member_move(state, chooser), None)[0]
    concession = Action(state.to_move, CONCEDE)
    moves += play_move_in_place(state, concession, None)[0]

    steps = replay_match(5, stored(moves))

    assert steps[-1].move == concession
    assert steps[-1].state == state
    assert (steps[-1].state.winner, steps[-1].state.reason) == (1 - concession.player, EndReason.CONCEDED)


def test_an_idle_claim_is_the_last_step():
    state, _ = new_game(8)
    chooser = random.Random(9)
    moves: list[Action] = []
    for _ in range(9):
        moves += play_move_in_place(state, member_move(state, chooser), None)[0]
    claimant = 1 - state.to_move
    state, events = claimed_idle(state, claimant)  # as the cog's claim: no move is stored

    steps = replay_match(8, stored(moves), claimed_by=claimant)

    assert len(steps) == len(moves) + 2
    assert steps[-1].move is None and steps[-1].number == len(moves) + 1
    assert steps[-1].state == state
    assert steps[-1].events == tuple(events)
    assert steps[-2].state.phase != OVER


def test_steps_do_not_share_their_states():
    state, _ = new_game(1)
    moves = play_move_in_place(state, member_move(state, random.Random(2)), None)[0]
    steps = replay_match(1, moves)
    steps[0].state.players[0].hand.clear()
    assert steps[1].state.players[0].hand


def test_damaged_moves_are_refused_naming_the_move():
    state, _ = new_game(12)
    chooser = random.Random(13)
    moves: list[Action] = []
    while state.phase != OVER and len(moves) < 6:
        moves += play_move_in_place(state, member_move(state, chooser), 1)[0]

    wrong_player = [*moves[:2], Action(1 - moves[2].player, END_TURN), *moves[3:]]
    with pytest.raises(RuleInputError, match="move 3 of the match does not replay"):
        replay_match(12, wrong_player, ai_player=1)

    ai_index = next(i for i, move in enumerate(moves) if move.player == 1)
    not_the_ai = [*moves[:ai_index], Action(1, CONCEDE), *moves[ai_index + 1 :]]
    with pytest.raises(RuleInputError, match=f"move {ai_index + 1} of the match is not the AI's move"):
        replay_match(12, not_the_ai, ai_player=1)

    conceded = [*moves[:1], Action(0, CONCEDE), Action(0, END_TURN)]
    with pytest.raises(RuleInputError, match="move 3 of the match comes after its end"):
        replay_match(12, conceded)

    with pytest.raises(RuleInputError, match="ended by its moves, not by an idle claim"):
        replay_match(12, conceded[:2], claimed_by=1)


def test_the_index_of_a_replay_finds_each_turns_first_step_and_the_knockouts():
    state, _ = new_game(3)
    chooser, moves = random.Random(4), []
    while state.phase != OVER:
        moves += play_move_in_place(state, member_move(state, chooser), None)[0]
    steps = replay_match(3, stored(moves))
    index = replay_index(steps)
    assert index.turns[0] == 1 and index.last_turn == sum(p.turns for p in steps[-1].state.players)
    assert list(index.turns) == sorted(index.turns)  # turns only go on
    for turn in range(1, index.last_turn + 1):
        start = index.turn_start(turn)
        assert index.turns[start] >= turn and (start == 0 or index.turns[start - 1] < turn)
    assert [(k.step, k.player, k.fighter) for k in index.knockouts] == [
        (s.number, e.player, e.card) for s in steps for e in s.events if e.kind == "knockout"
    ]
    with pytest.raises(ValueError):
        index.turn_start(index.last_turn + 1)


@pytest.mark.parametrize("seed", [1, 7, 42])
def test_a_played_ai_match_replays_from_its_seed_and_moves(seed):
    moves, final = played_ai_match(seed)
    steps = replay_match(seed, moves)
    assert len(steps) == len(moves) + 1 and steps[-1].state.phase == OVER
    assert steps[-1].state.to_dict() == final.to_dict()
    assert played_ai_match(seed)[0] == moves  # the same seed plays the same match
