"""Standings and the podium.

Points: a win 1, a draw 1/2, a loss 0, the bye 1, a win by forfeit 1, a loss by forfeit 0.

Tiebreaks, in order:
1. Buchholz: the sum of the points of every opponent the player was paired with (a forfeited game counts its
   opponent like a played one). The bye counts 0: it has no opponent, and no virtual one is made up for it.
2. Sonneborn-Berger: the sum of the points of the opponents the player beat (over the board or by forfeit),
   plus half the points of those they drew with. The bye counts 0.
3. The rating the player entered with, higher first.

Opponents' points are their points at the time the standings are made (their final points once the tournament
is over), byes and forfeit wins included. Players share a rank only when points, both tiebreaks and rating are
all equal; within a shared rank they are listed by id. Withdrawn players keep their place in the table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RuleInputError
from rules.tournament.models import Player, PlayerResult, TournamentState, games_of, is_finished, scores

PODIUM_PLACES = 3


@dataclass(frozen=True)
class Standing:
    rank: int  # 1, 2, ...; shared by players equal on everything
    player: Player
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int  # forfeit wins included
    draws: int
    losses: int  # forfeit losses included
    byes: int

    @property
    def key(self) -> tuple[float, float, float, float]:
        """What the table is sorted by, best first when sorted in descending order."""
        return (self.points, self.buchholz, self.sonneborn_berger, self.player.rating)


def standings(state: TournamentState) -> list[Standing]:
    """Every player, best first (see the module's docstring for the order)."""
    points = scores(state)
    rows: list[Standing] = []
    for player in state.players:
        games = games_of(state, player.id)
        results = [game.result for game in games]
        buchholz = sum(points[game.opponent] for game in games if game.opponent is not None)
        sonneborn_berger = sum(
            points[game.opponent] * (0.5 if game.result is PlayerResult.DRAW else 1.0)
            for game in games
            if game.opponent is not None
            and game.result in (PlayerResult.WIN, PlayerResult.FORFEIT_WIN, PlayerResult.DRAW)
        )
        rows.append(
            Standing(
                rank=0,
                player=player,
                points=points[player.id],
                buchholz=buchholz,
                sonneborn_berger=sonneborn_berger,
                wins=sum(r in (PlayerResult.WIN, PlayerResult.FORFEIT_WIN) for r in results),
                draws=sum(r is PlayerResult.DRAW for r in results),
                losses=sum(r in (PlayerResult.LOSS, PlayerResult.FORFEIT_LOSS) for r in results),
                byes=sum(r is PlayerResult.BYE for r in results),
            )
        )
    rows.sort(key=lambda row: (tuple(-part for part in row.key), row.player.id))
    ranked: list[Standing] = []
    for index, row in enumerate(rows):
        shared = index > 0 and row.key == rows[index - 1].key
        rank = ranked[-1].rank if shared else index + 1
        ranked.append(replace(row, rank=rank))
    return ranked


def podium(state: TournamentState) -> list[Standing]:
    """The finished tournament's first three places (more than three players when a place is shared)."""
    if not is_finished(state):
        raise RuleInputError("the tournament is not over yet: the podium comes after the last round")
    return [row for row in standings(state) if row.rank <= PODIUM_PLACES]
