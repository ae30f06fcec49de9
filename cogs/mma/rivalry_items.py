"""The persistent buttons of /mma history and /mma replay, registered with the match buttons (`cogs.mma.items`).

- Leaderboard pages: `mma:0:0:leaderboard-<page>`. The leaderboard is read again on every click, in the server of
  the click, and shows the standing of whoever clicked.
- History pages: `mma:<member>:0:history-<page>`. The id is the member whose history it is; the history is read
  again on every click, in the server of the click, so there is no earlier moment to refuse (version 0).
- Replay steps: `mma:<match>:<version>:replay-<step>`, `replay-first` and `replay-last` (the first and last step
  have words of their own, so no two buttons of one message share a custom id). The version is the finished
  match's, which no longer changes.

Anyone may press them: a history and a replay are public messages, and a press only turns their page for
everyone, as the command would show it to anyone who ran it.
"""

from __future__ import annotations

import re
from typing import ClassVar

from cogs.common.components import GameButton, component_template
from cogs.mma.items import COG_NAME, GAME, GAME_TITLE

LEADERBOARD = "leaderboard"
HISTORY = "history"
REPLAY = "replay"
FIRST = "first"
LAST = "last"
LEADERBOARD_PAGE = re.compile(rf"{LEADERBOARD}-(?P<page>[0-9]{{1,6}})")
HISTORY_PAGE = re.compile(rf"{HISTORY}-(?P<page>[0-9]{{1,6}})")
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


def leaderboard_button(page: int, *, label: str, disabled: bool) -> LeaderboardButton:
    return LeaderboardButton.make(GAME, 0, 0, f"{LEADERBOARD}-{page}", label=label, disabled=disabled)


def history_button(member_id: int, page: int, *, label: str, disabled: bool) -> HistoryButton:
    return HistoryButton.make(GAME, member_id, 0, f"{HISTORY}-{page}", label=label, disabled=disabled)


def replay_button(match_id: int, version: int, step: int | str, *, label: str, disabled: bool) -> ReplayButton:
    return ReplayButton.make(GAME, match_id, version, f"{REPLAY}-{step}", label=label, disabled=disabled)


RIVALRY_COMPONENTS = (LeaderboardButton, HistoryButton, ReplayButton)

__all__ = [
    "FIRST",
    "LAST",
    "RIVALRY_COMPONENTS",
    "HistoryButton",
    "LeaderboardButton",
    "ReplayButton",
    "history_button",
    "leaderboard_button",
    "replay_button",
]
