"""A Swiss tournament's standings and crosstable as a PNG for Discord (matplotlib's Agg canvas: no display, safe
off the main thread).

One line per player in standings order: the place, the name (as typed, clipped with an ellipsis; a withdrawn
player's line greyed and marked), one cell per round read from the player's side as a chess crosstable reads,
then points, Buchholz, Sonneborn-Berger and the rating at entry.

A round's cell is the opponent's place (their line in this table), the player's seat as chess writes it (w the
challenger, white; b the opponent, black) and the result: 1 a win, ½ a draw, 0 a loss, + a win by forfeit, − a
loss by forfeit, … still to play; "bye" for the bye, empty for a round not paired yet or one the player was no
longer in. So "4w 1" is a win as challenger against the player on line 4. Lines equal on points, both
tiebreaks and rating share a place: the second of them is written "2=" (line 2, sharing the place above).

Drawn for Discord's dark theme: the embed's own dark grey behind it, light text, wins green and losses red, rows
striped. The figure grows with the field and the rounds; a large field gets shorter rows, so the picture stays
under MAX_HEIGHT_PX pixels tall (64 players fit with rows to spare).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.chart_fonts import drawable, use_chart_fonts
from rules.dark_theme import BACKGROUND, GRID, LOSS, MUTED, TEXT, WIN
from rules.tournament.models import Colour, Game, PlayerResult, TournamentState, games_of, is_finished
from rules.tournament.standings import standings

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure
    from matplotlib.text import Text

STRIPE = "#313338"
DPI = 200
MAX_HEIGHT_PX = 3900
MAX_NAME_CHARS = 22  # a longer name is clipped with an ellipsis (and again if it is still too wide drawn)
WITHDRAWN = " (withdrawn)"
SYMBOLS = {
    PlayerResult.WIN: "1",
    PlayerResult.DRAW: "½",
    PlayerResult.LOSS: "0",
    PlayerResult.FORFEIT_WIN: "+",
    PlayerResult.FORFEIT_LOSS: "−",
}
SEATS = {Colour.CHALLENGER: "w", Colour.OPPONENT: "b"}  # lower case: "o" would read as a zero
LEGEND = (
    "Each round: the opponent's place, this player's seat (w challenger, white; b opponent, black), the result",
    "(1 win, ½ draw, 0 loss, + forfeit win, − forfeit loss, … to play).  Buchholz, Sonneborn-Berger: tiebreaks.",
)

# Column widths in inches (at FONT_SIZE), and how each column's text is aligned.
FONT_SIZE = 10.0
ROW_INCHES = 0.25
PLACE_W, NAME_W, ROUND_W, POINTS_W, TIEBREAK_W, RATING_W = 0.45, 2.15, 0.62, 0.5, 0.62, 0.62
MARGIN = 0.15
TOP_INCHES = 0.85  # the title and the subtitle
BOTTOM_INCHES = 0.5  # the legend


@dataclass(frozen=True)
class _Cell:
    text: str
    colour: str = TEXT


def _number(value: float) -> str:
    """2.0 as "2", 2.5 as "2.5", 4.75 as "4.75": as the rules page writes the table."""
    return f"{value:g}"


def _clipped(name: str, chars: int) -> str:
    return name if len(name) <= chars else name[: chars - 1].rstrip() + "…"


def _round_cell(game: Game | None, place_of: dict[int, int]) -> _Cell:
    if game is None:
        return _Cell("")
    if game.opponent is None or game.colour is None:
        return _Cell("bye", WIN)
    symbol = "…" if game.result is None else SYMBOLS[game.result]
    colour = {"1": WIN, "+": WIN, "0": LOSS, "−": LOSS}.get(symbol, TEXT)
    return _Cell(f"{place_of[game.opponent]}{SEATS[game.colour]} {symbol}", colour)


def _table(state: TournamentState) -> list[tuple[bool, list[_Cell]]]:
    """Each line of the table: whether the player withdrew, and the cells."""
    table = standings(state)
    place_of = {row.player.id: line for line, row in enumerate(table, start=1)}
    lines: list[tuple[bool, list[_Cell]]] = []
    for line, row in enumerate(table, start=1):
        player = row.player
        shared = line > 1 and table[line - 2].rank == row.rank
        if player.withdrawn:
            name = _clipped(player.name, MAX_NAME_CHARS - len(WITHDRAWN)) + WITHDRAWN
        else:
            name = _clipped(player.name, MAX_NAME_CHARS)
        by_round = {game.round: game for game in games_of(state, player.id)}
        cells = [
            _Cell(f"{line}=" if shared else str(line)),
            _Cell(name),
            *(_round_cell(by_round.get(number), place_of) for number in range(1, state.settings.rounds + 1)),
            _Cell(_number(row.points)),
            _Cell(_number(row.buchholz)),
            _Cell(_number(row.sonneborn_berger)),
            _Cell(str(round(player.rating))),
        ]
        if player.withdrawn:
            cells = [_Cell(cell.text, MUTED) for cell in cells]
        lines.append((player.withdrawn, cells))
    return lines


def crosstable_header(state: TournamentState) -> list[str]:
    return ["#", "player", *(f"R{n}" for n in range(1, state.settings.rounds + 1)), "pts", "Buch", "SB", "rating"]


def crosstable_rows(state: TournamentState) -> list[list[str]]:
    """The table's texts, one line per player in standings order, as `crosstable_header` names the columns."""
    return [[cell.text for cell in cells] for _, cells in _table(state)]


def _subtitle(state: TournamentState) -> str:
    players = f"{len(state.players)} players"
    if is_finished(state):
        return f"{players} · final standings"
    if not state.rounds:
        return f"{players} · before round 1 of {state.settings.rounds}"
    return f"{players} · round {len(state.rounds)} of {state.settings.rounds}"


def _fit(text: Text, width_px: float, renderer: RendererBase) -> None:
    """Clip a drawn text with an ellipsis until it is no wider than its column."""
    whole = text.get_text()
    keep = len(whole)
    while keep > 1 and text.get_window_extent(renderer).width > width_px:
        keep -= 1
        text.set_text(whole[:keep].rstrip() + "…")


def crosstable_figure(state: TournamentState, title: str) -> Figure:
    """The standings and crosstable as a matplotlib Figure (on an Agg canvas)."""
    # imported here: matplotlib costs a noticeable fraction of a second to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    use_chart_fonts()
    header = crosstable_header(state)
    lines = _table(state)
    rounds = state.settings.rounds
    widths = [PLACE_W, NAME_W, *[ROUND_W] * rounds, POINTS_W, TIEBREAK_W, TIEBREAK_W, RATING_W]
    aligns = ["right", "left", *["center"] * rounds, "right", "right", "right", "right"]
    width = sum(widths) + 2 * MARGIN
    rows = len(lines) + 1  # the header too
    fixed = TOP_INCHES + BOTTOM_INCHES
    row = min(ROW_INCHES, (MAX_HEIGHT_PX / DPI - fixed) / rows)  # a large field: shorter rows
    size = FONT_SIZE * min(1.0, row / ROW_INCHES)
    height = fixed + rows * row

    figure = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(figure)
    figure.set_facecolor(BACKGROUND)
    axes: Axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))  # pyright: ignore[reportUnknownMemberType]
    axes.set_axis_off()
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)  # inches from the top left corner

    # parse_math=False everywhere: names and the title are drawn as typed ("$_$ cash" is no formula)
    # The ignores below: matplotlib's stubs leave the **kwargs of its drawing calls untyped.
    axes.text(MARGIN, 0.32, drawable(title), fontsize=15, fontweight="bold", color=TEXT, va="center", parse_math=False)  # pyright: ignore[reportUnknownMemberType]
    axes.text(MARGIN, 0.64, _subtitle(state), fontsize=11, color=MUTED, va="center", parse_math=False)  # pyright: ignore[reportUnknownMemberType]

    lefts = [MARGIN + sum(widths[:i]) for i in range(len(widths))]
    pad = 0.06

    def anchor(column: int, align: str) -> float:
        if align == "left":
            return lefts[column] + pad
        if align == "right":
            return lefts[column] + widths[column] - pad
        return lefts[column] + widths[column] / 2

    top = TOP_INCHES
    for column, (words, align) in enumerate(zip(header, aligns, strict=True)):
        axes.text(  # pyright: ignore[reportUnknownMemberType]
            anchor(column, align), top + row / 2, words, ha=align, va="center", fontsize=size,
            fontweight="bold", color=MUTED, parse_math=False,
        )  # fmt: skip
    axes.plot([MARGIN, width - MARGIN], [top + row, top + row], color=GRID, linewidth=1.2)  # pyright: ignore[reportUnknownMemberType]
    # the rounds stand apart from the names and from the totals
    for x in (lefts[2], lefts[2 + rounds]):
        axes.plot([x, x], [top, top + rows * row], color=GRID, linewidth=1)  # pyright: ignore[reportUnknownMemberType]

    renderer = FigureCanvasAgg(figure).get_renderer()
    name_width_px = (widths[1] - 2 * pad) * DPI
    for index, (_, cells) in enumerate(lines):
        y = top + (index + 1) * row
        if index % 2:
            axes.add_patch(Rectangle((MARGIN, y), width - 2 * MARGIN, row, facecolor=STRIPE, linewidth=0, zorder=0))
        for column, (cell, align) in enumerate(zip(cells, aligns, strict=True)):
            if not cell.text:
                continue
            text = axes.text(  # pyright: ignore[reportUnknownMemberType]
                anchor(column, align), y + row / 2, drawable(cell.text), ha=align, va="center", fontsize=size,
                color=cell.colour, fontweight="bold" if column == len(cells) - 4 else "normal", parse_math=False,
            )  # fmt: skip
            if column == 1:
                _fit(text, name_width_px, renderer)

    legend: list[str] = list(LEGEND)
    if any(cells[0].text.endswith("=") for _, cells in lines):
        legend[-1] += "  2= shares the place above."
    for number, words in enumerate(legend):
        axes.text(  # pyright: ignore[reportUnknownMemberType]
            MARGIN, top + rows * row + 0.17 + number * 0.17, words, fontsize=7, color=MUTED, va="center",
            parse_math=False,
        )  # fmt: skip
    return figure


def crosstable_png(state: TournamentState, title: str) -> bytes:
    """The standings and crosstable as PNG bytes."""
    out = io.BytesIO()
    crosstable_figure(state, title).savefig(out, format="png", facecolor=BACKGROUND)  # pyright: ignore[reportUnknownMemberType]
    return out.getvalue()


__all__ = ["crosstable_figure", "crosstable_header", "crosstable_png", "crosstable_rows"]
