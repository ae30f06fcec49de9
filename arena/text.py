"""Discord's limits on what a message holds, and a user's text shown as written: what the shell's own replies and
every game's embeds keep to.

A user's text (a member's name, an upload's) is shown one of two ways, each with its one helper:
- in markdown (a message, an embed's title, description and fields): `markdown_safe`, escaped, so that it reads
  as written and mentions nobody;
- where Discord shows text without markdown (an autocomplete choice, a select option, a button label, a
  placeholder, a modal's title): `plain_text`, as written and cut to the place's limit (`PlainLimits`), since an
  escape would show there as a backslash.
"""

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


class PlainLimits:
    """The longest texts Discord takes where it shows them without markdown."""

    CHOICE_NAME = 100
    OPTION_LABEL = 100
    OPTION_DESCRIPTION = 100
    BUTTON_LABEL = 80
    PLACEHOLDER = 150
    MODAL_TITLE = 45


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def markdown_safe(text: str, limit: int | None = None) -> str:
    """A user's text shown as written, not as markdown nor as a mention (`<@id>`, `@everyone` would render as
    one, pinging or not): clipped to `limit` first, so that a cut never leaves a lone backslash escaping what
    follows."""
    text = clip(text, limit) if limit is not None else text
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def plain_text(text: str, limit: int) -> str:
    """A user's text where Discord shows it without markdown: as written, no escapes, cut to `limit`."""
    return clip(text, limit)


_ESCAPED_MENTION = re.compile("@\u200b(everyone|here|[!&]?[0-9]{17,20})")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def as_written(escaped: str) -> str:
    """The text `markdown_safe` was given, from what it made of it, for a plain place: MMA keeps its players' names
    escaped, as its embeds show them. escape_markdown doubles a backslash, so every escape undoes exactly, but for a
    backslash inside a link, which it leaves as it is."""
    return _ESCAPE.sub(r"\1", _ESCAPED_MENTION.sub(r"@\1", escaped))
