"""Deck optimizer (deckbuilder.md, RULINGS 5): cards and costs, the set list, legal decks, the game (a
readable reference in `game`, a compiled fast path in `fast`), duels and the Monte-Carlo optimization."""

from rules.deck.cards import (
    ALL_KEYWORDS,
    DECK_SIZE,
    MAX_COPIES,
    Card,
    Deck,
    Keyword,
    card_cost,
    random_deck,
    read_deck_csv,
    set_list,
)
from rules.deck.optimize import (
    DuelResult,
    FreshMeasurement,
    OptimizeResult,
    OptimizeSettings,
    Progress,
    Score,
    duel,
    optimize,
)

__all__ = [
    "ALL_KEYWORDS",
    "DECK_SIZE",
    "MAX_COPIES",
    "Card",
    "Deck",
    "DuelResult",
    "FreshMeasurement",
    "Keyword",
    "OptimizeResult",
    "OptimizeSettings",
    "Progress",
    "Score",
    "card_cost",
    "duel",
    "optimize",
    "random_deck",
    "read_deck_csv",
    "set_list",
]
