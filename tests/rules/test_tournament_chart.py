"""A Swiss tournament's standings and crosstable as a picture: the worked example of docs/rules/tournament.md cell
by cell, byes, forfeits, games to play, withdrawals and shared places, names drawn as typed, and sizes from an
empty sign-up to 64 players."""

from __future__ import annotations

import io
import struct

from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.text import Text

from rules.dark_theme import BACKGROUND, MUTED, TEXT
from rules.tournament import Player, Result, TournamentState, new_tournament, record_result, with_next_round, withdraw
from rules.tournament.chart import (
    MAX_HEIGHT_PX,
    crosstable_figure,
    crosstable_header,
    crosstable_png,
    crosstable_rows,
)
from tests.rules.test_tournament import EXAMPLE_RESULTS, WIN, example_field, field, played

DISCORD_LIMIT = 25 * 1024 * 1024
HOSTILE = "$_$ cash \\mathbf{x}"


def worked_example() -> TournamentState:
    state = new_tournament(example_field())
    for results in EXAMPLE_RESULTS:
        state = played(state, results)
    return state


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def texts(figure: Figure) -> list[Text]:
    return [text for text in figure.axes[0].texts if text.get_text()]


def test_the_worked_example_reads_as_the_rules_page_table():
    state = worked_example()
    assert crosstable_header(state) == ["#", "player", "R1", "R2", "R3", "pts", "Buch", "SB", "rating"]
    # places, points, Buchholz, Sonneborn-Berger and rating as the final standings of the rules page; each round
    # from the player's side: the opponent's place, w challenger / b opponent, the result
    assert crosstable_rows(state) == [
        ["1", "Gus", "5b ½", "2w 1", "4b 1", "2.5", "5.5", "4.75", "1500"],
        ["2", "Fay", "3w 1", "1b 0", "6w 1", "2", "5.5", "3", "1550"],
        ["3", "Ben", "2b 0", "5w 1", "7b 1", "2", "4.5", "2.5", "1750"],
        ["4", "Dev", "7b 1", "6w 1", "1w 0", "2", "4.5", "2", "1650"],
        ["5", "Cleo", "1w ½", "3b 0", "8w 1", "1.5", "4.5", "1.25", "1700"],
        ["6", "Ana", "8w 1", "4b 0", "2b 0", "1", "4", "0", "1800"],
        ["7", "Hana", "4w 0", "8b 1", "3w 0", "1", "4", "0", "1450"],
        ["8", "Eli", "6b 0", "7w 0", "5b 0", "0", "3.5", "0", "1600"],
    ]


def test_the_picture_is_drawn_for_discords_dark_theme_with_title_and_subtitle():
    state = worked_example()
    figure = crosstable_figure(state, "Friday Swiss")
    assert to_hex(figure.get_facecolor()) == BACKGROUND
    drawn = [text.get_text() for text in texts(figure)]
    assert drawn[:2] == ["Friday Swiss", "8 players · final standings"]
    assert float(texts(figure)[0].get_fontsize()) >= 13
    for line in crosstable_rows(state):  # every cell of the table is on the picture
        assert all(cell in drawn for cell in line)
    assert all(text.get_parse_math() is False for text in texts(figure))
    assert to_hex(texts(figure)[0].get_color()) == TEXT
    width, height = png_size(crosstable_png(state, "Friday Swiss"))
    assert width >= 1000 and height < width


def test_the_subtitle_gives_the_round_in_play():
    state = new_tournament(example_field())
    assert texts(crosstable_figure(state, "t"))[1].get_text() == "8 players · before round 1 of 3"
    state = played(state, EXAMPLE_RESULTS[0])
    assert texts(crosstable_figure(state, "t"))[1].get_text() == "8 players · round 1 of 3"


def test_a_hostile_name_and_title_are_drawn_literally():
    players = [Player(id=1, name=HOSTILE, rating=1600), *field(4)[1:]]
    state = played(new_tournament(players), [WIN, WIN])
    assert HOSTILE in [line[1] for line in crosstable_rows(state)]
    figure = crosstable_figure(state, f"{HOSTILE} open")
    figure.savefig(io.BytesIO(), format="png")  # drawn whole: a name read as a formula fails here
    drawn = {text.get_text(): text for text in texts(figure)}
    assert drawn[HOSTILE].get_parse_math() is False
    assert drawn[f"{HOSTILE} open"].get_parse_math() is False
    png_size(crosstable_png(state, f"{HOSTILE} open"))


def test_a_long_name_is_clipped_with_an_ellipsis():
    long_name = "Sir Reginald Bartholomew Fitzwilliam the Third"
    players = [Player(id=1, name=long_name, rating=1900), Player(id=2, name="W" * 40, rating=1850), *field(4)[2:]]
    state = new_tournament(players)
    names = [line[1] for line in crosstable_rows(state)]
    assert names[0] == "Sir Reginald Bartholo…" and len(names[0]) == 22
    figure = crosstable_figure(state, "t")
    drawn = {text.get_text() for text in texts(figure)}
    assert names[0] in drawn
    wide = next(text for text in texts(figure) if text.get_text().startswith("WWW"))  # too wide even clipped
    assert wide.get_text().endswith("…") and len(wide.get_text()) < 22
    renderer = figure.canvas.get_renderer()  # pyright: ignore[reportAttributeAccessIssue]
    assert wide.get_window_extent(renderer).width <= 2.15 * figure.dpi


def test_byes_forfeits_games_to_play_and_withdrawals():
    state = played(new_tournament(field(5)), [WIN, WIN])  # 1-3 and 4-2, 1 and 4 win; 5 has the bye
    state = with_next_round(state)  # 2-1, 5-4; 3 has the bye
    assert crosstable_rows(state) == [
        ["1", "P1", "2w 1", "5b …", "", "1", "1", "1", "1800"],
        ["2", "P3", "1b 0", "bye", "", "1", "1", "0", "1700"],
        ["3", "P4", "5w 1", "4b …", "", "1", "1", "0", "1650"],
        ["4", "P5", "bye", "3w …", "", "1", "1", "0", "1600"],
        ["5", "P2", "3b 0", "1w …", "", "0", "2", "0", "1750"],
    ]
    state = record_result(state, 2, 1, Result.DRAW)
    state = withdraw(state, 5)  # their game in hand is forfeited: a win for P4
    state = played(state, [WIN, WIN])  # round 3 without P5
    rows = crosstable_rows(state)
    assert [line[1:5] for line in rows if line[1].startswith("P5")] == [["P5 (withdrawn)", "bye", "1w −", ""]]
    assert [line[3][-3:] for line in rows if line[1] == "P4"] == ["b +"]
    figure = crosstable_figure(state, "t")
    greyed = [text for text in texts(figure) if text.get_text() == "P5 (withdrawn)"]
    assert greyed and to_hex(greyed[0].get_color()) == MUTED
    png_size(crosstable_png(state, "t"))


def test_places_shared_on_everything_are_marked():
    state = played(new_tournament(field(4, [1500] * 4), rounds=1), [WIN, WIN])  # 1 and 4 win, equal on all
    rows = crosstable_rows(state)
    assert [line[:3] for line in rows] == [
        ["1", "P1", "4w 1"],  # P3 is on line 4
        ["2=", "P4", "3w 1"],
        ["3", "P2", "2b 0"],
        ["4=", "P3", "1b 0"],
    ]
    assert any("shares the place above" in text.get_text() for text in texts(crosstable_figure(state, "t")))


def test_a_state_with_no_rounds_is_the_field_on_zero():
    state = new_tournament(field(6))
    rows = crosstable_rows(state)
    assert rows == [[str(n), f"P{n}", "", "", "", "0", "0", "0", str(1800 - 50 * (n - 1))] for n in range(1, 7)]
    width, height = png_size(crosstable_png(state, "sign-up closed"))
    assert width > 0 and height > 0


def test_sixty_four_players_and_six_rounds_fit_discord():
    state = new_tournament(field(64), rounds=6)
    results = [Result.CHALLENGER_WINS, Result.DRAW, Result.OPPONENT_WINS, Result.OPPONENT_FORFEITS] * 8
    for _ in range(5):
        state = played(state, results)
    state = withdraw(with_next_round(state), 3)
    rows = crosstable_rows(state)
    assert len(rows) == 64 and all(len(line) == 2 + 6 + 4 for line in rows)
    assert all(line[7] != "" for line in rows)  # round 6 is paired: a game to play, or forfeited
    png = crosstable_png(state, "Monthly Swiss")
    _, height = png_size(png)
    assert len(png) < DISCORD_LIMIT and height <= MAX_HEIGHT_PX


def test_a_larger_field_gets_shorter_rows_not_a_taller_picture():
    state = new_tournament(field(120, [1500.0] * 120), rounds=10)
    _, height = png_size(crosstable_png(state, "huge"))
    assert height <= MAX_HEIGHT_PX
