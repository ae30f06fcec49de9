"""The schema's numbered migrations (storage/migrations/NNNN_name.sql), found in order, and the check each
backend makes before migrating: a database a newer Arena migrated is refused."""

from __future__ import annotations

import re
from pathlib import Path

from storage.errors import StorageUnavailable

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def discover_migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    found: list[tuple[int, Path]] = []
    for path in directory.iterdir():
        match = MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..N without gaps, found {numbers}")
    return found


def check_not_newer(version: int, database: str) -> None:
    """Refuse a database a newer Arena has migrated: this code would misread tables it does not know."""
    known = len(discover_migrations())
    if version > known:
        raise StorageUnavailable(
            f"{database} was last used by a newer Arena (schema {version}; this one knows up to {known}): run "
            "that newer version, or restore a backup taken before it"
        )
