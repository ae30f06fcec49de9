"""Changes to a tournament: the next round paired, a result recorded, a player withdrawn. Each returns a changed
copy; the state given is frozen and stays as it was."""

from __future__ import annotations

from rules.errors import RuleInputError
from rules.tournament.models import Pairing, Result, Round, TournamentState, is_finished
from rules.tournament.pairing import pair_next_round


def with_next_round(state: TournamentState) -> TournamentState:
    """The state with the next round paired (`pair_next_round`) and added."""
    return _with_round(state, pair_next_round(state))


def _with_round(state: TournamentState, round_: Round) -> TournamentState:
    rounds = [r for r in state.rounds if r.number != round_.number]
    return state.model_copy(update={"rounds": (*rounds, round_)})


def _with_result(round_: Round, board: int, result: Result) -> Round:
    pairings = list(round_.pairings)
    pairings[board - 1] = pairings[board - 1].model_copy(update={"result": result})
    return round_.model_copy(update={"pairings": tuple(pairings)})


def record_result(state: TournamentState, round_number: int, board: int, result: Result) -> TournamentState:
    """The state with the result of board `board` (1, 2, ...) of round `round_number` (1, 2, ...) recorded.

    Only the latest round takes results; a result already there is replaced (a correction), until the next
    round is paired on it."""
    if not state.rounds:
        raise RuleInputError("no round has been paired yet")
    latest = state.rounds[-1]
    if round_number != latest.number:
        raise RuleInputError(
            f"round {round_number} does not exist"
            if not 1 <= round_number < latest.number
            else f"round {round_number} is closed: round {latest.number} has been paired on its results"
        )
    if not 1 <= board <= len(latest.pairings):
        raise RuleInputError(f"round {round_number} has boards 1 to {len(latest.pairings)}; there is no board {board}")
    return _with_round(state, _with_result(latest, board, result))


def board_of(state: TournamentState, player_id: int) -> tuple[int, Pairing] | None:
    """The board (1, 2, ...) and pairing of a player in the latest round, or None (a bye, withdrawn, no round)."""
    if not state.rounds:
        return None
    for board, pairing in enumerate(state.rounds[-1].pairings, start=1):
        if player_id in (pairing.challenger, pairing.opponent):
            return board, pairing
    return None


def withdraw(state: TournamentState, player_id: int) -> TournamentState:
    """The state with a player withdrawn: they left, or the GM removed them (a no-show). Their game of the
    latest round, if it has no result yet, is forfeited (a loss for them, a win for their opponent, unrated);
    they are not paired again; every point they scored stands, and so does a bye they were given.

    A game in which a move was made is not a forfeit: it ends as the match ends (a concession is a loss) and
    its result is recorded with `record_result` before the player is withdrawn."""
    player = state.player(player_id)
    if player.withdrawn:
        raise RuleInputError(f"{player.name} has already withdrawn")
    if is_finished(state):
        raise RuleInputError("the tournament is over")
    players = tuple(p.model_copy(update={"withdrawn": True}) if p.id == player_id else p for p in state.players)
    state = state.model_copy(update={"players": players})
    seat = board_of(state, player_id)
    if seat is not None and seat[1].result is None:
        board, pairing = seat
        forfeit = Result.CHALLENGER_FORFEITS if pairing.challenger == player_id else Result.OPPONENT_FORFEITS
        state = _with_round(state, _with_result(state.rounds[-1], board, forfeit))
    return state


def ended_early(state: TournamentState) -> TournamentState:
    """The state over before its last round, because the next round cannot be paired (`pair_next_round` refuses:
    every pairing of the players still in would be a rematch, or the bye would be someone's second). The
    standings as they are are final, and the podium is theirs."""
    if state.rounds and not state.rounds[-1].complete:
        raise RuleInputError(f"round {state.rounds[-1].number} still has games without a result")
    return state.model_copy(update={"ended_early": True})


def match_result(winner: int | None, *, played: bool) -> Result:
    """The result of a board from its match's end: `winner` the slot that won (0 the challenger, 1 the
    opponent; None a draw). A match won because the other player stayed idle before any move was made
    (`played` false) is a forfeit, not a game (docs/rules/tournament.md, ruling 3)."""
    if winner is None:
        return Result.DRAW
    if played:
        return Result.CHALLENGER_WINS if winner == 0 else Result.OPPONENT_WINS
    return Result.OPPONENT_FORFEITS if winner == 0 else Result.CHALLENGER_FORFEITS


def renamed(state: TournamentState, player_id: int, new_id: int, name: str) -> TournamentState:
    """The state with a player's id and name replaced everywhere (a member who asked to be forgotten): their
    games, points and place stay for the others. `new_id` must be no other player's."""
    if any(player.id == new_id for player in state.players):
        raise RuleInputError(f"id {new_id} is already a player's")

    def swap(seat: int) -> int:
        return new_id if seat == player_id else seat

    players = tuple(
        p.model_copy(update={"id": new_id, "name": name}) if p.id == player_id else p for p in state.players
    )
    rounds = tuple(
        round_.model_copy(
            update={
                "pairings": tuple(
                    pairing.model_copy(
                        update={"challenger": swap(pairing.challenger), "opponent": swap(pairing.opponent)}
                    )
                    for pairing in round_.pairings
                ),
                "bye": None if round_.bye is None else swap(round_.bye),
            }
        )
        for round_ in state.rounds
    )
    return state.model_copy(update={"players": players, "rounds": rounds})
