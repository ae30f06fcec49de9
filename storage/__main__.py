"""`python -m storage backup <file>`: a consistent copy of Arena's database, taken while the bot runs.

SQLite's online backup copies the database page by page under its own locking, so the copy is a state the
database was really in, whatever the bot writes meanwhile. The database is the one the bot uses
(DATABASE_PATH from the environment or .env, default data/arena.sqlite3) unless --database names another.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE = Path("data/arena.sqlite3")


def configured_database() -> Path:
    """DATABASE_PATH as the bot reads it: the environment first, then .env in this folder."""
    value = os.environ.get("DATABASE_PATH") or dotenv_values(".env").get("DATABASE_PATH")
    return Path(value) if value else DEFAULT_DATABASE


def backup(database: Path, target: Path) -> int:
    """Copy `database` to `target` (which must not exist yet); the number of pages copied."""
    if not database.is_file():
        raise SystemExit(f"error: there is no database at {database}; set DATABASE_PATH or pass --database")
    if target.exists():
        raise SystemExit(f"error: {target} already exists; choose a new file name for the backup")
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
        (pages,) = copy.execute("PRAGMA page_count").fetchone()
        return pages
    except sqlite3.Error as exc:
        copy.close()
        target.unlink(missing_ok=True)
        raise SystemExit(f"error: the backup of {database} failed: {exc}") from None
    finally:
        copy.close()
        source.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage", description="Arena's database from the shell.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    take = commands.add_parser("backup", help="copy the database consistently, even while the bot runs")
    take.add_argument("file", type=Path, help="the new file to write the copy to")
    take.add_argument("--database", type=Path, help="the database to copy (default: DATABASE_PATH)")
    args = parser.parse_args(argv)
    database = args.database or configured_database()
    pages = backup(database, args.file)
    print(f"copied {database} to {args.file} ({pages} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
