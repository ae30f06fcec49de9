"""MMA Warriors: a card duel between two players (or a player and the AI), as a pure state machine."""

from rules.mma.ai import choose_action
from rules.mma.cards import CARDS, DECK_LIST, FIGHTER_COUNT, Card, card_named
from rules.mma.engine import (
    IllegalAction,
    action_problem,
    applied,
    apply_in_place,
    card_options,
    finish_in_place,
    legal_actions,
    new_game,
    outcome,
    replay_rng,
)
from rules.mma.state import Action, Event, GameState, Outcome, PlayerState

__all__ = [
    "CARDS",
    "DECK_LIST",
    "FIGHTER_COUNT",
    "Action",
    "Card",
    "Event",
    "GameState",
    "IllegalAction",
    "Outcome",
    "PlayerState",
    "action_problem",
    "applied",
    "apply_in_place",
    "card_named",
    "card_options",
    "choose_action",
    "finish_in_place",
    "legal_actions",
    "new_game",
    "outcome",
    "replay_rng",
]
