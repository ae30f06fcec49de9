"""Who counts as a game master (RULINGS 8, "Servers"): a member with Manage Server, always; else a member with
the server's own game-master role (`/arena-settings`, by role id) or, in a server that set none, the role named
by the bot's GM_ROLE setting. The server's setting is read from storage at each check, so no process acts on a
stale copy."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.bot import arena_bot, guild_id
from storage.guild_settings import GuildSettingsRepository


class NotGM(app_commands.CheckFailure):
    pass


async def gm_role_id(interaction: discord.Interaction) -> int | None:
    """The server's own game-master role, or None where it uses the bot's GM_ROLE."""
    return (await GuildSettingsRepository(arena_bot(interaction).db).get(guild_id(interaction))).gm_role_id


async def is_gm(interaction: discord.Interaction) -> bool:
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    if interaction.permissions.manage_guild:
        return True
    role_id = await gm_role_id(interaction)
    if role_id is not None:
        return member.get_role(role_id) is not None
    gm_role = arena_bot(interaction).settings.gm_role
    return bool(gm_role) and any(role.name.lower() == gm_role.lower() for role in member.roles)


async def require_gm(interaction: discord.Interaction) -> None:
    """Raise NotGM, with what it takes, unless the user is a GM. Buttons call it directly (app-command
    checks do not run for components); commands get it through `gm_only`."""
    if await is_gm(interaction):
        return
    role_id = await gm_role_id(interaction) if interaction.guild_id is not None else None
    gm_role = arena_bot(interaction).settings.gm_role
    if role_id is not None:
        who = f"the Manage Server permission or the <@&{role_id}> role"
    elif gm_role:
        who = f"the Manage Server permission or the '{gm_role}' role"
    else:
        who = "the Manage Server permission"
    raise NotGM(f"Only a game master can do that: it needs {who}.")


def gm_only():
    """An app-command check: only a GM may run the command."""

    async def predicate(interaction: discord.Interaction) -> bool:
        await require_gm(interaction)
        return True

    return app_commands.check(predicate)
