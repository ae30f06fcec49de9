"""Every game's tables, as each declares them beside its repository (storage/tables.py says what a declaration
holds): a new game's `TABLES` joins this list, and server erasure, /arena my-data, /arena forget-me and
/arena profile take it in. The order is the order of a member's copy and of the profile's parts."""

from __future__ import annotations

from storage import (
    andor_tables,
    bossfight,
    deck,
    guild_settings,
    mfd,
    mma,
    ratings,
    servers,
    tournament,
    uploads,
    web_pages,
    world_boss,
)
from storage.tables import Table, Tables, erasure_order

DECLARED: tuple[Tables, ...] = (
    ratings.TABLES,
    mma.TABLES,
    bossfight.TABLES,
    world_boss.TABLES,
    andor_tables.TABLES,
    deck.TABLES,
    uploads.TABLES,
    tournament.TABLES,
    mfd.TABLES,
    guild_settings.TABLES,
    web_pages.TABLES,
    servers.TABLES,
)

TABLES: tuple[Table, ...] = tuple(table for owner in DECLARED for table in owner.tables)
ERASURE_ORDER: tuple[Table, ...] = tuple(erasure_order(DECLARED))  # each table before those it references

__all__ = ["DECLARED", "ERASURE_ORDER", "TABLES"]
