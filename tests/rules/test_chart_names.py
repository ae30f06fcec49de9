"""Every chart that shows a name (a member's, an upload's) draws it as typed: matplotlib would read `$...$` as a
formula, and fail on one it cannot parse, so those texts are drawn with its mathematics off."""

from __future__ import annotations

import dataclasses
import io

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from rules.andor.bestiary import find_monster, merged
from rules.andor.chart import hp_left_figure
from rules.andor.models import Character
from rules.andor.simulate import simulate
from rules.rating import Rating, Result, rate_match
from rules.rating_chart import ChartGame, rating_figure

HOSTILE_NAMES = [
    "$_$ cash",
    r"$\frac{1}{0}$",
    "a_b^c",
    "**bold** <@123> @everyone",
    "مرحبا بالعالم",  # right to left
    "🐉 Dragon 🔥",
    "$" * 50 + "x_" * 25,  # 100 characters
]


def rendered(figure: Figure) -> None:
    """Draw the whole figure, as its PNG would (a name read as a formula fails here)."""
    figure.savefig(io.BytesIO(), format="png")  # pyright: ignore[reportUnknownMemberType]


def drawn_as_typed(text: Text, expected: str) -> None:
    assert text.get_text() == expected
    assert text.get_parse_math() is False


# Every name here is drawn from the charts' fonts (rules/chart_fonts.py): a box for a missing glyph fails the test.
pytestmark = pytest.mark.filterwarnings("error:Glyph .* missing from font")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_the_rating_chart_draws_the_members_name_as_typed(name):
    games = [ChartGame(rate_match(Rating(), Rating(), Result.WIN).first, Result.WIN, 1767225600)]
    figure = rating_figure(games, f"{name}: MMA Warriors rating")
    rendered(figure)
    drawn_as_typed(figure.axes[0].title, f"{name}: MMA Warriors rating")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_the_andor_simulation_chart_draws_the_monsters_name_as_typed(name):
    wolf = find_monster(merged([]), "Wolf")
    result = dataclasses.replace(simulate(Character(), wolf, 1, 20, seed=1), monster=name)
    figure = hp_left_figure(result)
    rendered(figure)
    drawn_as_typed(figure.axes[0].title, f"{name} ×1: 20 fights (seed 1), won {100 * result.win_rate:.1f}%")
