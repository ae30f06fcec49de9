"""The battle chart (issues 12 and 24): each side's fighters standing and total HP after every round of the
battle so far, every run."""

from __future__ import annotations

import json

from rules.mfd.battle import continue_battle, start_battle
from rules.mfd.chart import _BattleChart, battle_chart_png
from rules.mfd.models import BattleCurve, BattleState
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


def test_a_continued_run_charts_the_whole_battle_so_far():
    # issue 24: after `continue` or the round button the chart showed only the new rounds
    heroes, villains = original_rosters()
    first = start_battle(heroes, villains, seed=5, max_rounds=1)
    more = continue_battle(first.state, max_rounds=1)
    whole = start_battle(heroes, villains, seed=5, max_rounds=2)
    # the whole battle: the same curve as one run of both rounds
    assert more.curve == whole.curve and more.curve.rounds == (0, 1, 2)
    assert more.curve == first.curve.then(BattleCurve((1, 2), *zip_sides(whole.curve, 1, 3)))
    assert more.state.history == more.curve
    # the stored state keeps it, so the next run (the button, after a restart) goes on from it
    stored = BattleState.from_json(more.state.to_json())
    assert stored.history == more.curve
    last = continue_battle(stored, max_rounds=1)
    assert last.curve == start_battle(heroes, villains, seed=5, max_rounds=3).curve
    assert last.curve.rounds == (0, 1, 2, 3)


def zip_sides(curve: BattleCurve, start: int, stop: int):
    return (
        (curve.standing[0][start:stop], curve.standing[1][start:stop]),
        (curve.hp[0][start:stop], curve.hp[1][start:stop]),
    )


def test_a_replaced_side_shows_as_two_points_at_the_round_it_came_in():
    heroes, villains = original_rosters()
    first = start_battle(heroes, villains, seed=5, max_rounds=1)
    more = continue_battle(first.state, villains=villains, max_rounds=1)
    assert more.curve.rounds == (0, 1, 1, 2)
    assert more.curve.standing[1][1:3] == (len(first.state.villains.fighters), len(villains.fighters))


def test_a_state_stored_before_the_history_was_kept_still_reads_and_charts_from_its_next_run():
    heroes, villains = original_rosters()
    first = start_battle(heroes, villains, seed=5, max_rounds=2)
    data = json.loads(first.state.to_json())
    del data["history"]
    old = BattleState.from_json(json.dumps(data))
    assert old.history == BattleCurve() and old.rounds_fought == 2
    assert continue_battle(old, max_rounds=1).curve.rounds == (2, 3)


def test_the_chart_is_a_png_for_one_round_and_for_many():
    heroes, villains = original_rosters()
    one = battle_chart_png(start_battle(heroes, villains, seed=5, max_rounds=1).curve, "one round")
    many = battle_chart_png(start_battle(heroes, villains, seed=5).curve, "to the end")
    for png in (one, many):
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and 10_000 < len(png) < 500_000


def test_a_chart_drawn_on_a_figure_used_before_is_the_chart_of_a_new_figure():
    heroes, villains = original_rosters()
    continued = continue_battle(start_battle(heroes, villains, seed=5, max_rounds=1).state).curve
    big = BattleCurve(
        rounds=tuple(range(100)),
        standing=(tuple(range(200, 100, -1)), tuple(range(100, 0, -1))),
        hp=(tuple(float(n) for n in range(400, 300, -1)), tuple(float(n) for n in range(300, 200, -1))),
    )
    battle_chart_png(big, "a big battle")  # leaves its figure idle for the next chart
    assert battle_chart_png(continued, "continued") == _BattleChart().render(continued, "continued")


def test_both_sides_stay_visible_where_their_lines_coincide_and_the_legend_is_off_the_charts():
    heroes, villains = original_rosters()
    chart = _BattleChart()
    chart.render(start_battle(heroes, villains, seed=5).curve, "seed 5")
    for axes, (hero_line, villain_line) in zip(chart.axes, chart.lines, strict=True):
        # the Heroes' line is wider and underneath: where the values are equal it shows around the Villains'
        assert hero_line.get_linewidth() > 2 * villain_line.get_linewidth()
        assert hero_line.get_zorder() < villain_line.get_zorder()
        assert axes.get_legend() is None  # no legend inside a chart, over the lines' ends
    (legend,) = chart.figure.legends
    assert [t.get_text() for t in legend.get_texts()] == ["Heroes", "Villains"]
    # the legend sits above both charts, below the title
    renderer = chart.figure.canvas.get_renderer()  # type: ignore[attr-defined]
    legend_box = legend.get_window_extent(renderer)
    for axes in chart.axes:
        assert legend_box.y0 >= axes.get_window_extent(renderer).y1


def test_the_fighters_axis_has_whole_fighter_ticks_only():
    chart = _BattleChart()
    few = BattleCurve((0, 1, 2), ((3, 3, 3), (3, 2, 0)), ((6.0, 5.0, 5.0), (6.0, 3.0, 0.0)))
    chart.render(few, "three a side")
    ticks = [t for t in chart.axes[0].get_yticks() if 0 <= t <= 3]
    assert ticks and all(float(t).is_integer() for t in ticks)  # no 0.5, 1.5, 2.5
