"""One module or package per game (slash commands, views, embeds); shared pieces live in cogs.common."""
