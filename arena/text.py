"""Discord's limits on what a message holds, and a user's text shown as written: what the shell's own replies and
every game's embeds keep to."""

from __future__ import annotations

import re

import discord


class EmbedLimits:
    TITLE = 256
    DESCRIPTION = 4096
    FIELDS = 25
    FIELD_NAME = 256
    FIELD_VALUE = 1024
    FOOTER = 2048
    TOTAL = 6000
    MESSAGE = 2000
    FILE_BYTES = 10 * 1024 * 1024


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def markdown_safe(text: str, limit: int | None = None) -> str:
    """A user's text shown as written, not as markdown nor as a mention (`<@id>`, `@everyone` would render as
    one, pinging or not): clipped to `limit` first, so that a cut never leaves a lone backslash escaping what
    follows."""
    text = clip(text, limit) if limit is not None else text
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def as_typed(shown: str) -> str:
    """A name `markdown_safe` stored, back as its member typed it (for a page that escapes it as HTML instead): its
    escaping backslashes off, and the zero-width space it put after an @ that made a mention."""
    return _ESCAPED.sub(r"\1", shown).replace("@\u200b", "@")
