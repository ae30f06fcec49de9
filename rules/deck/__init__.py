"""Deck optimizer (docs/rules/deck.md, RULINGS 5): cards and costs (`cards`), the set list, legal decks, the
game (a readable reference in `game`, a compiled fast path in `fast`), duels and the Monte-Carlo optimization
(`optimize`), its chart (`chart`) and the command line (`cli`).

Nothing is imported here: numba (in `fast`) costs about half a second and 50 MB, so only the modules that
play games load it, on their first game.
"""
