"""The bot's own events between cogs: a cog that learns something about the games' channels says so with
`bot.dispatch(EVENT, ...)`, and each game that cares hears it with `@commands.Cog.listener(listener(EVENT))`, so
the teller imports no game and a new game subscribes without editing it."""

from __future__ import annotations

# A deleted channel's live games have ended (cogs/lifecycle): heard with the storage.lifecycle.EndedGames, so a
# game drops what it keeps in memory for them (timers).
CHANNEL_GAMES_ENDED = "channel_games_ended"


def listener(event: str) -> str:
    """The name a cog's listener of `event` has (discord.py calls `on_<event>`)."""
    return f"on_{event}"
