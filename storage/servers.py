"""The servers themselves, as the lifecycle (storage/lifecycle.py) records them: each server's name as Discord
last told it (for its web pages), and the servers that removed the bot, with when they did (each erased once its
retention is over, its name with it)."""

from __future__ import annotations

from storage.tables import Table, Tables

TABLES = Tables("servers", (Table("server_names"), Table("guild_departures")))

__all__ = ["TABLES"]
