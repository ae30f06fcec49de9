"""An attached file -> text, refusing what is too large or not text, with a message naming the file."""

from __future__ import annotations

import aiohttp
import discord

from arena.text import markdown_safe
from arena.tree import UserError

MAX_ATTACHMENT_BYTES = 1024 * 1024


async def read_text_attachment(attachment: discord.Attachment, *, limit: int = MAX_ATTACHMENT_BYTES) -> str:
    """UTF-8 text (with or without a byte-order mark) of an attachment of at most `limit` bytes."""
    name = markdown_safe(attachment.filename)
    if attachment.size > limit:
        raise UserError(too_large(name, attachment.size, limit))
    try:
        data = await attachment.read()
    # Discord's refusal, or the network failing on the way (no HTTPException: aiohttp's errors, and OSError,
    # which holds asyncio's TimeoutError): to the member, the same failed download.
    except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
        why = exc.status if isinstance(exc, discord.HTTPException) else "network error"
        raise UserError(f"{name} could not be downloaded from Discord ({why}); try attaching it again.") from None
    if len(data) > limit:  # the declared size can lie
        raise UserError(too_large(name, len(data), limit))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(
            f"{name} is not UTF-8 text (byte {exc.start}); save it as 'CSV UTF-8' from your spreadsheet."
        ) from None
    if "\x00" in text:
        raise UserError(f"{name} looks like a binary file, not a CSV text file.")
    return text


def too_large(name: str, size: int, limit: int) -> str:
    # in bytes: in KiB a file one byte over the limit would read as the limit itself
    return f"{name} is {size:,} bytes; the limit is {limit:,} bytes ({limit // 1024:,} KiB)."


async def defer_thinking(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Show Discord's "thinking…" before a download or a wait for an engine worker, either of which can outlast
    the 3 s a command has to answer. Quick refusals belong before it (they stay private without a public
    placeholder); a second call does nothing."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def read_attachments(
    interaction: discord.Interaction, *attachments: discord.Attachment, ephemeral: bool
) -> list[str]:
    """Defer first, then each attachment's text (see read_text_attachment)."""
    await defer_thinking(interaction, ephemeral=ephemeral)
    return [await read_text_attachment(attachment) for attachment in attachments]
