"""A SQLite database as an installation left it before a migration, for the tests of that migration."""

from __future__ import annotations

import sqlite3

from storage.schema import discover_migrations


def migrate_before(old: sqlite3.Connection, number: int) -> None:
    """Apply every migration before `number` to `old`, and record it as at `number - 1`."""
    for applied, migration in discover_migrations():
        if applied < number:
            old.executescript(migration.read_text(encoding="utf-8"))
    old.execute(f"PRAGMA user_version = {number - 1}")
