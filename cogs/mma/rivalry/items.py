"""The persistent components of /mma history and /mma replay, registered with the match buttons (`cogs.mma.items`).

- Leaderboard pages: `mma:0:0:leaderboard-<page>`. The leaderboard is read again on every click, in the server of
  the click, and shows the standing of whoever clicked.
- History pages: `mma:<member>:0:history-<page>`. The id is the member whose history it is; the history is read
  again on every click, in the server of the click, so there is no earlier moment to refuse (version 0).
  The page's select, `mma:<member>:0:history-replay`, opens the chosen match (its number the value) as a replay
  of the clicker's own.
- Replay steps: `mma:<match>:<version>:replay-<step>`, `replay-first` and `replay-last` (the first and last step
  have words of their own, so no two buttons of one message share a custom id). The version is the finished
  match's, which no longer changes. The jumps are selects: `replay-range` and `replay-turn` (the value a turn:
  two turns may begin at one step) and `replay-moment` (the value a step: a knockout or the end).

The state of a replay is its step, carried by the component itself, so every viewer's replay is their own: a
replay is ephemeral, seen and clicked by its viewer alone. A history is public, and anyone may turn its pages.
"""

from __future__ import annotations

import re
from typing import ClassVar

import discord

from cogs.common import UserError
from cogs.common.components import GameButton, GameSelect, component_template, stored_id
from cogs.mma.items import COG_NAME, GAME, GAME_TITLE

LEADERBOARD = "leaderboard"
HISTORY = "history"
REPLAY = "replay"
FIRST = "first"
LAST = "last"
LEADERBOARD_PAGE = re.compile(rf"{LEADERBOARD}-(?P<page>[0-9]{{1,6}})")
HISTORY_PAGE = re.compile(rf"{HISTORY}-(?P<page>[0-9]{{1,6}})")
REPLAY_RANGE = f"{REPLAY}-range"  # value: the first turn of a range of turns
REPLAY_TURN = f"{REPLAY}-turn"  # value: a turn
REPLAY_MOMENT = f"{REPLAY}-moment"  # value: a step (a knockout, the end)
HISTORY_REPLAY = f"{HISTORY}-replay"  # value: a match
REPLAY_STEP = re.compile(rf"{REPLAY}-(?P<step>[0-9]{{1,6}}|{FIRST}|{LAST})")


class LeaderboardButton(GameButton, template=component_template(GAME, [], extra_actions=LEADERBOARD_PAGE.pattern)):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = GAME_TITLE

    @property
    def page(self) -> int:
        return int(self.action.removeprefix(f"{LEADERBOARD}-"))  # the template matched LEADERBOARD_PAGE


class HistoryButton(GameButton, template=component_template(GAME, [], extra_actions=HISTORY_PAGE.pattern)):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = GAME_TITLE

    @property
    def page(self) -> int:
        return int(self.action.removeprefix(f"{HISTORY}-"))  # the template matched HISTORY_PAGE


class ReplayButton(GameButton, template=component_template(GAME, [], extra_actions=REPLAY_STEP.pattern)):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = GAME_TITLE

    @property
    def step(self) -> str:
        """A step's number, or FIRST or LAST."""
        return self.action.removeprefix(f"{REPLAY}-")  # the template matched REPLAY_STEP


class RivalrySelect(
    GameSelect, template=component_template(GAME, [REPLAY_RANGE, REPLAY_TURN, REPLAY_MOMENT, HISTORY_REPLAY])
):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = GAME_TITLE

    @property
    def chosen(self) -> int:
        """The number chosen (a turn, a step or a match, as the action says); a value no option carries is refused
        as an unknown step or match would be."""
        values = self.values
        number = stored_id(values[0]) if values else None
        if number is None:
            raise UserError("Choose one of the list's options.")
        return number


def leaderboard_button(page: int, *, label: str, disabled: bool) -> LeaderboardButton:
    return LeaderboardButton.make(GAME, 0, 0, f"{LEADERBOARD}-{page}", label=label, disabled=disabled)


def history_button(member_id: int, page: int, *, label: str, disabled: bool) -> HistoryButton:
    return HistoryButton.make(GAME, member_id, 0, f"{HISTORY}-{page}", label=label, disabled=disabled)


def replay_button(match_id: int, version: int, step: int | str, *, label: str, disabled: bool) -> ReplayButton:
    return ReplayButton.make(GAME, match_id, version, f"{REPLAY}-{step}", label=label, disabled=disabled)


def rivalry_select(
    item_id: int, version: int, action: str, options: list[discord.SelectOption], placeholder: str
) -> RivalrySelect:
    return RivalrySelect.make(GAME, item_id, version, action, options, placeholder=placeholder)


RIVALRY_COMPONENTS = (LeaderboardButton, HistoryButton, ReplayButton, RivalrySelect)

__all__ = [
    "FIRST",
    "HISTORY_REPLAY",
    "LAST",
    "REPLAY_MOMENT",
    "REPLAY_RANGE",
    "REPLAY_TURN",
    "RIVALRY_COMPONENTS",
    "HistoryButton",
    "LeaderboardButton",
    "ReplayButton",
    "RivalrySelect",
    "history_button",
    "leaderboard_button",
    "replay_button",
    "rivalry_select",
]
