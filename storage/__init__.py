"""SQLite storage through one aiosqlite connection: migrations and one repository per aggregate."""

from storage.database import Database

__all__ = ["Database"]
