"""The player's automatic policy, used by simulations (and playable against the same API as the buttons).

Drink a potion when at or below half HP (and one is affordable), otherwise attack the living monster
with the fewest HP (the first of equals), otherwise end the turn. It never flees: a simulation measures
the odds of the fight itself.
"""

from __future__ import annotations

from rules.andor.engine import legal_actions
from rules.andor.models import END_TURN, POTION, Action, FightState


def choose_action(state: FightState) -> Action:
    legal = legal_actions(state)
    if POTION in legal and state.player.hp * 2 <= state.player.max_hp:
        return POTION
    attacks = [a for a in legal if a.kind == "attack"]
    if attacks:
        return min(attacks, key=lambda a: state.monsters[a.target or 0].hp)
    return END_TURN
