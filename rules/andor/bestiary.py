"""Monster lists: the built-in bestiary (bestiary.csv beside this module, RULINGS 4) and GM uploads.

Both are read by `parse_monsters`, so an uploaded file has exactly the columns of bestiary.csv. Names are
matched case-insensitively; a guild's monster with a built-in name replaces the built-in one there.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches
from functools import cache
from importlib import resources

from rules.andor.models import DEFAULT_CRIT_MULTIPLIER, STAT_LIMITS, Monster, check_name
from rules.csvio import read_csv
from rules.errors import RuleInputError

REQUIRED_COLUMNS = ("name", "hp", "ap", "attack_cost", "attack_chance", "damage_min", "damage_max", "block_chance", "xp")
OPTIONAL_COLUMNS = ("crit_chance", "crit_multiplier", "damage_resistance")  # blank or absent: 0, 1.5, 0
MAX_UPLOAD_ROWS = 200
MAX_GUILD_MONSTERS = 500


def parse_monsters(text: str, file: str, *, max_rows: int = MAX_UPLOAD_ROWS) -> list[Monster]:
    table = read_csv(text, file, required=REQUIRED_COLUMNS, optional=OPTIONAL_COLUMNS, max_rows=max_rows)
    monsters: list[Monster] = []
    seen: dict[str, int] = {}
    for row in table.rows:
        try:
            name = check_name(row.text("name"))
        except RuleInputError as exc:
            raise row.problem("name", exc.problems[0].message) from None
        if name.lower() in seen:
            raise row.problem("name", f"'{name}' is already on row {seen[name.lower()]}")
        seen[name.lower()] = row.line
        values = {}
        for key in REQUIRED_COLUMNS[1:] + OPTIONAL_COLUMNS:
            limit = STAT_LIMITS[key]
            blank = DEFAULT_CRIT_MULTIPLIER if key == "crit_multiplier" else (0 if key in OPTIONAL_COLUMNS else None)
            values[key] = row.number(
                key, minimum=limit.minimum, maximum=limit.maximum, integer=limit.integer, blank=blank
            )
        monster = Monster(name=name, **values)
        problems = monster.problems()
        if problems:
            column, message = problems[0]
            raise row.problem(column, message)
        monsters.append(monster)
    return monsters


@cache
def builtin_monsters() -> tuple[Monster, ...]:
    text = resources.files("rules.andor").joinpath("bestiary.csv").read_text(encoding="utf-8")
    return tuple(parse_monsters(text, "bestiary.csv"))


def merged(guild_monsters: Iterable[Monster]) -> dict[str, Monster]:
    """A guild's bestiary by lower-case name: the built-in monsters, then the guild's on top."""
    book = {m.name.lower(): m for m in builtin_monsters()}
    book.update({m.name.lower(): m for m in guild_monsters})
    return book


def find_monster(book: dict[str, Monster], name: str) -> Monster:
    """The monster of that name (any case), or the only one whose name contains it."""
    wanted = " ".join(name.split()).lower()
    if wanted in book:
        return book[wanted]
    containing = [key for key in book if wanted and wanted in key]
    if len(containing) == 1:
        return book[containing[0]]
    keys = containing or get_close_matches(wanted, list(book), n=3)
    close = [book[key].name for key in keys[:5]]
    hint = f"; did you mean {', '.join(close)}?" if close else "; see the bestiary for the names"
    raise RuleInputError(f"there is no monster called '{name.strip()[:60]}'{hint}")
