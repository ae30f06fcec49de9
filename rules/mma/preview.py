"""What a card would do if played now, computed by playing it on a copy of the match (the same code as the
move itself), so the hand view's preview is exact: damage with defense, style, bonuses and a waiting defense
card included, a takedown's success chance, a corner or defense card's effect."""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.mma.cards import CARDS, TAKEDOWN
from rules.mma.engine import applied, play_problem
from rules.mma.state import DEPLOY, PLAY, REPLACE_PHASE, Action, Event, GameState


class _Succeeds(random.Random):
    """The dice of a takedown that succeeds: the only random draw a played card makes is a takedown's roll."""

    def random(self) -> float:
        return 0.0


@dataclass(frozen=True)
class Preview:
    events: tuple[Event, ...]  # what playing the card now does (for a takedown: when it succeeds, with no roll)
    success_percent: int | None = None  # a takedown's chance; None for every other card


def preview(state: GameState, player: int, card: int) -> Preview | None:
    """What `player` playing `card` now would do; None when it cannot be played now."""
    if play_problem(state, player, card) is not None:
        return None
    kind = DEPLOY if state.phase == REPLACE_PHASE else PLAY
    _, events = applied(state, Action(player, kind, card), _Succeeds())
    if CARDS[card].kind != TAKEDOWN:
        return Preview(tuple(events))
    (takedown,) = [e for e in events if e.kind == "takedown"]
    # A foreseen takedown has a chance, not a roll: the feed's words for it leave the roll out.
    foreseen = [
        e._replace(numbers={k: v for k, v in e.numbers.items() if k != "roll"}) if e is takedown else e for e in events
    ]
    return Preview(tuple(foreseen), takedown.numbers["chance_tenths"] * 10)
