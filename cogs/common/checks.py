"""Who counts as a game master: Manage Guild permission, or the role named by the GM_ROLE setting."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.bot import arena_bot


class NotGM(app_commands.CheckFailure):
    pass


def is_gm(interaction: discord.Interaction) -> bool:
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    if interaction.permissions.manage_guild:
        return True
    gm_role = arena_bot(interaction).settings.gm_role
    return bool(gm_role) and any(role.name.lower() == gm_role.lower() for role in member.roles)


def require_gm(interaction: discord.Interaction) -> None:
    """Raise NotGM, with what it takes, unless the user is a GM. Buttons call it directly (app-command
    checks do not run for components); commands get it through `gm_only`."""
    if is_gm(interaction):
        return
    gm_role = arena_bot(interaction).settings.gm_role
    who = f"the Manage Server permission or the '{gm_role}' role" if gm_role else "the Manage Server permission"
    raise NotGM(f"Only a game master can do that: it needs {who}.")


def gm_only():
    """An app-command check: only a GM may run the command."""

    async def predicate(interaction: discord.Interaction) -> bool:
        require_gm(interaction)
        return True

    return app_commands.check(predicate)
