"""Embeds and files that stay within Discord's limits, and the small renderings every game uses."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence

import discord

from arena.text import EmbedLimits, clip
from rules.text import format_number
from storage.member_data import FORMER_MEMBER, FORMER_MEMBER_NAME

COLOR_INFO = discord.Color.blurple()
COLOR_VICTORY = discord.Color.green()
COLOR_DEFEAT = discord.Color.red()


def bold(text: str) -> str:
    """`text` in bold: the bot's mark for what a game's line stresses (`rules.text.Mark`)."""
    return f"**{text}**"


def lines_within(lines: Iterable[str], limit: int, *, more: str = "… and {n} more", sep: str = "\n") -> str:
    """Join lines (or, with `sep=", "`, a list), stopping before `limit` characters and saying how many were
    left out."""
    lines = list(lines)
    whole = sep.join(lines)
    if len(whole) <= limit:
        return whole
    kept: list[str] = []
    length = -len(sep)  # no separator before the first line
    for index, line in enumerate(lines):
        left_after = len(lines) - index - 1
        # Room is kept for the "and N more" that would follow if a later line does not fit.
        reserve = len(more.format(n=left_after)) + len(sep) if left_after else 0
        if length + len(sep) + len(line) + reserve > limit:
            kept.append(more.format(n=len(lines) - index))
            break
        kept.append(line)
        length += len(sep) + len(line)
    return clip(sep.join(kept), limit)


def tail_within(lines: Sequence[str], limit: int) -> str:
    """The most recent lines (the end of `lines`) that fit in `limit` characters, oldest first."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        line = clip(line, limit)
        cost = len(line) + (1 if kept else 0)
        if used + cost > limit:
            break
        kept.append(line)
        used += cost
    return "\n".join(reversed(kept)) or "\u200b"


def hp_figure(current: float) -> str:
    """HP to 2 decimals, except that HP left above 0 never reads as 0: 0.004 stays 0.004."""
    shown = round(current, 2)
    if current > 0 and shown <= 0:  # two significant digits instead
        decimals = 1 - math.floor(math.log10(current))
        return f"{current:.{decimals}f}".rstrip("0")
    return format_number(shown)


def hp_bar(current: float, maximum: float, width: int = 20) -> str:
    """`█████░░░░░ 50/100` with the filled part rounded up, so anything alive shows at least one block."""
    maximum = max(maximum, 1e-12)
    fraction = min(max(current / maximum, 0.0), 1.0)
    filled = min(width, math.ceil(fraction * width)) if current > 0 else 0
    return f"{'█' * filled}{'░' * (width - filled)} {hp_figure(current)}/{format_number(maximum)}"


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip every part to its limit and drop trailing fields until the total fits."""
    if embed.title:
        embed.title = clip(embed.title, EmbedLimits.TITLE)
    if embed.description:
        embed.description = clip(embed.description, EmbedLimits.DESCRIPTION)
    fields = embed.fields[: EmbedLimits.FIELDS]
    embed.clear_fields()
    for field in fields:
        embed.add_field(
            name=clip(field.name or "\u200b", EmbedLimits.FIELD_NAME),
            value=clip(field.value or "\u200b", EmbedLimits.FIELD_VALUE),
            inline=field.inline,
        )
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, EmbedLimits.FOOTER), icon_url=embed.footer.icon_url)
    while len(embed) > EmbedLimits.TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > EmbedLimits.TOTAL and embed.description:
        embed.description = clip(embed.description, max(1, len(embed.description) - (len(embed) - EmbedLimits.TOTAL)))
    return embed


def text_file(name: str, text: str) -> discord.File:
    data = text.encode("utf-8")
    if len(data) > EmbedLimits.FILE_BYTES:
        note = "\n… cut here: the file reached Discord's 10 MiB limit.\n".encode()
        data = data[: EmbedLimits.FILE_BYTES - len(note)].decode("utf-8", "ignore").encode() + note
    return discord.File(io.BytesIO(data), filename=name)


MEDALS = ("🥇", "🥈", "🥉")


def medal_lines(rows: Iterable[str]) -> list[str]:
    """A ranking, best first: medals for the first three, then numbers."""
    return [f"{MEDALS[i] if i < len(MEDALS) else f'{i + 1}.'} {row}" for i, row in enumerate(rows)]


def mention(user_id: int) -> str:
    """How a player is named wherever Discord renders mentions (content, descriptions, field values): a mention,
    which shows their current name and never pings (replies are sent with no allowed mentions). Titles, footers
    and files do not render mentions; they name a player by `markdown_safe(display name)`. A member who erased
    their data (`/arena forget-me`) is "a former member" in the rows others keep (RULINGS 8): FORMER_MEMBER, or
    in a tournament's table, where each must stay apart, an id below it."""
    return FORMER_MEMBER_NAME if user_id <= FORMER_MEMBER else f"<@{user_id}>"


def seed_footer(seed: int, *notes: str) -> str:
    """Every game's footer for a seeded result: the seed first, where a player looks to replay it."""
    return " · ".join([f"seed {seed}", *notes])
