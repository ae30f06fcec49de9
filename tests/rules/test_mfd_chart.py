"""The battle chart (issue 12): each side's fighters standing and total HP after every round of a run."""

from __future__ import annotations

from rules.mfd.battle import continue_battle, start_battle
from rules.mfd.chart import battle_chart_png
from tests.rules.test_mfd_continuing import original_rosters


def standing_and_hp(roster) -> tuple[int, float]:
    return len(roster.fighters), sum(f.hp for f in roster.fighters)


def test_the_curve_holds_the_standing_and_hp_that_fighting_one_round_at_a_time_leaves():
    heroes, villains = original_rosters()
    run = start_battle(heroes, villains, seed=5)
    curve = run.curve
    assert curve.rounds == tuple(range(run.result.last_round + 1))
    assert (curve.standing[0][0], curve.hp[0][0]) == standing_and_hp(heroes)
    assert (curve.standing[1][0], curve.hp[1][0]) == standing_and_hp(villains)
    # The same battle fought one round per run: the state after round n is the curve's point n.
    state = start_battle(heroes, villains, seed=5, max_rounds=1).state
    for n in range(1, run.result.last_round + 1):
        for side, roster in enumerate((state.heroes, state.villains)):
            standing, hp = standing_and_hp(roster)
            assert curve.standing[side][n] == standing
            assert abs(curve.hp[side][n] - hp) < 1e-9
        if not state.over:
            state = continue_battle(state, max_rounds=1).state
    assert (curve.standing[0][-1], curve.standing[1][-1]) == (
        len(run.result.heroes.fighters),
        len(run.result.villains.fighters),
    )


def test_a_continued_run_starts_its_curve_where_the_battle_stood():
    heroes, villains = original_rosters()
    first = start_battle(heroes, villains, seed=5, max_rounds=2)
    more = continue_battle(first.state, max_rounds=1)
    assert more.curve.rounds == (2, 3)
    assert (more.curve.standing[0][0], more.curve.hp[0][0]) == standing_and_hp(first.state.heroes)


def test_the_chart_is_a_png_for_one_round_and_for_many():
    heroes, villains = original_rosters()
    one = battle_chart_png(start_battle(heroes, villains, seed=5, max_rounds=1).curve, "one round")
    many = battle_chart_png(start_battle(heroes, villains, seed=5).curve, "to the end")
    for png in (one, many):
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and 10_000 < len(png) < 500_000


def test_a_chart_drawn_on_a_figure_used_before_is_the_chart_of_a_new_figure():
    from rules.mfd.battle import BattleCurve
    from rules.mfd.chart import _BattleChart

    heroes, villains = original_rosters()
    continued = continue_battle(start_battle(heroes, villains, seed=5, max_rounds=1).state).curve
    big = BattleCurve(
        rounds=tuple(range(100)),
        standing=(tuple(range(200, 100, -1)), tuple(range(100, 0, -1))),
        hp=(tuple(float(n) for n in range(400, 300, -1)), tuple(float(n) for n in range(300, 200, -1))),
    )
    battle_chart_png(big, "a big battle")  # leaves its figure idle for the next chart
    assert battle_chart_png(continued, "continued") == _BattleChart().render(continued, "continued")
