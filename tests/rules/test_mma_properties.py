"""MMA Warriors invariants over thousands of seeded matches: AI against AI, and random legal play."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.mma.ai import choose_action
from rules.mma.cards import CARDS, DECK_LIST, FIGHTER_COUNT
from rules.mma.engine import (
    CONCEDED,
    FIGHTERS_IN_HAND_LIMIT,
    HAND_LIMIT,
    JUDGES,
    MAX_ENERGY,
    MAX_TURNS,
    action_problem,
    applied,
    apply_in_place,
    card_options,
    legal_actions,
    new_game,
    outcome,
    replay_rng,
)
from rules.mma.simulate import play_ai_game, simulate
from rules.mma.state import (
    ACTION_KINDS,
    CONCEDE,
    DEPLOY,
    DRAW_PHASE,
    NO_ONE,
    OVER,
    PLAY,
    REPLACE_PHASE,
    Action,
    EndReason,
    GameState,
)
from rules.mma.text import describe

SORTED_DECK = sorted(DECK_LIST)


def check_invariants(state: GameState) -> None:
    assert state.advantage in (NO_ONE, 0, 1)  # at most one fighter on top
    for index, player in enumerate(state.players):
        assert len(player.hand) <= HAND_LIMIT
        assert player.fighters_in_hand() <= FIGHTERS_IN_HAND_LIMIT
        assert 0 <= player.energy <= MAX_ENERGY
        assert 0 <= player.health <= 100 and player.health % 20 == 0
        assert player.turns <= MAX_TURNS
        owned = player.deck + player.hand + player.discard + ([player.fighter] if player.fighter != NO_ONE else [])
        assert sorted(owned) == SORTED_DECK
        if player.fighter != NO_ONE:
            assert 0 < player.stamina <= player.max_stamina
        else:  # picking a fighter, or bled out at the start of this turn and drawing before the pick
            assert state.phase in (REPLACE_PHASE, OVER) or (state.phase == DRAW_PHASE and state.current == index)
    if state.advantage != NO_ONE:
        assert state.players[state.advantage].fighter != NO_ONE
    if state.phase == OVER:
        assert outcome(state) is not None


EVERY_ACTION = tuple(
    tuple(
        Action(player, kind, card)
        for kind in ACTION_KINDS
        for card in (range(len(CARDS)) if kind in (PLAY, DEPLOY) else (NO_ONE,))
    )
    for player in (0, 1)
)


def check_legal_actions_are_exact(state: GameState) -> None:
    """legal_actions lists exactly the actions apply_in_place would accept, and the hand view agrees with it."""
    for player in (0, 1):
        legal = legal_actions(state, player)
        assert len(set(legal)) == len(legal)
        assert set(legal) == {a for a in EVERY_ACTION[player] if action_problem(state, a) is None}
        playable = {o.card for o in card_options(state, player) if o.problem is None}
        assert playable == {a.card for a in legal if a.kind in (PLAY, DEPLOY)}


@pytest.mark.parametrize("seeds", [range(1000), range(1000, 2000)])  # two halves: the workers share them
def test_thousands_of_ai_games_end_with_a_result_and_keep_every_invariant(seeds):
    reasons = Counter()
    bled_out_draws = 0  # draw steps of a player whose fighter bled out as the turn began
    for seed in seeds:
        rng = random.Random(seed)
        state, _ = new_game(seed, rng)
        check_invariants(state)
        while state.phase != OVER:
            player = state.to_move
            bled_out_draws += state.phase == DRAW_PHASE and state.players[player].fighter == NO_ONE
            action = choose_action(state, player, rng)
            assert action in legal_actions(state, player)
            apply_in_place(state, action, rng)
            check_invariants(state)
        result = outcome(state)
        assert result is not None
        assert result.winner in (0, 1) or result.termination == JUDGES
        assert result.termination != CONCEDED
        reasons[result.termination] += 1
    # The AI's games end in every way but deck-out (a deck lasts 70 draws), mostly by knockouts.
    assert reasons[EndReason.HEALTH_DEPLETED] > 250 and reasons[EndReason.NO_FIGHTERS] > 250
    assert reasons[JUDGES] < 100
    assert bled_out_draws > 50  # the replacement after the draw is exercised, not just possible


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), skip_bias=st.floats(0, 1))
def test_random_legal_play_never_breaks_an_invariant(seed, skip_bias):
    """Any sequence of legal actions (except conceding) keeps the state sound and ends the match."""
    rng = random.Random(seed)
    state, _ = new_game(seed, rng)
    saved_at = rng.randrange(5, 200)
    moves = 0
    while state.phase != OVER:
        player = state.to_move
        actions = [a for a in legal_actions(state, player) if a.kind != CONCEDE]
        # Some players end their turns early and often, so matches also run into decks out and judges.
        short = [a for a in actions if a.kind in ("skip_draw", "end_turn")]
        action = rng.choice(short if short and rng.random() < skip_bias else actions)
        for event in apply_in_place(state, action, rng):
            line = describe(event, ("Ann", "Bob"))
            assert line is None or (line.strip() and "**" not in line)  # plain text: a message adds markdown
        check_invariants(state)
        moves += 1
        bled_out = state.phase == DRAW_PHASE and state.players[state.current].fighter == NO_ONE
        if moves % 5 == 0 or state.phase == REPLACE_PHASE or bled_out:
            check_legal_actions_are_exact(state)
        if moves == saved_at:
            assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert outcome(state) is not None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_applied_leaves_every_state_as_it_was_and_matches_the_move_in_place(seed):
    """Along a whole AI match: `applied` changes nothing it is given, and its new state and events are exactly
    those of `apply_in_place` with the same move's random source (rules/contract.py)."""
    state, _ = new_game(seed)
    while state.phase != OVER:
        before = state.to_dict()
        action = choose_action(state, state.to_move, replay_rng(state))
        new, events = applied(state, action, replay_rng(state))
        assert state.to_dict() == before
        assert apply_in_place(state, action, replay_rng(state)) == events
        assert state == new
    assert outcome(state) == outcome(new)


def test_each_moves_random_source_is_the_seed_and_move_count_as_saved_matches_expect():
    """The derivation saved matches were played with: changing it would change how they continue."""
    state, _ = new_game(123)
    state.moves = 45
    assert replay_rng(state).getstate() == random.Random(123_000_414).getstate()  # 123 × 1,000,003 + 45


def test_seeded_ai_games_replay_exactly():
    first, moves = play_ai_game(1234)
    again, moves_again = play_ai_game(1234)
    assert first == again and moves == moves_again


def test_simulation_report_adds_up():
    report = simulate(300, seed=7)
    assert sum(report.wins) + report.draws == 300 == sum(report.reasons.values())
    assert len(report.fighters) == FIGHTER_COUNT
    for record in report.fighters:
        assert 0 <= record.won <= record.fielded <= 300
    # Every match fields at least both opening fighters.
    assert sum(r.fielded for r in report.fighters) >= 600
    assert report.average_turns >= 2
