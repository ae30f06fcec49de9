"""The servers that removed the bot, each with when it did (written by storage/lifecycle.py, which erases a
server once its retention is over)."""

from __future__ import annotations

from storage.tables import Table, Tables

TABLES = Tables("server departures", (Table("guild_departures"),))

__all__ = ["TABLES"]
