"""An Andor fight whose channel was deleted ends as if its player fled (rules.andor.engine.abandoned)."""

from __future__ import annotations

from rules.andor.engine import abandoned, outcome, settle, start_fight, summary
from rules.andor.models import Character, Ending, Monster


def test_an_abandoned_fight_ends_as_fled_without_a_roll_and_settles_as_a_fled_fight():
    state, _ = start_fight(Character(), Monster(name="Rat", hp=5, xp=1), 2, seed=4)
    assert state.phase == "player"
    ended = abandoned(state)
    assert state.phase == "player"  # the copying form leaves its argument as it was
    assert ended.phase == "fled" and ended.moves == state.moves and ended.player.hp == state.player.hp
    ending = outcome(ended)
    assert ending is not None and ending.termination is Ending.FLED and ending.winner is None
    fled = summary(ended)
    assert fled is not None
    character, xp_change = settle(Character(xp=50), fled)
    assert (character.xp, xp_change) == (50, 0)  # no kills, no death penalty
    assert abandoned(ended) == ended  # a fight already over stays as it is
