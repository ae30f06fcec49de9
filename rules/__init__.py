"""Pure, synchronous game engines: one module or package per game, plus shared CSV input.

Nothing here imports discord, sqlite or asyncio; every random result is driven by an explicit seed.
"""
