"""The built-in boss roster, shipped as bosses.csv beside this module, and a guild's roster on top of it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from rules.bossfight.models import Boss
from rules.bossfight.parsing import parse_bosses
from rules.roster import find, merge

ROSTER_FILE = Path(__file__).with_name("bosses.csv")
BUILTIN_BOSSES: tuple[Boss, ...] = tuple(parse_bosses(ROSTER_FILE.read_text(encoding="utf-8"), ROSTER_FILE.name))


def guild_roster(uploaded: Iterable[Boss]) -> dict[str, Boss]:
    """The built-in bosses with a guild's uploads added or replacing them by name (rules.roster)."""
    return merge(BUILTIN_BOSSES, uploaded)


def find_boss(roster: Mapping[str, Boss], name: str) -> Boss:
    return find(roster, name, kind="boss")
