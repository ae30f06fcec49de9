# This module is where Arena reads discord.py's private parts, and the only one: pyright's private-use check is off
# here and nowhere else.
# pyright: reportPrivateUsage=false
"""Every place Arena relies on discord.py's private parts, because no public API does the job (discord.py 2.7).

- An interaction's response is a cached slot (`Interaction._cs_response`): the only way to give a handler a
  response that also knows when an answer is on its way (`arena.watchdog.WatchedResponse`).
- The component routing table (`ConnectionState._view_store`): `Client.persistent_views` lists only the
  persistent views, not the views bound to a message nor the dynamic items (the games' buttons), and nothing
  public tells whether a custom id has a handler or which dynamic item handles it.
- The names discord.py gives the tasks that run interaction handlers: nothing public lists those tasks, and
  a shutdown waits for them.

`tests/cogs/test_discord_internals.py` checks each against the installed discord.py, through the real dispatch,
so an upgrade that changes one fails there by name rather than somewhere downstream.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from typing import Any

import discord
from discord import ui

# The names discord.py gives the tasks that run an interaction's handler (commands, views, persistent items, modals).
HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal",
)


def set_response(interaction: discord.Interaction, response: discord.InteractionResponse) -> None:
    """Make `response` what `interaction.response` returns from now on."""
    interaction._cs_response = response  # pyright: ignore[reportAttributeAccessIssue]  # discord.py's cached slot


def dynamic_items(client: discord.Client) -> Mapping[re.Pattern[str], type[ui.DynamicItem[Any]]]:
    """The dynamic items the client routes clicks to (`Client.add_dynamic_items`), by their custom id pattern."""
    return client._connection._view_store._dynamic_items


def has_component_handler(client: discord.Client, interaction: discord.Interaction) -> bool:
    """Whether a live view or a dynamic item handles this component interaction, read the way discord.py's own
    dispatch looks it up."""
    store = client._connection._view_store
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id", "")
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (data.get("component_type"), custom_id)
    message_id = interaction.message.id if interaction.message else None
    return key in store._views.get(message_id, {}) or key in store._views.get(None, {})


def interaction_handlers() -> list[asyncio.Task[Any]]:
    """The tasks running an interaction's handler now, but the current one."""
    current = asyncio.current_task()
    return [
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(HANDLER_TASK_PREFIXES)
    ]
