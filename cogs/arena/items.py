"""The persistent buttons of /arena forget-me: `arena:<member>:<fingerprint>:forget` (erase) and `...:keep`.

The id is the member the confirmation was drawn for, whose click alone counts; the version is the fingerprint of
their data in the server when it was drawn (`storage.member_data.MemberData.fingerprint`), so a click erases only
what the confirmation listed: a second click, or one after the member played again, changes nothing.
"""

from __future__ import annotations

from typing import ClassVar

from cogs.common.components import GameButton, component_template

GAME = "arena"
FORGET = "forget"
KEEP = "keep"
COG_NAME = "Arena"


class ForgetButton(GameButton, template=component_template(GAME, [FORGET, KEEP])):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = "Arena"
