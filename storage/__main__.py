"""Arena's database from the shell.

`python -m storage backup <file>`: a consistent copy of Arena's database, taken while the bot runs.

SQLite's online backup copies the database page by page under its own locking, so the copy is a state the
database was really in, whatever the bot writes meanwhile. The database is the one the bot uses
(DATABASE_PATH from the environment or .env, default data/arena.sqlite3) unless --database names another.

`python -m storage copy --from <sqlite file> --to <postgresql url>`: moves an installation to PostgreSQL
(stop the bot first). Both databases are brought to the latest migration, every row is copied in one
transaction and each table's count verified; a target that already holds Arena data is refused.

`python -m storage world-spawn --boss <name> [--bosses <csv>] [--hp N | --multiplier X] [--days D] [--cooldown S]`:
spawns the world boss (RULINGS 9), for the bot's operators: a boss of the built-in roster, or of a boss CSV, in the
database the bot uses (DATABASE_URL, else DATABASE_PATH). Every process of the bot announces it within seconds.
"""

from __future__ import annotations

import argparse
import asyncio
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


def is_arena_database(path: Path) -> bool:
    """Whether `path` is a SQLite file Arena's migrations made (read only: nothing is created or changed)."""
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        (version,) = connection.execute("PRAGMA user_version").fetchone()
    except sqlite3.Error:
        return False
    finally:
        connection.close()
    return version > 0


def backup(database: Path, target: Path) -> int:
    """Copy `database` to `target` (which must not exist yet); the number of pages copied."""
    if not database.is_file():
        raise SystemExit(f"error: there is no database at {database}; set DATABASE_PATH or pass --database")
    if target.exists():
        raise SystemExit(f"error: {target} already exists; choose a new file name for the backup")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)  # e.g. backups/, on the first backup
        copy = sqlite3.connect(target)
    except (OSError, sqlite3.Error) as exc:
        raise SystemExit(f"error: the backup cannot be written to {target} ({exc})") from None
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
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


async def copy(source_path: Path, url: str) -> dict[str, int]:
    from storage.errors import StorageUnavailable
    from storage.postgres import PostgresDatabase, TargetNotEmpty, copy_sqlite_to_postgres, shown_url
    from storage.sqlite import Database

    try:
        source = await Database.open(source_path)
    except StorageUnavailable as exc:
        raise SystemExit(f"error: {exc}") from None
    try:
        target = await PostgresDatabase.open(url)
    except StorageUnavailable as exc:
        await source.close()
        raise SystemExit(f"error: {exc}") from None
    try:
        return await copy_sqlite_to_postgres(source, target)
    except TargetNotEmpty as full:
        raise SystemExit(
            f"error: {shown_url(url)} already holds Arena data (table {full}); copy into an empty database"
        ) from None
    finally:
        await source.close()
        await target.close()


async def world_spawn(args: argparse.Namespace) -> str:
    """Spawn the world boss from the shell; what was spawned, in a line."""
    import time

    from rules.bossfight import find_boss, guild_roster, parse_bosses
    from rules.bossfight.world import spawned_hp
    from storage.sqlite import Database
    from storage.world_boss import WorldBossRepository
    from storage.world_boss_records import WorldBossAlreadyLive

    uploaded = parse_bosses(args.bosses.read_text(encoding="utf-8"), args.bosses.name) if args.bosses else []
    boss = find_boss(guild_roster(uploaded), args.boss)
    hp = spawned_hp(boss.health, args.hp, args.multiplier)
    url = os.environ.get("DATABASE_URL") or dotenv_values(".env").get("DATABASE_URL")
    if url:
        from storage.postgres import PostgresDatabase

        db = await PostgresDatabase.open(url)
    else:
        db = await Database.open(args.database or configured_database())
    try:
        now = time.time()
        spawned = await WorldBossRepository(db).spawn(
            boss, hp, spawned_by=0, now=now, ends_at=now + args.days * 86400, cooldown_seconds=args.cooldown
        )
    except WorldBossAlreadyLive as live:
        raise SystemExit(f"error: {live.boss.boss.name} is the world boss still (one at a time)") from None
    finally:
        await db.close()
    return f"spawned world boss #{spawned.id}: {boss.name}, {spawned.max_hp:g} HP, for {args.days:g} days"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage", description="Arena's database from the shell.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    take = commands.add_parser("backup", help="copy the database consistently, even while the bot runs")
    take.add_argument("file", type=Path, help="the new file to write the copy to")
    take.add_argument("--database", type=Path, help="the database to copy (default: DATABASE_PATH)")
    move = commands.add_parser("copy", help="move an installation's data from SQLite to an empty PostgreSQL database")
    move.add_argument("--from", dest="source", type=Path, required=True, help="the SQLite database file")
    move.add_argument("--to", dest="url", required=True, help="postgresql://user:password@host/db (empty)")
    world = commands.add_parser("world-spawn", help="spawn the world boss, fought by every server taking part")
    world.add_argument("--boss", required=True, help="a boss's name, of the built-in roster or of --bosses")
    world.add_argument("--bosses", type=Path, help="a boss CSV to take it from")
    world.add_argument("--hp", type=float, help="its HP (default: the boss's health)")
    world.add_argument("--multiplier", type=float, help="or its health times this")
    world.add_argument("--days", type=float, default=1.0, help="days until it leaves (at most 14)")
    world.add_argument("--cooldown", type=int, default=0, help="seconds each member waits between attacks")
    world.add_argument("--database", type=Path, help="the SQLite database (default: DATABASE_PATH)")
    args = parser.parse_args(argv)
    if args.command == "world-spawn":
        from rules.errors import RuleInputError

        if not 0 < args.days <= 14:
            raise SystemExit("error: --days must be above 0 and at most 14")
        try:
            print(asyncio.run(world_spawn(args)))
        except RuleInputError as problem:
            raise SystemExit(f"error: {problem}") from None
        return 0
    if args.command == "copy":
        from storage.postgres import shown_url

        if not args.source.is_file():  # Database.open would create an empty one
            raise SystemExit(f"error: there is no database at {args.source}")
        if not is_arena_database(args.source):  # Database.open would add Arena's tables to it
            raise SystemExit(
                f"error: {args.source} is not an Arena database; --from names the bot's DATABASE_PATH file"
            )
        counts = asyncio.run(copy(args.source, args.url))
        print(
            f"copied {sum(counts.values()):,} rows in {len(counts)} tables from {args.source} to "
            f"{shown_url(args.url)}; every table's count verified"
        )
        return 0
    database = args.database or configured_database()
    pages = backup(database, args.file)
    print(f"copied {database} to {args.file} ({pages} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
