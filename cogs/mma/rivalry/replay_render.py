"""What /mma replay shows: a finished match step by step, with both hands open, within Discord's limits."""

from __future__ import annotations

import discord

from cogs.common import (
    COLOR_INFO,
    EmbedLimits,
    PlainLimits,
    as_written,
    bold,
    clip,
    fit_embed,
    lines_within,
    plain_text,
    seed_footer,
)
from cogs.mma.matches import render
from cogs.mma.rivalry.items import (
    FIRST,
    LAST,
    REPLAY_MOMENT,
    REPLAY_RANGE,
    REPLAY_TURN,
    RivalrySelect,
    replay_button,
    rivalry_select,
)
from rules.mma.cards import CARDS
from rules.mma.engine import outcome
from rules.mma.replay import ReplayIndex, ReplayStep
from rules.mma.state import END_TURN, OVER
from rules.mma.text import describe
from storage.mma import Match, ended_words

SELECT_OPTIONS = 25  # Discord's most options in a select
TURNS_LISTED = SELECT_OPTIONS  # turns one select lists; more go in ranges of as many
HANDS_SHOWN = "🂠 The match is over, so both players' hands are shown to everyone."


def _step_lines(match: Match, step: ReplayStep, index: ReplayIndex) -> list[str]:
    """What happened in one step, each fact once: where it is (the turn and the step), the move where no event
    line tells it (an end of turn), the events, and the end. The feed's turn line is left out (the headline
    has the turn, the ▶ whose it is, the board the energy), and so is its end line (the end lines say it)."""
    last = len(index.turns) - 1
    head = f"**Turn {index.turns[step.number]} of {index.last_turn}** · step {step.number} of {last}"
    lines = [head + (": the deal" if step.number == 0 else "")]
    if step.move is not None and step.move.kind == END_TURN:
        lines.append(f"{render.called(match, step.move.player)} ends the turn")
    shown = (e for e in step.events if e.kind not in ("turn", "over"))
    lines += [line for line in (describe(e, render.both_called(match), strong=bold) for e in shown) if line]
    ended = outcome(step.state)
    if ended is not None:
        lines.append(render.end_title(match, ended)[1] + render.rating_change_lines(match))
    return lines


def _hand_line(step: ReplayStep, slot: int) -> str:
    hand = step.state.players[slot].hand
    return "🂠 Hand: " + (", ".join(CARDS[card].name for card in hand) if hand else "empty")


def _turn_option(match: Match, index: ReplayIndex, steps: list[ReplayStep], turn: int) -> discord.SelectOption:
    start = index.turn_start(turn)
    whose = as_written(match.names[steps[start].state.current])  # a select renders no markdown
    label = plain_text(f"Turn {turn} · {whose}", PlainLimits.OPTION_LABEL)
    return discord.SelectOption(label=label, value=str(turn), description=f"step {start}")


def _turn_range(turn: int) -> range:
    """The turns listed with `turn` in the select of turns (TURNS_LISTED of them, from 1)."""
    first = (turn - 1) // TURNS_LISTED * TURNS_LISTED + 1
    return range(first, first + TURNS_LISTED)


def _jumps(match: Match, steps: list[ReplayStep], index: ReplayIndex, number: int) -> list[RivalrySelect]:
    """The selects that jump: to a knockout or the end, to a turn (of the current step's range of turns) and,
    when the turns do not fit one select, to a range of turns: any turn in two clicks at most."""
    selects: list[RivalrySelect] = []
    last_turn, last = index.last_turn, len(steps) - 1
    if last_turn > TURNS_LISTED:
        ranges = [
            discord.SelectOption(
                label=f"Turns {first}–{min(first + TURNS_LISTED - 1, last_turn)}",
                value=str(first),
                description=f"from step {index.turn_start(first)}",
            )
            for first in range(1, last_turn + 1, TURNS_LISTED)
        ]
        selects.append(rivalry_select(match.id, match.version, REPLAY_RANGE, ranges, "Jump to a range of turns"))
    listed = [t for t in _turn_range(index.turns[number]) if t <= last_turn]
    turns = [_turn_option(match, index, steps, turn) for turn in listed]
    selects.append(rivalry_select(match.id, match.version, REPLAY_TURN, turns, "Jump to a turn"))
    moments = [
        discord.SelectOption(
            label=plain_text(
                f"💥 KO: {CARDS[ko.fighter].name} ({as_written(match.names[ko.player])})", PlainLimits.OPTION_LABEL
            ),
            value=str(ko.step),
            description=f"turn {index.turns[ko.step]} · step {ko.step}",
        )
        for ko in index.knockouts
        if ko.step != last
    ][: SELECT_OPTIONS - 1]
    moments.append(
        discord.SelectOption(
            label=f"🏁 The end: {clip(ended_words(steps[last].state.reason), 80)}",
            value=str(last),
            description=f"turn {last_turn} · step {last}",
        )
    )
    selects.append(rivalry_select(match.id, match.version, REPLAY_MOMENT, moments, "Jump to a knockout or the end"))
    return selects


def replay_message(
    match: Match, steps: list[ReplayStep], index: ReplayIndex, number: int
) -> tuple[discord.Embed, discord.ui.View]:
    """Step `number` of a finished match's replay: the board as it was after the move that led there, both hands
    open, buttons to the first, the previous, the next and the last step, and selects that jump."""
    step, last = steps[number], len(steps) - 1
    state = step.state
    body = lines_within(_step_lines(match, step, index), EmbedLimits.DESCRIPTION - len(HANDS_SHOWN) - 2)
    embed = discord.Embed(
        title=f"📼 Replay of match #{match.id}: {match.names[0]} vs {match.names[1]}",
        description=f"{body}\n\n{HANDS_SHOWN}",
        color=COLOR_INFO,
    )
    for slot in (0, 1):
        marker = " ▶" if state.phase != OVER and state.to_move == slot else ""
        board = render.fighter_block(match, state, slot)  # the live board's own block
        embed.add_field(
            name=f"{render.CORNER_MARKS[slot]} {match.names[slot]}{marker}",
            value=lines_within([board, _hand_line(step, slot)], EmbedLimits.FIELD_VALUE),
            inline=True,
        )
    embed.set_footer(text=seed_footer(match.seed))
    view = discord.ui.View(timeout=None)
    at_start, at_end = number == 0, number == last
    view.add_item(replay_button(match.id, match.version, FIRST, label="⏮ Start", disabled=at_start))
    view.add_item(replay_button(match.id, match.version, max(number - 1, 0), label="◀ Back", disabled=at_start))
    view.add_item(replay_button(match.id, match.version, min(number + 1, last), label="Forward ▶", disabled=at_end))
    view.add_item(replay_button(match.id, match.version, LAST, label="End ⏭", disabled=at_end))
    for select in _jumps(match, steps, index, number):
        view.add_item(select)
    return fit_embed(embed), view
