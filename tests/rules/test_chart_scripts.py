"""Every picture Arena posts draws a name in any script as its member wrote it: each character found in a font
of the chain (matplotlib's own lookup, as it lays the line out), Arabic joined and right to left, no name over the
next column, no "missing glyph" warning; a character no font has drawn as a visible stand-in.

`python -m tests.rules.test_chart_scripts` draws the README's crosstable (docs/images/crosstable.png)."""

from __future__ import annotations

import dataclasses
import io
import logging
import subprocess
import sys
import unicodedata
import warnings
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import fontManager, get_font
from matplotlib.ft2font import LoadFlags
from matplotlib.text import Text

from rules.andor.bestiary import find_monster, merged
from rules.andor.chart import hp_left_figure
from rules.andor.models import Character
from rules.andor.simulate import simulate
from rules.chart_fonts import FAMILIES, STAND_IN, drawable, families_for, use_chart_fonts
from rules.deck.chart import winrate_figure
from rules.deck.optimize import OptimizeSettings, optimize
from rules.mfd.chart import _BattleChart
from rules.mfd.models import BattleCurve
from rules.rating import Rating, Result, rate_match
from rules.rating_chart import ChartGame, rating_figure
from rules.tournament import Player, TournamentState, new_tournament
from rules.tournament.chart import crosstable_figure
from tests.rules.test_tournament import EXAMPLE_RESULTS, played

DISCORD_NAME_LIMIT = 32  # a display name's longest
NAMES = {
    "Latin": "Zoë Łukasiewicz-Ørsted",
    "Cyrillic": "Анастасия Кузнецова",
    "Greek": "Αλέξανδρος Παπαδόπουλος",
    "Japanese": "山田 花子 ひなた カタカナ",
    "Chinese, simplified": "张伟 龙的传人",
    "Chinese, traditional": "陳美麗 臺灣龍",
    "Korean": "김민준 한국어",
    "Arabic": "محمد العربي",
    "Hebrew": "דוד כהן",
    "Devanagari": "अर्जुन शर्मा",
    "Thai": "สมชาย ใจดี",
    "emoji": "🐉 Dragon 🔥 ❤️ 👍🏽",
}
LONGEST = {  # Discord's longest names, the widest characters of each kind
    "Latin, 32": "W" * DISCORD_NAME_LIMIT,
    "Japanese, 32": "龍" * DISCORD_NAME_LIMIT,
    "Arabic, 32": ("مرحبا بالعالم " * 3)[:DISCORD_NAME_LIMIT],
    "emoji, 32": "🐉" * DISCORD_NAME_LIMIT,
}
ALL_NAMES = {**NAMES, **LONGEST}
UNDRAWABLE = "𓀀𓀁𓀂"  # Egyptian hieroglyphs: in none of the fonts


def _drawn_glyphs(text: Text) -> list[tuple[str, int, float]]:
    """Each character of a drawn text as matplotlib lays it out: (character, glyph index in the font chosen for
    it, x); glyph 0 is the font's empty box."""
    fonts = get_font(fontManager._find_fonts_by_props(text.get_fontproperties()))
    fonts.set_size(float(text.get_fontsize()), 72)
    return [(item.char, item.glyph_index, item.x) for item in fonts._layout(text.get_text(), LoadFlags.NO_HINTING)]


def assert_every_character_has_a_glyph(text: Text) -> None:
    assert list(text.get_fontproperties().get_family()) == list(FAMILIES)
    missing = [char for char, glyph, _ in _drawn_glyphs(text) if glyph == 0 and unicodedata.category(char[:1]) != "Cf"]
    assert missing == [], f"no glyph for {missing} in {text.get_text()!r}"


def drawn(figure: Figure, caplog: pytest.LogCaptureFixture) -> RendererAgg:
    """Draw the whole figure as its PNG would be, with no warning from matplotlib (a missing glyph, a font weight
    not found), and return its renderer."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with caplog.at_level(logging.WARNING, logger="matplotlib"):
            figure.savefig(io.BytesIO(), format="png")
    assert [record.getMessage() for record in caplog.records if record.name.startswith("matplotlib")] == []
    return figure.canvas.get_renderer()  # pyright: ignore[reportAttributeAccessIssue]


def texts_in(figure: Figure) -> list[Text]:
    return [text for text in figure.findobj(Text) if isinstance(text, Text) and text.get_text()]


@pytest.mark.parametrize("script", ALL_NAMES)
def test_the_rating_chart_draws_a_name_in_every_script(script: str, caplog: pytest.LogCaptureFixture):
    games = [ChartGame(rate_match(Rating(), Rating(), Result.WIN).first, Result.WIN, 1767225600)]
    title = f"{ALL_NAMES[script]}: MMA Warriors rating"
    figure = rating_figure(games, title)
    drawn(figure, caplog)
    assert figure.axes[0].title.get_text() == title
    assert_every_character_has_a_glyph(figure.axes[0].title)


@pytest.mark.parametrize("script", ALL_NAMES)
def test_the_andor_chart_draws_a_monster_named_in_every_script(script: str, caplog: pytest.LogCaptureFixture):
    wolf = find_monster(merged([]), "Wolf")
    result = dataclasses.replace(simulate(Character(), wolf, 1, 20, seed=1), monster=ALL_NAMES[script])
    figure = hp_left_figure(result)
    drawn(figure, caplog)
    assert figure.axes[0].title.get_text().startswith(f"{ALL_NAMES[script]} ×1")
    assert_every_character_has_a_glyph(figure.axes[0].title)


def test_the_mfd_and_deck_charts_draw_their_titles_in_every_script(caplog: pytest.LogCaptureFixture):
    title = " ".join(NAMES.values())
    battle = _BattleChart()
    battle.render(BattleCurve((0, 1), ((3, 2), (3, 1)), ((6.0, 4.0), (6.0, 2.0))), title)
    deck = winrate_figure(optimize(OptimizeSettings(iterations=3, games=20, seed=1)), title)
    for figure, heading in ((battle.figure, battle.title), (deck, deck.axes[0].title)):
        drawn(figure, caplog)
        assert heading.get_text() == title
        assert_every_character_has_a_glyph(heading)


def eight_scripts_tournament() -> TournamentState:
    """The worked example of docs/rules/tournament.md, its eight players named in eight scripts."""
    names = [
        NAMES["Japanese"],
        NAMES["Arabic"],
        NAMES["Korean"],
        NAMES["Cyrillic"],
        NAMES["Hebrew"],
        NAMES["Chinese, traditional"],
        NAMES["Devanagari"],
        NAMES["emoji"],
    ]
    players = [Player(id=index + 1, name=name, rating=1800 - 50 * index) for index, name in enumerate(names)]
    state = new_tournament(players)
    for results in EXAMPLE_RESULTS:
        state = played(state, results)
    return state


def _rows(figure: Figure, top_inches: float) -> list[list[Text]]:
    """The table's texts line by line (the title, subtitle and legend left out), each line left to right."""
    by_line: dict[float, list[Text]] = {}
    for text in figure.axes[0].texts:
        y = round(float(text.get_position()[1]), 3)
        if text.get_text() and top_inches < y < figure.get_size_inches()[1] - 0.45:
            by_line.setdefault(y, []).append(text)
    return [sorted(line, key=lambda t: float(t.get_position()[0])) for _, line in sorted(by_line.items())]


def assert_no_text_runs_into_the_next(figure: Figure, renderer: RendererAgg) -> None:
    rows = _rows(figure, 0.85)
    assert len(rows) == 9  # the header and eight players
    for line in rows:
        extents = [text.get_window_extent(renderer) for text in line]
        for text, extent, following in zip(line, extents, extents[1:]):
            assert extent.x1 < following.x0, f"{text.get_text()!r} runs into the next column"
        assert extents[-1].x1 < figure.bbox.width


def test_a_crosstable_of_eight_scripts_draws_every_name(caplog: pytest.LogCaptureFixture):
    state = eight_scripts_tournament()
    figure = crosstable_figure(state, "大会 · بطولة · Турнир")
    renderer = drawn(figure, caplog)
    names = {player.name for player in state.players}
    shown = [text for text in texts_in(figure) if text.get_text() in names]
    assert {text.get_text() for text in shown} == names  # none clipped: they fit their column
    for text in [*shown, figure.axes[0].texts[0]]:
        assert_every_character_has_a_glyph(text)
    assert_no_text_runs_into_the_next(figure, renderer)


@pytest.mark.parametrize("script", LONGEST)
def test_the_longest_names_are_clipped_to_their_column(script: str, caplog: pytest.LogCaptureFixture):
    longest = ALL_NAMES[script]
    players = [Player(id=1, name=longest, rating=1900), *eight_scripts_tournament().players[1:]]
    state = new_tournament(players)
    for results in EXAMPLE_RESULTS:
        state = played(state, results)
    figure = crosstable_figure(state, longest)
    renderer = drawn(figure, caplog)
    after_the_title = figure.axes[0].texts[2:]
    clipped = next(text for text in after_the_title if text.get_text().startswith(longest[:3]))
    assert clipped.get_text().endswith("…") and longest.startswith(clipped.get_text()[:-1].rstrip())
    assert_every_character_has_a_glyph(clipped)
    assert_no_text_runs_into_the_next(figure, renderer)


def test_arabic_is_joined_and_right_to_left_and_hebrew_right_to_left(caplog: pytest.LogCaptureFixture):
    figure = rating_figure([], "علي")
    drawn(figure, caplog)
    laid_out = _drawn_glyphs(figure.axes[0].title)
    # the first letter (ain) is drawn rightmost, the last (yeh) leftmost
    assert [char for char, _, _ in sorted(laid_out, key=lambda item: item[2])] == ["ي", "ل", "ع"]
    fonts = get_font(fontManager._find_fonts_by_props(figure.axes[0].title.get_fontproperties()))
    isolated = {char: fonts.get_char_index(ord(char)) for char in "علي"}
    # joined: each letter takes its initial, medial or final form, not the form it has alone
    assert all(glyph != isolated[char] for char, glyph, _ in laid_out)

    figure = rating_figure([], "דוד כהן 7")
    drawn(figure, caplog)
    order = [char for char, _, _ in sorted(_drawn_glyphs(figure.axes[0].title), key=lambda item: item[2])]
    assert "".join(order) == "7 ןהכ דוד"


def test_a_name_no_font_has_is_drawn_as_a_visible_stand_in(caplog: pytest.LogCaptureFixture):
    assert drawable(UNDRAWABLE) == STAND_IN * 3
    assert drawable(f"{UNDRAWABLE} Ra") == f"{STAND_IN * 3} Ra"
    assert drawable("👨\u200d👩\u200d👧 ❤️ e\u0301") == "👨\u200d👩\u200d👧 ❤️ e\u0301"  # joiners, selectors, marks kept
    players = [Player(id=1, name=UNDRAWABLE, rating=1900), *eight_scripts_tournament().players[1:]]
    figure = crosstable_figure(new_tournament(players), UNDRAWABLE)
    drawn(figure, caplog)
    shown = [text for text in figure.axes[0].texts if text.get_text() == STAND_IN * 3]
    assert len(shown) == 2  # the title and the name
    assert all(glyph != 0 for text in shown for _, glyph, _ in _drawn_glyphs(text))


def test_the_fonts_are_registered_once():
    assert use_chart_fonts() is use_chart_fonts()
    assert ord("龍") in use_chart_fonts() and ord("🐉") in use_chart_fonts() and ord("𓀀") not in use_chart_fonts()


def write_readme_picture(path: Path) -> None:
    figure = crosstable_figure(eight_scripts_tournament(), "Friday Swiss · 金曜スイス")
    figure.savefig(path, format="png")


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parents[2] / "docs/images/crosstable.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    write_readme_picture(target)
    print(target)


def test_a_chart_of_latin_texts_is_drawn_in_one_family_and_any_other_script_in_all():
    assert families_for("Deck optimization, seed 1", "start deck: 3.6% (95% interval 3.3–4.0%)") == ["DejaVu Sans"]
    for script in ("Latin", "Cyrillic", "Greek", "Arabic"):  # DejaVu Sans draws these alone, and first in the chain
        assert families_for(NAMES[script]) == ["DejaVu Sans"], script
    for script in ("Japanese", "Korean", "Devanagari", "emoji"):
        assert families_for("seed 1", NAMES[script]) == list(FAMILIES), script
    # the deck chart with a title in every script still draws each character (test above); in Latin, one family
    figure = winrate_figure(optimize(OptimizeSettings(iterations=3, games=20, seed=1)), "Deck optimization, seed 1")
    assert figure.axes[0].title.get_fontfamily() == ["DejaVu Sans"]


FIRST_LATIN_THEN_JAPANESE = """
from matplotlib.font_manager import fontManager
from rules.deck.chart import winrate_chart_png, winrate_figure
from rules.deck.optimize import OptimizeSettings, optimize

def noto():
    return sorted({entry.name for entry in fontManager.ttflist if entry.name.startswith("Noto")})

result = optimize(OptimizeSettings(iterations=3, games=20, seed=1))
winrate_chart_png(result, "Deck optimization, seed 1")
print(noto())
figure = winrate_figure(result, "山田 花子")
figure.canvas.draw()
print(noto())
print(figure.axes[0].title.get_text(), figure.axes[0].title.get_fontfamily())
"""


def test_a_process_registers_the_other_fonts_when_a_text_first_needs_them():
    """A /deck chart of Latin texts registers no font but DejaVu Sans (the command line's chart process is the
    faster for it); a Japanese title then registers the chain, and is drawn in it without a missing glyph."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", FIRST_LATIN_THEN_JAPANESE], cwd=root, capture_output=True, text=True, check=True
    )
    before, after, title = done.stdout.splitlines()
    assert before == "[]"
    assert "'Noto Sans CJK JP'" in after and "'Noto Emoji'" in after
    assert title == f"山田 花子 {list(FAMILIES)}"
    assert done.stderr == ""  # matplotlib warns of each glyph it finds in no font
