"""/mma: MMA Warriors matches with buttons (the cog), their components and their rendering."""

from cogs.mma.cog import Mma, setup

__all__ = ["Mma", "setup"]
