"""The plain data of a Swiss tournament and the facts every part of the engine reads off it.

Everything here is frozen and round-trips through JSON (`model_dump_json` / `model_validate_json`), so a
tournament can be stored after every result and resumed after a restart. A player is named by their id (a
Discord member id); the challenger of a pairing plays what chess calls white.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.errors import RuleInputError

MIN_PLAYERS = 4


class Player(BaseModel):
    """A player as they entered: the rating is the one they had then and is not updated during the event."""

    model_config = ConfigDict(frozen=True)

    id: int
    name: str
    rating: float
    withdrawn: bool = False  # left, or removed by the GM: not paired again, their score stands


class Result(StrEnum):
    """The result of a pairing, seen from the challenger; the values are chess's notation."""

    CHALLENGER_WINS = "1-0"
    OPPONENT_WINS = "0-1"
    DRAW = "1/2-1/2"
    OPPONENT_FORFEITS = "+/-"  # the opponent did not play: a win for the challenger, no game
    CHALLENGER_FORFEITS = "-/+"
    BOTH_FORFEIT = "-/-"  # neither played: a loss for both

    @property
    def rated(self) -> bool:
        """A played game is rated like any member match; a forfeit (no move made) is not."""
        return self in (Result.CHALLENGER_WINS, Result.OPPONENT_WINS, Result.DRAW)

    @property
    def points(self) -> tuple[float, float]:
        """(challenger's points, opponent's points)."""
        return _RESULT_POINTS[self]


_RESULT_POINTS: dict[Result, tuple[float, float]] = {
    Result.CHALLENGER_WINS: (1.0, 0.0),
    Result.OPPONENT_WINS: (0.0, 1.0),
    Result.DRAW: (0.5, 0.5),
    Result.OPPONENT_FORFEITS: (1.0, 0.0),
    Result.CHALLENGER_FORFEITS: (0.0, 1.0),
    Result.BOTH_FORFEIT: (0.0, 0.0),
}


class Pairing(BaseModel):
    """One board of a round: the challenger (white) against the opponent (black), and its result once known."""

    model_config = ConfigDict(frozen=True)

    challenger: int
    opponent: int
    result: Result | None = None


class Round(BaseModel):
    """A round: its boards, best-placed players first, and the player who sits out with the bye, if any."""

    model_config = ConfigDict(frozen=True)

    number: int  # 1, 2, ...
    pairings: tuple[Pairing, ...]
    bye: int | None = None

    @property
    def complete(self) -> bool:
        return all(pairing.result is not None for pairing in self.pairings)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True)

    rounds: int = Field(ge=1)


class TournamentState(BaseModel):
    """A whole tournament: the field in order of entry, its settings and the rounds paired so far."""

    model_config = ConfigDict(frozen=True)

    players: tuple[Player, ...]
    settings: Settings
    rounds: tuple[Round, ...] = ()
    ended_early: bool = False  # over before its last round: no pairing was left (`results.ended_early`)

    @model_validator(mode="after")
    def _consistent(self) -> TournamentState:
        ids = [player.id for player in self.players]
        if len(set(ids)) != len(ids):
            raise ValueError("two players share an id")
        known = set(ids)
        for index, round_ in enumerate(self.rounds):
            if round_.number != index + 1:
                raise ValueError(f"round {index + 1} is numbered {round_.number}")
            seated = [p for pairing in round_.pairings for p in (pairing.challenger, pairing.opponent)]
            if round_.bye is not None:
                seated.append(round_.bye)
            if len(set(seated)) != len(seated) or not set(seated) <= known:
                raise ValueError(f"round {round_.number} seats an unknown player or one player twice")
        return self

    def player(self, player_id: int) -> Player:
        for player in self.players:
            if player.id == player_id:
                return player
        raise RuleInputError(f"player {player_id} is not in this tournament")

    @property
    def active(self) -> tuple[Player, ...]:
        """The players still in: not withdrawn."""
        return tuple(player for player in self.players if not player.withdrawn)


class PlayerResult(StrEnum):
    """One round of one player's record."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit win"  # the opponent did not play
    FORFEIT_LOSS = "forfeit loss"  # this player did not play
    BYE = "bye"

    @property
    def points(self) -> float:
        return _PLAYER_POINTS[self]


_PLAYER_POINTS: dict[PlayerResult, float] = {
    PlayerResult.WIN: 1.0,
    PlayerResult.DRAW: 0.5,
    PlayerResult.LOSS: 0.0,
    PlayerResult.FORFEIT_WIN: 1.0,
    PlayerResult.FORFEIT_LOSS: 0.0,
    PlayerResult.BYE: 1.0,
}


class Colour(StrEnum):
    CHALLENGER = "challenger"  # white
    OPPONENT = "opponent"  # black


@dataclass(frozen=True)
class Game:
    """One round of a player's record: the opponent (None for the bye), the colour, the result (None while
    the game is to be played)."""

    round: int
    opponent: int | None
    colour: Colour | None
    result: PlayerResult | None


def _player_result(result: Result, as_challenger: bool) -> PlayerResult:
    if result is Result.DRAW:
        return PlayerResult.DRAW
    challenger_points, opponent_points = result.points
    points = challenger_points if as_challenger else opponent_points
    if result.rated:
        return PlayerResult.WIN if points else PlayerResult.LOSS
    return PlayerResult.FORFEIT_WIN if points else PlayerResult.FORFEIT_LOSS


def games_of(state: TournamentState, player_id: int) -> list[Game]:
    """A player's record, round by round; a round in which they were not seated (withdrawn) is left out."""
    games: list[Game] = []
    for round_ in state.rounds:
        if round_.bye == player_id:
            games.append(Game(round_.number, None, None, PlayerResult.BYE))
        for pairing in round_.pairings:
            if player_id in (pairing.challenger, pairing.opponent):
                as_challenger = pairing.challenger == player_id
                games.append(
                    Game(
                        round_.number,
                        pairing.opponent if as_challenger else pairing.challenger,
                        Colour.CHALLENGER if as_challenger else Colour.OPPONENT,
                        None if pairing.result is None else _player_result(pairing.result, as_challenger),
                    )
                )
    return games


def points_of(games: list[Game]) -> float:
    return sum(game.result.points for game in games if game.result is not None)


def scores(state: TournamentState) -> dict[int, float]:
    """Every player's points so far (win 1, draw 1/2, bye 1, forfeit win 1; a game to be played counts 0)."""
    return {player.id: points_of(games_of(state, player.id)) for player in state.players}


def default_rounds(players: int) -> int:
    """The rounds a field of this size needs to find a winner, about log2 of the players, and at least 3."""
    return max(3, (players - 1).bit_length())  # (n - 1).bit_length() is ceil(log2 n)


def new_tournament(players: list[Player], rounds: int | None = None) -> TournamentState:
    """A tournament about to be paired, with `default_rounds` unless the rounds are given."""
    if len(players) < MIN_PLAYERS:
        raise RuleInputError(f"a tournament needs at least {MIN_PLAYERS} players; {len(players)} entered")
    if len({player.id for player in players}) != len(players):
        raise RuleInputError("a player entered twice")
    rounds = default_rounds(len(players)) if rounds is None else rounds
    if not 1 <= rounds <= len(players) - 1:
        raise RuleInputError(
            f"{len(players)} players can play 1 to {len(players) - 1} rounds without a rematch; {rounds} asked for"
        )
    return TournamentState(
        players=tuple(p.model_copy(update={"withdrawn": False}) for p in players), settings=Settings(rounds=rounds)
    )


def is_finished(state: TournamentState) -> bool:
    """Over: the last round is played, or fewer than two players are still in once the latest round is done, or
    it ended early (no pairing of the players still in was left)."""
    if state.rounds and not state.rounds[-1].complete:
        return False
    return state.ended_early or len(state.rounds) >= state.settings.rounds or len(state.active) < 2
