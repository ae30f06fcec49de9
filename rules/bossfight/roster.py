"""The built-in boss roster, shipped as bosses.csv beside this module."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rules.bossfight.models import Boss
from rules.bossfight.parsing import parse_bosses

ROSTER_FILE = Path(__file__).with_name("bosses.csv")
BUILTIN_BOSSES: tuple[Boss, ...] = tuple(parse_bosses(ROSTER_FILE.read_text(encoding="utf-8"), ROSTER_FILE.name))


def find_boss(name: str, bosses: Iterable[Boss]) -> Boss | None:
    """Case-insensitive lookup by name."""
    wanted = name.strip().lower()
    return next((b for b in bosses if b.name.lower() == wanted), None)
