"""What the fight and party modules use of the Andor cog: the cog imports them (its commands and clicks call
them), so they name this interface and never the cog's class (no import circle, type-only imports counted)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import discord
from discord import app_commands

from cogs.common.timers import Timers
from cogs.common.uploads import UploadedRoster
from rules.andor.engine import MAX_MONSTERS
from rules.andor.models import Monster
from storage.andor import AndorRepository
from storage.andor_party import PartyRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot


# The options a fight alone and a party fight share, as their commands describe them.
FIGHT_OPTION_HELP = {
    "monster": "The monster to fight",
    "count": f"How many of them (1-{MAX_MONSTERS})",
    "seed": "Random seed, to replay a fight",
    "monsters_first": "The monsters take the first turn (aggressive monsters always do)",
}


class PartyClock(Timers[int]):
    """One timer per open party, keyed by its id: the sign-up's lapse, or the end of the turn under way."""

    def __init__(self) -> None:
        super().__init__("run out the clock of party %s")


class AndorDesk(Protocol):
    """The Andor cog as its fight and party modules see it: the bot, the repositories, the monsters, the party
    clocks, and the cog's clock and seeds (which tests replace)."""

    bot: ArenaBot
    repo: AndorRepository
    parties: PartyRepository
    party_clock: PartyClock
    monsters_roster: UploadedRoster[Monster]
    clock: Callable[[], float]

    def seed_or_new(self, seed: int | None) -> int: ...

    async def monster_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]: ...
