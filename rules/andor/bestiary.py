"""Monster lists: the built-in bestiary (bestiary.csv beside this module, RULINGS 4) and GM uploads.

Both are read by `parse_monsters`, so an uploaded file has exactly the columns of bestiary.csv. Names are
matched as `rules.roster` says; a guild's monster with a built-in name replaces the built-in one there. A file
holds at most MAX_UPLOAD_ROWS monsters and a guild at most MAX_GUILD_MONSTERS of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources

from rules.andor.models import DEFAULT_CRIT_MULTIPLIER, STAT_LIMITS, Monster, check_name
from rules.csvio import read_csv
from rules.errors import RuleInputError
from rules.roster import find, merge, name_key

REQUIRED_COLUMNS = (
    "name",
    "hp",
    "ap",
    "attack_cost",
    "attack_chance",
    "damage_min",
    "damage_max",
    "block_chance",
    "xp",
)
OPTIONAL_COLUMNS = ("crit_chance", "crit_multiplier", "damage_resistance")  # blank or absent: 0, 1.5, 0
# Blank or absent: gold 0 to floor(XP / 2) (both gold columns or neither), not aggressive (RULINGS 6).
LOOT_COLUMNS = ("gold_min", "gold_max")
AGGRESSIVE = "aggressive"
MAX_UPLOAD_ROWS = 200
MAX_GUILD_MONSTERS = 500


def parse_monsters(text: str, file: str, *, max_rows: int = MAX_UPLOAD_ROWS) -> list[Monster]:
    table = read_csv(
        text,
        file,
        required=REQUIRED_COLUMNS,
        optional=(*OPTIONAL_COLUMNS, *LOOT_COLUMNS, AGGRESSIVE),
        max_rows=max_rows,
    )
    monsters: list[Monster] = []
    seen: dict[str, int] = {}
    for row in table.rows:
        try:
            name = check_name(row.text("name"))
        except RuleInputError as exc:
            raise row.problem("name", exc.problems[0].message) from None
        if name_key(name) in seen:
            raise row.problem("name", f"'{name}' is already on row {seen[name_key(name)]}")
        seen[name_key(name)] = row.line
        values: dict[str, float] = {}
        for key in REQUIRED_COLUMNS[1:] + OPTIONAL_COLUMNS:
            limit = STAT_LIMITS[key]
            blank = DEFAULT_CRIT_MULTIPLIER if key == "crit_multiplier" else (0 if key in OPTIONAL_COLUMNS else None)
            values[key] = row.number(
                key, minimum=limit.minimum, maximum=limit.maximum, integer=limit.integer, blank=blank
            )
        loot: dict[str, float | None] = {}
        for key in LOOT_COLUMNS:
            limit = STAT_LIMITS[key]
            loot[key] = (
                None
                if row.text(key) == ""
                else row.number(key, minimum=limit.minimum, maximum=limit.maximum, integer=True)
            )
        if (loot["gold_min"] is None) != (loot["gold_max"] is None):
            missing = "gold_max" if loot["gold_max"] is None else "gold_min"
            raise row.problem(missing, "is empty; give both gold_min and gold_max, or neither")
        monster = Monster.model_validate({"name": name, **values, **loot, AGGRESSIVE: row.flag(AGGRESSIVE)})
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
    """A guild's bestiary by name key: the built-in monsters, then the guild's on top (rules.roster)."""
    return merge(builtin_monsters(), guild_monsters)


def find_monster(book: Mapping[str, Monster], name: str) -> Monster:
    return find(book, name, kind="monster")
