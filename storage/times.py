"""How the tables keep a moment: ISO 8601 UTC text to the millisecond with a `Z` (`2026-11-27T08:34:24.123Z`), as
`utc_now_text` and SQLite's strftime('%Y-%m-%dT%H:%M:%fZ', ...) write it. Fixed width, so ordering the text
orders the moments. The games' clocks count unix seconds (an idle claim, a raid's cooldown): a repository turns
their time into the stored text with `stored_time` and the text back with `unix_time`, and nowhere else."""

from __future__ import annotations

from datetime import UTC, datetime


def stored_time(unix: float) -> str:
    """A unix time as the tables hold it, to the millisecond (cut, as `utc_now_text` cuts it: a stored time is
    never later than the moment it records, so a cooldown or an idle claim never waits longer for it)."""
    return datetime.fromtimestamp(unix, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def unix_time(text: str) -> float:
    """A stored time as unix seconds."""
    return datetime.fromisoformat(text).timestamp()


__all__ = ["stored_time", "unix_time"]
