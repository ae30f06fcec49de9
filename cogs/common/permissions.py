"""What the bot may do on its own in a channel (post a ping, post a board again), and telling the member who
acted, plainly and once, when a permission is missing: the game goes on without that post."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger("arena.permissions")


def missing_to_post(
    permissions: discord.Permissions,
    *,
    in_thread: bool,
    embeds: bool = False,
    posting: bool = True,
) -> list[str]:
    """The permissions, by the names Discord's settings show, that the bot lacks to post a message there (or,
    `posting=False`, to edit its own: that needs no Send Messages)."""
    needs = [("view_channel", "View Channel")]
    if posting:
        needs.append(
            ("send_messages_in_threads", "Send Messages in Threads")
            if in_thread
            else ("send_messages", "Send Messages")
        )
    if embeds:
        needs.append(("embed_links", "Embed Links"))
    return [label for name, label in needs if not getattr(permissions, name)]


def in_thread(interaction: discord.Interaction) -> bool:
    return isinstance(interaction.channel, discord.Thread)


class PermissionNotices:
    """Tells a member what the bot cannot do in a channel, once per member, channel and missing permissions (a
    member who moves again is not told again); every skipped post is one warning line, without a traceback."""

    def __init__(self) -> None:
        self._told: set[tuple[int, int, tuple[str, ...]]] = set()

    async def tell(self, interaction: discord.Interaction, channel_id: int, doing: str, missing: list[str]) -> None:
        log.warning("cannot %s in channel %s: the bot lacks %s", doing, channel_id, ", ".join(missing))
        key = (interaction.user.id, channel_id, tuple(missing))
        if key in self._told:
            return
        self._told.add(key)
        needed = " and ".join(missing)
        try:
            await interaction.followup.send(
                f"I can't post in <#{channel_id}>, so I can't {doing}: give me {needed} there.", ephemeral=True
            )
        except discord.HTTPException as refused:
            log.warning("could not tell member %s what the bot lacks: %s", interaction.user.id, refused.status)
