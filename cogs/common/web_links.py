"""A message's link to its page on the web (web/): there only when the bot knows where its pages are
(WEB_BASE_URL) and the server's game master turned them on (/arena-settings web_pages). Each message adds the
button in one line: `view = await with_page_link(bot, guild_id, view, match_path(guild_id, match.id))`."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import discord

from storage.web_pages import WebPagesRepository
from web.paths import match_path, member_path, server_path, tournament_path, world_boss_path

if TYPE_CHECKING:
    from arena.bot import ArenaBot

PAGE_LINK_LABEL = "Open on the web"


async def page_url(bot: ArenaBot, guild_id: int, path: str, *, of_member: int | None = None) -> str | None:
    """The page's address, or None where the server has no pages (or the bot no WEB_BASE_URL), or where the page
    is `of_member`'s and they hid it."""
    base = bot.settings.web_base_url
    if base is None:
        return None
    hidden = await WebPagesRepository(bot.db).shown_except(guild_id)
    if hidden is None or of_member in hidden:
        return None
    return base + path


async def with_page_link(
    bot: ArenaBot, guild_id: int, view: discord.ui.View | None, path: str, *, of_member: int | None = None
) -> discord.ui.View | None:
    """`view` (or a new one) with a link button to the page at `path` after the message's own; `view` as it was
    where there is no such page (`page_url`), or where its rows are full."""
    url = await page_url(bot, guild_id, path, of_member=of_member)
    if url is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    with contextlib.suppress(ValueError):  # no room left in the message's rows: the message as it was
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=PAGE_LINK_LABEL, url=url))
    return view


__all__ = [
    "PAGE_LINK_LABEL",
    "match_path",
    "member_path",
    "page_url",
    "server_path",
    "tournament_path",
    "with_page_link",
    "world_boss_path",
]
