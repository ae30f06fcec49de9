"""Roster CSV files: reading with located errors and warnings, and writing the final state back out.

The format is the document's: `Name, XP, BonusXP, BonusHP, BonusToHit, BonusToDefend, AOE, BodyguardFor,
LinkedTo`, an optional `HP` (current HP, overriding 2 + BonusHP), then any number of 4-column buff groups
`BuffName, BuffWho, BuffOffense, BuffDefense`. Headers are matched by name, case-insensitively; only Name
and XP must be present (a missing optional column reads as blank, and blank numbers are 0).

Choices where the rules are silent:
- Buff columns must come in complete groups in the order above (other columns may sit between them).
  A row's buff group that is entirely blank is no buff; one that is partly filled needs BuffName and
  BuffWho. A name listed twice in one BuffWho counts once.
- Limits against absurd input, each stated in its message: at most 50,000 fighters per file, names of at
  most 100 characters, |XP|, |BonusXP|, |BonusHP| and HP at most 1e9, |BonusToHit|, |BonusToDefend| and
  buff values at most 1000, AOE at most 1000.
- The final CSV lists the survivors only (a fighter at 0 HP could not be read back in); it is written in
  the canonical column order with `HP` after `LinkedTo`, and numbers are written so that they read back
  as exactly the same values (shortest round-trip form), which is what makes continuing exact.
- The final CSV has every buff group of the input's header, whether or not a survivor uses it, and the
  header alone when no one of the side survives (RULINGS 6), so it stays a template to fill in.
- Warnings about names that are no one on the side come one per kind: the same name, named by the same
  column (and buff) of one file. A kind on several rows is one line with the number of rows and which
  ones (the first five ranges), e.g. `column 'BodyguardFor': BodyguardFor names 'Jounin', who is not
  in this file; ignored (6 rows: 19–24)`. A file read to continue a battle is not warned about that
  battle's fallen: `battle.continue_battle` drops those names.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable
from typing import TypeVar

from rules.csvio import (
    NOT_ONE_LINE,
    CsvColumns,
    CsvRow,
    CsvTable,
    from_formula_safe,
    normalize_header,
    read_csv,
    read_csv_columns,
    write_csv,
)
from rules.errors import InputProblem, RuleInputError
from rules.mfd.models import BASE_HP, Buff, Fighter, Roster, UnknownName, name_order
from rules.text import plural

BASE_COLUMNS = (
    "Name",
    "XP",
    "BonusXP",
    "BonusHP",
    "BonusToHit",
    "BonusToDefend",
    "AOE",
    "BodyguardFor",
    "LinkedTo",
    "HP",
)
REQUIRED_COLUMNS = ("Name", "XP")
BUFF_COLUMNS = ("BuffName", "BuffWho", "BuffOffense", "BuffDefense")

MAX_FIGHTERS = 50_000
# The final CSVs write the engine's BonusToDefend, which exhaustion lowers every round; said wherever they
# are handed out (the bot's replies, its format guide, the command line), since the column looks like input.
EXHAUSTION_NOTE = (
    "BonusToDefend in the final CSVs includes the exhaustion so far: 0.1 lower for every round a fighter "
    "survived (0.1 becomes -0.2 after 3 rounds). Fighting on from them keeps everyone as tired as they are; "
    "raise it back to rest a fighter."
)
MAX_NAME_LENGTH = 100
MAX_XP = 1e9
MAX_HP = 1e9
MAX_BONUS = 1000.0
MAX_AOE = 1000
MAX_PROBLEMS_LISTED = 20

_BUFF_KEYS = tuple(normalize_header(c) for c in BUFF_COLUMNS)
Reference = tuple[int, str, str, str]  # a name a row refers to: (row number, column key, name, what names it)
T = TypeVar("T")
_QUOTE_HINT = '; a BuffWho list of several names must be inside double quotes, e.g. "Alice,Bob"'


def _buff_key(column: str, group: int) -> str:
    """The key of a buff column in group `group` (1-based): the first group keeps the plain name."""
    return normalize_header(column) if group == 1 else f"{normalize_header(column)} #{group}"


def _header(text: str) -> tuple[int, int, str, list[str]] | None:
    """The header: its line number, where it starts in `text`, the line and its cells as the shared reader
    reads them (None when there is none, or when the CSV is malformed, which that reader reports with its
    location)."""
    start = 0
    for number, line in enumerate(io.StringIO(text, newline=""), start=1):
        try:
            cells = next(csv.reader([line], skipinitialspace=True), list[str]())
        except csv.Error:
            return None
        if any(cell.strip() for cell in cells):
            return number, start, line, [from_formula_safe(cell) for cell in cells]
        start += len(line)
    return None


def _number_buff_groups(text: str, file: str) -> tuple[str, int]:
    """Check the header's buff columns and give repeated groups distinct names (`BuffWho #2`, ...).

    The shared CSV reader refuses repeated headers; renaming them here keeps its other checks and its row
    numbers (only the header line changes). Returns the text to read and the number of buff groups.
    """
    header = _header(text)
    if header is None:
        return text, 0
    header_line, header_start, line, cells = header
    seen = 0
    renamed: list[str] = []
    last_buff_column = ""
    for cell in cells:
        key = normalize_header(cell)
        if key not in _BUFF_KEYS:
            renamed.append(cell.strip())
            continue
        expected = BUFF_COLUMNS[seen % 4]
        if key != normalize_header(expected):
            raise RuleInputError(
                InputProblem(
                    f"broken buff group: '{expected}' was expected here; buff columns come in groups of four, "
                    f"in the order {', '.join(BUFF_COLUMNS)}",
                    file,
                    header_line,
                    cell.strip(),
                )
            )
        group = seen // 4 + 1
        renamed.append(cell.strip() if group == 1 else f"{cell.strip()} #{group}")
        last_buff_column = cell.strip()
        seen += 1
    if seen % 4:
        missing = ", ".join(BUFF_COLUMNS[seen % 4 :])
        raise RuleInputError(
            InputProblem(
                f"broken buff group: it ends here without {missing}; buff columns come in groups of four, "
                f"in the order {', '.join(BUFF_COLUMNS)}",
                file,
                header_line,
                last_buff_column,
            )
        )
    if seen <= 4:
        return text, seen // 4
    line_end = line[len(line.rstrip("\r\n")) :]
    new_header = write_csv(renamed, []).rstrip("\n") + line_end
    return text[:header_start] + new_header + text[header_start + len(line) :], seen // 4


def read_roster(text: str, file: str, side: str) -> Roster:
    """Read one side's CSV. Raises RuleInputError listing every problem found (up to 20)."""
    text, groups = _number_buff_groups(text.removeprefix("\ufeff"), file)
    optional = [c for c in BASE_COLUMNS if c not in REQUIRED_COLUMNS]
    group_keys = [tuple(_buff_key(c, g) for c in BUFF_COLUMNS) for g in range(1, groups + 1)]
    optional += [key for keys in group_keys for key in keys]

    def table_of(read: Callable[..., T]) -> T:
        try:
            return read(text, file, required=REQUIRED_COLUMNS, optional=optional, max_rows=MAX_FIGHTERS)
        except RuleInputError as exc:
            if groups and any("cells but the header has" in p.message for p in exc.problems):
                raise RuleInputError(
                    [InputProblem(p.message + _QUOTE_HINT, p.file, p.row, p.column) for p in exc.problems]
                ) from None
            raise

    references: list[Reference] = []
    columns = table_of(read_csv_columns)
    fighters = _valid_fighters(columns, group_keys, references) if columns is not None else None
    table: CsvColumns | CsvTable
    if columns is None or fighters is None:  # a row has a problem: row by row finds and locates every one
        references = []
        table = table_of(read_csv)
        fighters, names = _fighters_row_by_row(table, group_keys, references)
    else:
        table, names = columns, {f.name for f in fighters}
    fighters.sort(key=lambda f: name_order(f.name))
    label = {key: header.strip() for key, header in zip(table.keys, table.headers, strict=True)}
    unknown = tuple(
        UnknownName(file, line, label[key], name, named_by)
        for line, key, name, named_by in references
        if name not in names
    )
    return Roster(side, file, tuple(fighters), unknown, groups)


def _fighters_row_by_row(
    table: CsvTable, group_keys: list[tuple[str, ...]], references: list[Reference]
) -> tuple[list[Fighter], set[str]]:
    """The fighters of the table's rows and their names; a RuleInputError lists every problem (up to 20)."""
    problems: list[InputProblem] = []
    fighters: list[Fighter] = []
    rows_of: dict[str, int] = {}
    for row in table.rows:
        name = row.text("name")
        if name and name in rows_of:
            problems.extend(
                row.problem(
                    "name",
                    f"'{name}' is already the name of the fighter on row {rows_of[name]}; "
                    "names must be unique within a file",
                ).problems
            )
            continue
        if name:
            rows_of[name] = row.line
        try:
            fighters.append(_read_fighter(row, group_keys, references))
        except RuleInputError as exc:
            problems.extend(exc.problems)
    if problems:
        if len(problems) > MAX_PROBLEMS_LISTED:
            more = len(problems) - MAX_PROBLEMS_LISTED
            problems = [
                *problems[:MAX_PROBLEMS_LISTED],
                InputProblem(f"... and {plural(more, 'more problem')}", table.file),
            ]
        raise RuleInputError(problems)
    return fighters, set(rows_of)


def _valid_fighters(
    table: CsvColumns, group_keys: list[tuple[str, ...]], references: list[Reference]
) -> list[Fighter] | None:
    """The fighters of the table when no row has a problem, checked a column at a time: a roster of thousands
    reads in half the time row by row takes. None as soon as any check fails, for `_read_fighter` to say
    which and where; the checks are its own (a blank number is 0), and a row's buffs are read by the same code."""

    def parsed(cells: list[str]) -> dict[str, float] | None:
        """Each distinct cell's number (a blank one's is 0), None if one is not a finite number. A column repeats
        few values (0, 2, 0.1): parsing each once saves about 2 ms of reading a roster of 2000."""
        try:
            value_of = {raw: float(raw) if raw else 0 for raw in set(cells)}
        except ValueError:
            return None
        return value_of if all(map(math.isfinite, value_of.values())) else None

    def numbers(key: str, limit: float) -> list[float] | None:
        cells = table.column(key)
        value_of = parsed(cells)
        if value_of is None or min(value_of.values()) < -limit or max(value_of.values()) > limit:
            return None
        return list(map(value_of.__getitem__, cells))

    names = table.column("name")
    if not all(names) or len(set(names)) < len(names) or max(map(len, names)) > MAX_NAME_LENGTH:
        return None
    if not all(map(str.isprintable, names)):
        return None
    xp, bonus_xp, bonus_hp = numbers("xp", MAX_XP), numbers("bonusxp", MAX_XP), numbers("bonushp", MAX_HP)
    to_hit, to_defend = numbers("bonustohit", MAX_BONUS), numbers("bonustodefend", MAX_BONUS)
    aoe = numbers("aoe", MAX_AOE)
    if xp is None or bonus_xp is None or bonus_hp is None or to_hit is None or to_defend is None or aoe is None:
        return None
    if not all(a + b > 0 for a, b in zip(xp, bonus_xp)) or not all(map(float.is_integer, map(float, aoe))):
        return None
    written = table.column("hp")
    hp_of = parsed(written)
    if hp_of is None:
        return None
    # HP as written (at most MAX_HP, no least but above 0), else 2 + BonusHP
    if "" in written:
        hp = [hp_of[raw] if raw else BASE_HP + bonus for raw, bonus in zip(written, bonus_hp)]
    else:
        hp = list(map(hp_of.__getitem__, written))
    if max(hp) > MAX_HP or min(hp) <= 0:
        return None
    # A row with a buff (any cell of a buff group filled) is read by `_read_fighter`.
    buff_columns = [table.column(key) for keys in group_keys for key in keys]
    buffed = [any(cells) for cells in zip(*buff_columns)] if buff_columns else [False] * len(names)
    rows = zip(
        table.lines,
        names,
        zip(xp, bonus_xp, bonus_hp, to_hit, to_defend, aoe, hp),
        table.column("bodyguardfor"),
        table.column("linkedto"),
        buffed,
    )
    fighters: list[Fighter] = []
    for i, (line, name, row_numbers, guard, link, has_buff) in enumerate(rows):
        try:
            buffs = _buffs(table.row(i), group_keys, references) if has_buff else ()
        except RuleInputError:
            return None
        fighters.append(_fighter(line, name, row_numbers, guard, link, buffs, references))
    return fighters


def _read_fighter(row: CsvRow, group_keys: list[tuple[str, ...]], references: list[Reference]) -> Fighter:
    """One fighter from its row (`group_keys`: the column keys of each buff group); the names it refers to
    are appended to `references`."""
    cells = row.cells
    name = cells.get("name", "")
    if not name:
        raise row.problem("name", "is empty; every fighter needs a name")
    if len(name) > MAX_NAME_LENGTH:
        raise row.problem("name", f"is {len(name)} characters long; the limit is {MAX_NAME_LENGTH}")
    if not name.isprintable():
        raise row.problem("name", NOT_ONE_LINE)
    xp = row.number("xp", minimum=-MAX_XP, maximum=MAX_XP)
    bonus_xp = row.number("bonusxp", minimum=-MAX_XP, maximum=MAX_XP)
    if xp + bonus_xp <= 0:
        raise row.problem("xp", f"TotalXP (XP + BonusXP) is {_cell(xp + bonus_xp)}; it must be above 0")
    bonus_hp = row.number("bonushp", minimum=-MAX_HP, maximum=MAX_HP)
    if cells.get("hp"):
        hp = row.number("hp", maximum=MAX_HP)
        if hp <= 0:
            raise row.problem("hp", f"HP is {_cell(hp)}; a fighter must start with more than 0 HP")
    else:
        hp = BASE_HP + bonus_hp
        if hp <= 0:
            raise row.problem("bonushp", f"starting HP (2 + BonusHP) is {_cell(hp)}; it must be above 0")
    aoe = int(row.number("aoe", integer=True, maximum=MAX_AOE))
    buffs = _buffs(row, group_keys, references)
    bonus_to_hit = row.number("bonustohit", minimum=-MAX_BONUS, maximum=MAX_BONUS)
    bonus_to_defend = row.number("bonustodefend", minimum=-MAX_BONUS, maximum=MAX_BONUS)
    numbers = (xp, bonus_xp, bonus_hp, bonus_to_hit, bonus_to_defend, aoe, hp)
    guard, link = cells.get("bodyguardfor", ""), cells.get("linkedto", "")
    return _fighter(row.line, name, numbers, guard, link, buffs, references)


def _buffs(row: CsvRow, group_keys: list[tuple[str, ...]], references: list[Reference]) -> tuple[Buff, ...]:
    """The buffs of a row's filled buff groups; the names they buff are appended to `references`."""
    cells = row.cells
    buffs: list[Buff] = []
    for keys in group_keys:
        if not any(map(cells.get, keys)):
            continue
        buff_name, who_key = cells.get(keys[0], ""), keys[1]
        if not buff_name:
            raise row.problem(keys[0], "broken buff group: the buff has values but no BuffName")
        who = tuple(dict.fromkeys(n.strip() for n in cells.get(who_key, "").split(",") if n.strip()))
        if not who:
            raise row.problem(who_key, f"broken buff group: buff '{buff_name}' names no one in BuffWho")
        offense, defense = (_buff_number(row, k) for k in keys[2:])
        buffs.append(Buff(buff_name, who, offense, defense))
        references += [(row.line, who_key, n, f"buff '{buff_name}'") for n in who]
    return tuple(buffs)


def _fighter(
    line: int,
    name: str,
    numbers: tuple[float, float, float, float, float, float, float],
    bodyguard_for: str,
    linked_to: str,
    buffs: tuple[Buff, ...],
    references: list[Reference],
) -> Fighter:
    """The fighter of a row, from its checked numbers (XP, BonusXP, BonusHP, BonusToHit, BonusToDefend, AOE,
    HP); its BodyguardFor and LinkedTo are appended to `references`."""
    xp, bonus_xp, bonus_hp, bonus_to_hit, bonus_to_defend, aoe, hp = numbers
    if bodyguard_for:
        references.append((line, "bodyguardfor", bodyguard_for, "BodyguardFor"))
    if linked_to:
        references.append((line, "linkedto", linked_to, "LinkedTo"))
    return Fighter(
        name,
        xp,
        hp,
        bonus_xp,
        bonus_hp,
        bonus_to_hit,
        bonus_to_defend,
        max(1, int(aoe)),
        bodyguard_for,
        linked_to,
        buffs,
    )


def _buff_number(row: CsvRow, key: str) -> float:
    try:
        return row.number(key, minimum=-MAX_BONUS, maximum=MAX_BONUS)
    except RuleInputError as exc:
        p = exc.problems[0]
        if "is not a number" not in p.message:
            raise
        raise RuleInputError(InputProblem(p.message + _QUOTE_HINT, p.file, p.row, p.column)) from None


def _cell(value: float) -> str:
    """A number written so that it reads back as exactly the same float."""
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)


def final_csv_bound(roster: Roster) -> int:
    """The most bytes the final CSV of a run from `roster` can take: the survivors are some of its fighters,
    and a survivor's row differs from its row now only in HP (integer HP stays an integer no longer than
    now; any other takes at most 23 characters, e.g. 1.0000000000065512e-05) and the exhausted BonusToDefend
    (rounded to 10 places: at most 19 characters)."""
    growth = 0
    for f in roster.fighters:
        if not float(f.hp).is_integer():
            growth += max(0, 23 - len(_cell(f.hp)))
        growth += max(0, 19 - len(_cell(f.bonus_to_defend)))
    return len(final_csv(roster).encode()) + growth


def final_csv(roster: Roster) -> str:
    """A side's final CSV: its fighters as they stand, with every buff group of the file it came from."""
    return write_roster(roster.fighters, buff_groups=roster.buff_groups)


def write_roster(fighters: Iterable[Fighter], *, buff_groups: int = 0) -> str:
    """The CSV of `fighters` in the input format plus HP, with at least `buff_groups` buff groups; reading
    it back gives the same fighters."""
    fighters = list(fighters)
    groups = max([buff_groups, *(len(f.buffs) for f in fighters)])
    headers = list(BASE_COLUMNS) + list(BUFF_COLUMNS) * groups
    rows: list[list[str]] = []
    for f in fighters:
        row = [
            f.name,
            _cell(f.xp),
            _cell(f.bonus_xp),
            _cell(f.bonus_hp),
            _cell(f.bonus_to_hit),
            _cell(f.bonus_to_defend),
            str(f.aoe),
            f.bodyguard_for,
            f.linked_to,
            _cell(f.hp),
        ]
        for buff in f.buffs:
            row += [buff.name, ",".join(buff.who), _cell(buff.offense), _cell(buff.defense)]
        row += [""] * (4 * (groups - len(f.buffs)))
        rows.append(row)
    return write_csv(headers, rows)
