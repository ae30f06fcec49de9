"""The pages' addresses, one place for the app's routes' shapes and the bot's link buttons (cogs.common.web_links)."""

from __future__ import annotations


def server_path(guild_id: int) -> str:
    return f"/servers/{guild_id}"


def member_path(guild_id: int, user_id: int) -> str:
    return f"{server_path(guild_id)}/members/{user_id}"


def match_path(guild_id: int, match_id: int) -> str:
    return f"{server_path(guild_id)}/matches/{match_id}"


def tournament_path(guild_id: int, tournament_id: int) -> str:
    return f"{server_path(guild_id)}/tournaments/{tournament_id}"


def world_boss_path() -> str:
    """The world boss's page: one for the whole world, not a server's."""
    return "/world-boss"


__all__ = ["match_path", "member_path", "server_path", "tournament_path", "world_boss_path"]
