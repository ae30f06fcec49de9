"""The Swiss tournament engine: the worked example of docs/rules/tournament.md as exact numbers, the rules one
by one, and invariants over random tournaments."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleInputError
from rules.tournament import (
    Colour,
    Pairing,
    Player,
    PlayerResult,
    Result,
    Round,
    Settings,
    TournamentState,
    board_of,
    default_rounds,
    ended_early,
    games_of,
    is_finished,
    new_tournament,
    pair_next_round,
    podium,
    record_result,
    scores,
    standings,
    with_next_round,
    withdraw,
)

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]


def field(count: int, ratings: Sequence[float] | None = None) -> list[Player]:
    ratings = ratings or [1800 - 50 * index for index in range(count)]
    return [Player(id=index + 1, name=f"P{index + 1}", rating=ratings[index]) for index in range(count)]


def played(state: TournamentState, results: list[Result]) -> TournamentState:
    """The next round paired and its boards given these results, in board order."""
    state = with_next_round(state)
    for board, result in enumerate(results, start=1):
        state = record_result(state, state.rounds[-1].number, board, result)
    return state


def boards(round_: Round) -> list[tuple[int, int]]:
    return [(pairing.challenger, pairing.opponent) for pairing in round_.pairings]


# The worked example of docs/rules/tournament.md: eight players, three rounds.
WIN, LOSS, DRAW = Result.CHALLENGER_WINS, Result.OPPONENT_WINS, Result.DRAW
EXAMPLE_PAIRINGS = [
    [(1, 5), (6, 2), (3, 7), (8, 4)],
    [(4, 1), (7, 6), (2, 3), (5, 8)],
    [(4, 7), (6, 1), (8, 2), (3, 5)],
]
EXAMPLE_RESULTS = [
    [WIN, WIN, DRAW, LOSS],
    [WIN, WIN, WIN, LOSS],
    [LOSS, WIN, LOSS, WIN],
]
# rank, id, points, Buchholz, Sonneborn-Berger, rating
EXAMPLE_TABLE = [
    (1, 7, 2.5, 5.5, 4.75, 1500),
    (2, 6, 2.0, 5.5, 3.0, 1550),
    (3, 2, 2.0, 4.5, 2.5, 1750),
    (4, 4, 2.0, 4.5, 2.0, 1650),
    (5, 3, 1.5, 4.5, 1.25, 1700),
    (6, 1, 1.0, 4.0, 0.0, 1800),
    (7, 8, 1.0, 4.0, 0.0, 1450),
    (8, 5, 0.0, 3.5, 0.0, 1600),
]


def example_field() -> list[Player]:
    return [Player(id=index + 1, name=name, rating=1800 - 50 * index) for index, name in enumerate(NAMES)]


def test_worked_example_pairings_and_table() -> None:
    state = new_tournament(example_field())
    assert state.settings.rounds == 3
    for expected, results in zip(EXAMPLE_PAIRINGS, EXAMPLE_RESULTS, strict=True):
        assert not is_finished(state)
        state = played(state, results)
        assert boards(state.rounds[-1]) == expected
        assert state.rounds[-1].bye is None
    assert scores(state) == {1: 1.0, 2: 2.0, 3: 1.5, 4: 2.0, 5: 0.0, 6: 2.0, 7: 2.5, 8: 1.0}
    assert is_finished(state)
    table = [
        (row.rank, row.player.id, row.points, row.buchholz, row.sonneborn_berger, row.player.rating)
        for row in standings(state)
    ]
    assert table == EXAMPLE_TABLE
    gus = standings(state)[0]
    assert (gus.player.name, gus.wins, gus.draws, gus.losses, gus.byes) == ("Gus", 2, 1, 0, 0)
    assert [row.player.name for row in podium(state)] == ["Gus", "Fay", "Ben"]
    with pytest.raises(RuleInputError, match="over"):
        pair_next_round(state)


def test_worked_example_is_the_one_the_rules_page_shows() -> None:
    page = (Path(__file__).parents[2] / "docs" / "rules" / "tournament.md").read_text(encoding="utf-8")
    rows = page.split("| rank | player | points | Buchholz | Sonneborn-Berger | rating |")[1].split("\n\n")[0]
    cells = [[cell.strip() for cell in line.strip("|").split("|")] for line in rows.strip().splitlines()[1:]]
    names = {index + 1: name for index, name in enumerate(NAMES)}
    assert [(int(c[0]), c[1], float(c[2]), float(c[3]), float(c[4]), int(c[5])) for c in cells] == [
        (rank, names[player], points, buchholz, sb, rating)
        for rank, player, points, buchholz, sb, rating in EXAMPLE_TABLE
    ]
    for number, (pairings, results) in enumerate(zip(EXAMPLE_PAIRINGS, EXAMPLE_RESULTS, strict=True), start=1):
        section = (
            page.split(f"### Round {number}")[1].split("| board | challenger | opponent | result |")[1].split("\n\n")[0]
        )
        lines = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.strip().splitlines()[1:]]
        assert [(names[a], names[b], result.value) for (a, b), result in zip(pairings, results, strict=True)] == [
            (line[1], line[2], line[3]) for line in lines
        ]


def test_worked_example_scores_after_each_round() -> None:
    state = new_tournament(example_field())
    state = played(state, EXAMPLE_RESULTS[0])
    assert scores(state) == {1: 1.0, 2: 0.0, 3: 0.5, 4: 1.0, 5: 0.0, 6: 1.0, 7: 0.5, 8: 0.0}
    state = played(state, EXAMPLE_RESULTS[1])
    assert scores(state) == {1: 1.0, 2: 1.0, 3: 0.5, 4: 2.0, 5: 0.0, 6: 1.0, 7: 1.5, 8: 1.0}
    assert [(game.opponent, game.colour, game.result) for game in games_of(state, 7)] == [
        (3, Colour.OPPONENT, PlayerResult.DRAW),
        (6, Colour.CHALLENGER, PlayerResult.WIN),
    ]


def test_state_round_trips_through_json() -> None:
    state = new_tournament(example_field())
    for results in EXAMPLE_RESULTS[:2]:
        state = played(state, results)
    state = withdraw(with_next_round(state), 5)
    assert TournamentState.model_validate_json(state.model_dump_json()) == state


@pytest.mark.parametrize(
    ("players", "rounds"), [(4, 3), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (32, 5), (33, 6), (100, 7)]
)
def test_default_rounds(players: int, rounds: int) -> None:
    assert default_rounds(players) == rounds


def test_a_tournament_needs_four_players_with_distinct_ids() -> None:
    with pytest.raises(RuleInputError, match="at least 4 players; 3 entered"):
        new_tournament(field(3))
    with pytest.raises(RuleInputError, match="entered twice"):
        new_tournament([*field(4), field(1)[0]])
    with pytest.raises(RuleInputError, match="1 to 3 rounds"):
        new_tournament(field(4), rounds=4)
    assert new_tournament(field(6), rounds=5).settings.rounds == 5


def test_first_round_is_top_half_against_bottom_half_with_alternating_challengers() -> None:
    # ratings out of id order: the pairing order is by rating, then id
    state = new_tournament(field(6, [1500, 1700, 1500, 1600, 1900, 1400]))
    assert boards(pair_next_round(state)) == [(5, 1), (3, 2), (4, 6)]


def test_bye_goes_to_the_lowest_ranked_player_without_one_and_is_one_unrated_point() -> None:
    state = new_tournament(field(5))
    first = pair_next_round(state)
    assert first.bye == 5
    assert boards(first) == [(1, 3), (4, 2)]
    state = played(state, [WIN, WIN])  # 1 and 4 win; 5 has the bye
    assert scores(state) == {1: 1.0, 2: 0.0, 3: 0.0, 4: 1.0, 5: 1.0}
    assert len(games_of(state, 5)) == 1
    assert games_of(state, 5)[0].result is PlayerResult.BYE and games_of(state, 5)[0].opponent is None
    second = pair_next_round(state)
    assert second.bye == 3  # the lowest of 2 and 3 (both on 0), not 5 again
    state = played(state, [WIN, WIN])
    third = pair_next_round(state)
    assert third.bye not in (5, 3)
    bye_rows = [row for row in standings(state) if row.byes]
    assert {row.player.id for row in bye_rows} == {3, 5}


def test_the_bye_moves_up_when_the_lowest_player_would_leave_a_rematch() -> None:
    # Six entered, 6 withdrew after round 3. Player 1 has met 2, 3 and 4: were 5 (the lowest, no bye yet)
    # to sit out, 1 could only be paired again. So the bye goes to the next lowest without one, 4.
    players = [*field(5), Player(id=6, name="P6", rating=1550, withdrawn=True)]
    state = TournamentState(
        players=tuple(players),
        settings=Settings(rounds=5),
        rounds=(
            Round(
                number=1,
                pairings=(
                    Pairing(challenger=1, opponent=2, result=WIN),
                    Pairing(challenger=5, opponent=6, result=LOSS),
                    Pairing(challenger=3, opponent=4, result=WIN),
                ),
            ),
            Round(
                number=2,
                pairings=(
                    Pairing(challenger=1, opponent=3, result=WIN),
                    Pairing(challenger=4, opponent=5, result=WIN),
                    Pairing(challenger=2, opponent=6, result=WIN),
                ),
            ),
            Round(
                number=3,
                pairings=(
                    Pairing(challenger=1, opponent=4, result=WIN),
                    Pairing(challenger=2, opponent=5, result=WIN),
                    Pairing(challenger=3, opponent=6, result=WIN),
                ),
            ),
        ),
    )
    assert scores(state) == {1: 3.0, 2: 2.0, 3: 2.0, 4: 1.0, 5: 0.0, 6: 1.0}
    fourth = pair_next_round(state)
    assert fourth.bye == 4
    assert {frozenset((p.challenger, p.opponent)) for p in fourth.pairings} == {frozenset((1, 5)), frozenset((2, 3))}


def test_a_second_bye_is_refused() -> None:
    state = new_tournament(field(5), rounds=4)
    for _ in range(3):
        state = played(state, [WIN, WIN])
    had_bye = {round_.bye for round_ in state.rounds}
    assert len(had_bye) == 3
    for player in [p for p in state.players if p.id not in had_bye]:
        state = withdraw(state, player.id)
    assert not is_finished(state)
    with pytest.raises(RuleInputError, match="every player still in has had one"):
        pair_next_round(state)


def test_the_tournament_ends_when_fewer_than_two_remain() -> None:
    state = played(new_tournament(field(4)), [WIN, WIN])
    for player_id in (2, 3, 4):
        state = withdraw(state, player_id)
    assert is_finished(state)
    assert podium(state)[0].player.id == 1
    with pytest.raises(RuleInputError, match="over"):
        withdraw(state, 1)


def test_no_pairing_without_a_rematch_is_refused_not_paired() -> None:
    state = played(new_tournament(field(4)), [WIN, WIN])  # 1-3, 4-2 (challengers alternate)
    assert boards(state.rounds[0]) == [(1, 3), (4, 2)]
    state = withdraw(withdraw(state, 2), 4)  # 1 and 3 are left, and have met
    assert not is_finished(state)
    with pytest.raises(RuleInputError, match=r"cannot be paired: .* rematch"):
        pair_next_round(state)
    # It ends early: the standings as they are are final, and the podium is theirs.
    ended = ended_early(state)
    assert is_finished(ended) and ended.settings.rounds == 3 and len(ended.rounds) == 1
    assert [(row.rank, row.player.id) for row in podium(ended)] == [(1, 1), (2, 4), (3, 2)]
    assert TournamentState.model_validate_json(ended.model_dump_json()) == ended


def test_a_tournament_ends_early_only_between_rounds() -> None:
    state = with_next_round(new_tournament(field(4)))
    with pytest.raises(RuleInputError, match="round 1 still has games without a result"):
        ended_early(state)


def test_withdrawal_forfeits_the_game_in_hand_and_the_rest() -> None:
    state = with_next_round(new_tournament(field(6)))
    assert boards(state.rounds[0]) == [(1, 4), (5, 2), (3, 6)]
    state = record_result(state, 1, 1, WIN)
    state = withdraw(state, 2)  # a no-show removed by the GM: board 2 is forfeited
    assert state.rounds[0].pairings[1].result is Result.OPPONENT_FORFEITS
    assert not Result.OPPONENT_FORFEITS.rated and Result.DRAW.rated
    state = record_result(state, 1, 3, DRAW)
    state = withdraw(state, 1)  # after their game: its result stands
    assert state.rounds[0].pairings[0].result is WIN
    assert [g.result for g in games_of(state, 5)] == [PlayerResult.FORFEIT_WIN]
    assert [g.result for g in games_of(state, 2)] == [PlayerResult.FORFEIT_LOSS]
    second = pair_next_round(state)
    seated = {p for pairing in second.pairings for p in (pairing.challenger, pairing.opponent)}
    assert seated == {3, 4, 5, 6} and second.bye is None
    with pytest.raises(RuleInputError, match="already withdrawn"):
        withdraw(state, 2)
    with pytest.raises(RuleInputError, match="not in this tournament"):
        withdraw(state, 99)
    rows = {row.player.id: row for row in standings(state)}
    assert rows[1].points == 1.0 and rows[1].player.withdrawn
    assert (rows[5].points, rows[5].wins, rows[5].buchholz) == (1.0, 1, 0.0)


def test_both_forfeit_scores_nothing() -> None:
    state = played(new_tournament(field(4)), [Result.BOTH_FORFEIT, Result.CHALLENGER_FORFEITS])
    assert scores(state) == {1: 0.0, 2: 1.0, 3: 0.0, 4: 0.0}
    assert [g.result for g in games_of(state, 1)] == [PlayerResult.FORFEIT_LOSS]


def test_results_go_to_the_latest_round_only() -> None:
    state = new_tournament(field(4))
    with pytest.raises(RuleInputError, match="no round"):
        record_result(state, 1, 1, WIN)
    state = with_next_round(state)
    with pytest.raises(RuleInputError, match="still has games"):
        pair_next_round(state)
    with pytest.raises(RuleInputError, match="no board 3"):
        record_result(state, 1, 3, WIN)
    state = record_result(record_result(state, 1, 1, WIN), 1, 1, DRAW)  # a correction
    assert state.rounds[0].pairings[0].result is DRAW
    state = played(record_result(state, 1, 2, WIN), [WIN, WIN])
    with pytest.raises(RuleInputError, match="round 1 is closed"):
        record_result(state, 1, 1, WIN)
    with pytest.raises(RuleInputError, match="round 5 does not exist"):
        record_result(state, 5, 1, WIN)
    assert board_of(state, 1) is not None and board_of(new_tournament(field(4)), 1) is None


def test_ranks_are_shared_only_when_everything_is_equal() -> None:
    state = played(new_tournament(field(4, [1500] * 4), rounds=1), [WIN, WIN])
    assert boards(state.rounds[0]) == [(1, 3), (4, 2)]  # 1 and 4 win
    assert [(row.rank, row.player.id) for row in standings(state)] == [(1, 1), (1, 4), (3, 2), (3, 3)]
    assert [row.player.id for row in podium(state)] == [1, 4, 2, 3]
    with pytest.raises(RuleInputError, match="not over"):
        podium(with_next_round(new_tournament(field(4))))


def test_pairing_ignores_the_order_of_entry() -> None:
    players = example_field()
    forwards = played(new_tournament(players), EXAMPLE_RESULTS[0])
    backwards = played(new_tournament(players[::-1]), EXAMPLE_RESULTS[0])
    assert pair_next_round(forwards) == pair_next_round(backwards)


# Invariants over random tournaments.
PLAYED_RESULTS = [
    Result.CHALLENGER_WINS,
    Result.OPPONENT_WINS,
    Result.DRAW,
    Result.CHALLENGER_FORFEITS,
    Result.OPPONENT_FORFEITS,
]


@settings(deadline=None, max_examples=150)
@given(count=st.integers(4, 16), data=st.data())
def test_random_tournaments_keep_the_swiss_rules(count: int, data: st.DataObject) -> None:
    ratings = data.draw(st.lists(st.integers(1000, 2000), min_size=count, max_size=count))
    state = new_tournament(field(count, [float(r) for r in ratings]))
    assert state.settings.rounds == default_rounds(count)
    while not is_finished(state):
        state = with_next_round(state)
        results = data.draw(
            st.lists(
                st.sampled_from(PLAYED_RESULTS),
                min_size=len(state.rounds[-1].pairings),
                max_size=len(state.rounds[-1].pairings),
            )
        )
        for board, result in enumerate(results, start=1):
            state = record_result(state, state.rounds[-1].number, board, result)
    assert len(state.rounds) == default_rounds(count)
    met: Counter[frozenset[int]] = Counter()
    for round_ in state.rounds:
        seated = [p for pairing in round_.pairings for p in (pairing.challenger, pairing.opponent)]
        seated += [] if round_.bye is None else [round_.bye]
        assert sorted(seated) == list(range(1, count + 1))
        met.update(frozenset((pairing.challenger, pairing.opponent)) for pairing in round_.pairings)
    assert max(met.values()) == 1, "a rematch was paired"
    byes = Counter(round_.bye for round_ in state.rounds if round_.bye is not None)
    assert all(times == 1 for times in byes.values())
    assert len(byes) == (len(state.rounds) if count % 2 else 0)
    for player in state.players:
        colours = [game.colour for game in games_of(state, player.id) if game.colour is not None]
        assert abs(colours.count(Colour.CHALLENGER) - colours.count(Colour.OPPONENT)) <= 2
    games = sum(len(round_.pairings) for round_ in state.rounds)
    assert sum(scores(state).values()) == games + len(byes)
    table = standings(state)
    assert sum(row.points for row in table) == games + len(byes)
    keys = [row.key for row in table]
    assert keys == sorted(keys, reverse=True)


@settings(deadline=None, max_examples=60)
@given(count=st.integers(4, 12), data=st.data())
def test_withdrawn_players_are_never_paired_again(count: int, data: st.DataObject) -> None:
    state = new_tournament(field(count))
    left: dict[int, int] = {}  # player -> the round they withdrew in
    while not is_finished(state):
        try:
            state = with_next_round(state)
        except RuleInputError as error:  # a field thinned by withdrawals may have no pairing left
            assert "rematch" in str(error) or "bye" in str(error)
            break
        number = state.rounds[-1].number
        seated = {p for pairing in state.rounds[-1].pairings for p in (pairing.challenger, pairing.opponent)}
        assert not seated & set(left) and state.rounds[-1].bye not in left
        for player in data.draw(st.lists(st.sampled_from(sorted(seated)), max_size=2, unique=True)):
            if len(state.active) > 2:
                state = withdraw(state, player)
                left[player] = number
        for board, pairing in enumerate(state.rounds[-1].pairings, start=1):
            if pairing.result is None:
                state = record_result(state, number, board, data.draw(st.sampled_from(PLAYED_RESULTS)))
    byes = Counter(round_.bye for round_ in state.rounds if round_.bye is not None)
    assert all(times == 1 for times in byes.values())
    met = Counter(frozenset((p.challenger, p.opponent)) for round_ in state.rounds for p in round_.pairings)
    assert not met or max(met.values()) == 1
    for player, number in left.items():
        assert [game.round for game in games_of(state, player)][-1] == number
