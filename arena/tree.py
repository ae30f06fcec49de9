"""The app-command tree and its one mapping from errors to replies, for slash commands, views and dynamic buttons
alike (the cogs' component callbacks run inside `error_reply`; the watchdog reports through `report_error`).

A user's mistake (UserError, RuleInputError, failed checks, bad option values) gets its specific message,
ephemeral. A database that is down or full (StorageOutage) gets what to do, and the database logs the outage
once. A stored state that cannot be read (DamagedState) gets an error id and one log line naming its row.
Anything else gets a short error id the user can quote; the traceback goes to the log with it.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager, suppress

import discord
from discord import app_commands

from arena.text import EmbedLimits, clip, markdown_safe
from observability import ended_with, handling, interaction_context, log_fields
from rules.errors import RuleInputError
from storage.codec import DamagedState
from storage.errors import StorageOutage

log = logging.getLogger("arena.errors")


class UserError(app_commands.AppCommandError):
    """A mistake or a refusal to explain to the user; the text is shown as it is (markdown included), so
    whoever raises it escapes the user's text in it. An engine's RuleInputError is escaped whole."""


def user_message(error: BaseException) -> str | None:
    """The message for a user's mistake, or None when the error is the bot's fault."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.TransformerError) and isinstance(error.__cause__, (UserError, RuleInputError)):
        error = error.__cause__
    if isinstance(error, RuleInputError):  # plain text that quotes the user's files: shown as written
        return markdown_safe(str(error))
    if isinstance(error, UserError):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works in a server channel, not in direct messages."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.MissingPermissions):
        return f"You need the {', '.join(p.replace('_', ' ') for p in error.missing_permissions)} permission."
    if isinstance(error, app_commands.TransformerError):
        return f"'{error.value}' is not a valid {error.type.name.lower()} here."
    if isinstance(error, app_commands.CheckFailure) and str(error):
        return str(error)
    if isinstance(error, app_commands.CommandNotFound):
        return "That command is not available any more; Discord may still be updating its command list."
    return None


ANSWER_SHOWN = "arena.answer_shown"


def answer_shown(interaction: discord.Interaction) -> None:
    """Record that the interaction's original response now holds its answer (e.g. a first followup after a
    defer replaced the "thinking…" placeholder), so that a later failure is reported beside it, not over it."""
    interaction.extras[ANSWER_SHOWN] = True


async def _send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    text = clip(text, EmbedLimits.MESSAGE - 100)
    try:
        if interaction.response.is_done():
            deferred = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
            if deferred and not interaction.extras.get(ANSWER_SHOWN):
                # The first followup would replace the "thinking…" placeholder (or the progress shown in it) and
                # keep its visibility, showing the mistake to everyone after a public defer: remove it and answer
                # privately. An answer that replaced it (see answer_shown) stays.
                with suppress(discord.HTTPException):
                    await interaction.delete_original_response()
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply to interaction %s", interaction.id, exc_info=True)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    outage = getattr(error, "original", error)
    if isinstance(outage, StorageOutage):  # the database logs the outage once; the player hears what to do
        await _send_ephemeral(interaction, f"⚠️ {outage}")
        ended_with(interaction, "error")
        return
    if isinstance(outage, DamagedState):  # the bot's fault, not the player's: one line naming the row, no traceback
        error_id = secrets.token_hex(4)
        log.error(
            "error %s: %s", error_id, outage, extra=log_fields(interaction_context(interaction), error_id=error_id)
        )
        await _send_ephemeral(
            interaction,
            f"⚠️ This {outage.what}'s saved state is damaged; the bot's operator has been told (error id `{error_id}`).",
        )
        ended_with(interaction, "error")
        return
    message = user_message(error)
    if message is not None:
        await _send_ephemeral(interaction, f"❌ {message}")
        ended_with(interaction, "refused")
        return
    error_id = secrets.token_hex(4)
    original = getattr(error, "original", error)
    log.error(
        "error %s in interaction %s (user %s, guild %s, data %s)",
        error_id,
        interaction.id,
        interaction.user.id if interaction.user else None,
        interaction.guild_id,
        interaction.data,
        exc_info=original,
        extra=log_fields(interaction_context(interaction), error_id=error_id),
    )
    await _send_ephemeral(
        interaction,
        f"⚠️ Something went wrong on our side (error id `{error_id}`). If it keeps happening, give the "
        "bot's owner this id.",
    )
    ended_with(interaction, "error")


@asynccontextmanager
async def error_reply(interaction: discord.Interaction) -> AsyncGenerator[None, None]:
    """Wrap a component callback that discord.py would otherwise only log on failure."""
    handling(interaction)
    try:
        yield
    except Exception as exc:
        await report_error(interaction, exc)


class ArenaTree(app_commands.CommandTree):
    """The bot's command tree: every command's task is made known to observability, and every error reported."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        handling(interaction)  # the first thing discord.py runs in a command's or autocomplete's task
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)
