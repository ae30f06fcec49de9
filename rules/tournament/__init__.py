"""Swiss tournaments of MMA Warriors: the pure engine (rules: docs/rules/tournament.md).

Modules: models (the frozen, JSON-round-trippable state and what is read off it: records, scores,
`default_rounds`, `new_tournament`, `is_finished`), pairing (`pair_next_round`, a maximum-weight matching with
networkx), results (`with_next_round`, `record_result`, `match_result`, `withdraw`, `board_of`, `renamed`,
`ended_early`) and
standings (`standings`, `podium`). Every function takes a state and returns a new one or a value; nothing here
touches Discord or storage, and which games are rated is the caller's to apply (`Result.rated`). chart
(`crosstable_png`, imported on its own: matplotlib is slow to load) draws the standings and crosstable.
"""

from rules.tournament.models import (
    MIN_PLAYERS,
    Colour,
    Game,
    Pairing,
    Player,
    PlayerResult,
    Result,
    Round,
    Settings,
    TournamentState,
    default_rounds,
    games_of,
    is_finished,
    new_tournament,
    scores,
)
from rules.tournament.pairing import pair_next_round
from rules.tournament.results import (
    board_of,
    ended_early,
    match_result,
    record_result,
    renamed,
    with_next_round,
    withdraw,
)
from rules.tournament.standings import Standing, podium, standings

__all__ = [
    "MIN_PLAYERS",
    "Colour",
    "Game",
    "Pairing",
    "Player",
    "PlayerResult",
    "Result",
    "Round",
    "Settings",
    "Standing",
    "TournamentState",
    "board_of",
    "default_rounds",
    "ended_early",
    "games_of",
    "is_finished",
    "match_result",
    "new_tournament",
    "pair_next_round",
    "podium",
    "record_result",
    "renamed",
    "scores",
    "standings",
    "with_next_round",
    "withdraw",
]
